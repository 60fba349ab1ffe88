"""The ``mock://`` client: :class:`SchemaRegistryClient` whose requests are answered by an
in-process registry of its own (``common/_mock_registry.py``) instead of HTTP."""

from __future__ import annotations

from typing import Any, Optional

from ..common._mock_registry import InProcessClient
from ..common._rest import HttpCall
from ..common.schema_registry_client import ServerConfig
from .schema_registry_client import SchemaRegistryClient

__all__ = ["MockSchemaRegistryClient"]


class MockSchemaRegistryClient(InProcessClient, SchemaRegistryClient):
    """A client with an in-process registry of its own, for tests: the same calls and code
    paths as a real client, with no network. Every call reads the registry (nothing is cached).

    :param conf: the configuration (``url`` is usually ``mock://NAME``; the other settings are
        checked like a real client's).
    """

    def _send(self, call: HttpCall) -> Any:
        return self._registry.handle(call)

    def set_config(self, subject_name: Optional[str] = None,
                   config: Optional[ServerConfig] = None) -> ServerConfig:
        """Update a configuration, like :meth:`SchemaRegistryClient.set_config`; without a
        ``config`` nothing changes and None is answered, as upstream's mock does.

        :param subject_name: the subject; None for the global configuration.
        :param config: the settings to change.
        :returns: the registry's answer.
        """
        if config is None:
            return None  # type: ignore[return-value]
        return super().set_config(subject_name, config)
