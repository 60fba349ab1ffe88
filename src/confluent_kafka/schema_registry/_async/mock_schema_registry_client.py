"""The ``mock://`` async client: :class:`AsyncSchemaRegistryClient` answered by an in-process
registry of its own (``common/_mock_registry.py``) instead of HTTP."""

from __future__ import annotations

from typing import Any

from ..common._mock_registry import MockRegistry
from ..common._rest import HttpCall, RestSettings
from .._sync.mock_schema_registry_client import _MockRestClient
from .schema_registry_client import AsyncSchemaRegistryClient

__all__ = ["AsyncMockSchemaRegistryClient"]


class AsyncMockSchemaRegistryClient(AsyncSchemaRegistryClient):
    """The asyncio form of :class:`MockSchemaRegistryClient`.

    :param conf: the configuration (``url`` is usually ``mock://NAME``).
    """

    def __init__(self, conf: dict) -> None:  # type: ignore[type-arg]
        self._registry = MockRegistry()
        super().__init__(conf)

    @staticmethod
    def _caching() -> bool:
        return False

    def _make_rest_client(self, settings: RestSettings) -> Any:
        return _MockRestClient(settings)

    async def _send(self, call: HttpCall) -> Any:
        return self._registry.handle(call)
