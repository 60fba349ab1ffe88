"""The ``mock://`` async client: :class:`AsyncSchemaRegistryClient` answered by an in-process
registry of its own (``common/_mock_registry.py``) instead of HTTP."""

from __future__ import annotations

from typing import Any, Optional

from ..common._mock_registry import InProcessClient
from ..common._rest import HttpCall
from ..common.schema_registry_client import ServerConfig
from .schema_registry_client import AsyncSchemaRegistryClient

__all__ = ["AsyncMockSchemaRegistryClient"]


class AsyncMockSchemaRegistryClient(InProcessClient, AsyncSchemaRegistryClient):
    """The asyncio form of :class:`MockSchemaRegistryClient`.

    :param conf: the configuration (``url`` is usually ``mock://NAME``).
    """

    async def _send(self, call: HttpCall) -> Any:
        return self._registry.handle(call)

    async def set_config(self, subject_name: Optional[str] = None,
                         config: Optional[ServerConfig] = None) -> ServerConfig:
        """Update a configuration; without a ``config`` nothing changes and None is answered,
        as upstream's mock does.

        :param subject_name: the subject; None for the global configuration.
        :param config: the settings to change.
        :returns: the registry's answer.
        """
        if config is None:
            return None  # type: ignore[return-value]
        return await super().set_config(subject_name, config)
