"""The ``mock://`` client: :class:`SchemaRegistryClient` whose requests are answered by an
in-process registry of its own (``common/_mock_registry.py``) instead of HTTP."""

from __future__ import annotations

from typing import Any, Optional

from ..common._mock_registry import MockRegistry
from ..common._rest import HttpCall, RestSettings
from ..common.schema_registry_client import ServerConfig
from .schema_registry_client import SchemaRegistryClient

__all__ = ["MockSchemaRegistryClient"]


class _NoSession:
    def close(self) -> None:
        pass

    async def aclose(self) -> None:
        pass


class _MockRestClient:
    def __init__(self, settings: RestSettings) -> None:
        self.settings = settings
        self.base_urls = settings.base_urls
        self.session = _NoSession()
        settings.fetch_tokens = False  # the in-process registry needs no token


class MockSchemaRegistryClient(SchemaRegistryClient):
    """A client with an in-process registry of its own, for tests: the same calls and code
    paths as a real client, with no network. Every call reads the registry (nothing is cached).

    :param conf: the configuration (``url`` is usually ``mock://NAME``; the other settings are
        checked like a real client's).
    """

    def __init__(self, conf: dict) -> None:  # type: ignore[type-arg]
        self._registry = MockRegistry()
        super().__init__(conf)

    @staticmethod
    def _caching() -> bool:
        return False

    def _make_rest_client(self, settings: RestSettings) -> Any:
        return _MockRestClient(settings)

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
