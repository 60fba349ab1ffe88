"""The asynchronous Schema Registry client: the shared operations (``common/_client_ops.py``)
run on ``httpx.AsyncClient`` and ``asyncio.sleep``."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Dict, List, Literal, Optional, Union

from ..common._client_ops import ClientOps, Op
from ..._effects import drive_async
from ..common._httpx_compat import httpx
from ..common._rest import BearerFields, HttpCall, RestSettings, Sleep, TokenCall, TokenSleep, urlencode
from ..common.schema_registry_client import (
    Association,
    AssociationCreateOrUpdateRequest,
    AssociationResponse,
    RegisteredSchema,
    Schema,
    SchemaVersion,
    ServerConfig,
)
from .._sync.schema_registry_client import SchemaRegistryClient

__all__ = ["_urlencode", "_AsyncRestClient", "AsyncSchemaRegistryClient"]

_urlencode = urlencode

# How the shell waits between retries (a module name, so tests can replace it for this shell alone).
_sleep = asyncio.sleep


class _AsyncRestClient:
    """The async HTTP session of a client, made from its checked settings."""

    def __init__(self, settings: RestSettings) -> None:
        self.settings = settings
        self.base_urls = settings.base_urls
        self.session = httpx.AsyncClient(verify=settings.verify, auth=settings.auth, proxy=settings.proxy,
                                         timeout=settings.timeout)
        self._token_session: Optional[Any] = None

    async def send_token_request(self, call: TokenCall) -> Any:
        """Send a request to an OAuth token endpoint, on a session of its own (made on first use)."""
        if self._token_session is None:
            self._token_session = httpx.AsyncClient()
        return await self._token_session.request(call.method, call.url, headers=call.headers, content=call.content)

    async def aclose(self) -> None:
        """Close the sessions."""
        await self.session.aclose()
        if self._token_session is not None:
            await self._token_session.aclose()


class AsyncSchemaRegistryClient:
    """The asyncio form of :class:`SchemaRegistryClient`: the same configuration and calls,
    each a coroutine. Close it with ``await client.aclose()`` or ``async with``.

    :param conf: the configuration (see :class:`SchemaRegistryClient`).
    :raises ValueError: for a missing or malformed setting, or an unknown key.
    :raises TypeError: for a setting of the wrong type.
    """

    def __init__(self, conf: dict) -> None:  # type: ignore[type-arg]
        self._conf = conf
        settings = RestSettings(conf)
        self._ops = ClientOps(settings, caching=self._caching())
        self._cache = self._ops.cache
        self._rest_client = self._make_rest_client(settings)

    @staticmethod
    def _caching() -> bool:
        return True

    def _make_rest_client(self, settings: RestSettings) -> Any:
        return _AsyncRestClient(settings)

    async def _send(self, call: HttpCall) -> Any:
        session = self._rest_client.session
        return await session.request(call.method, url=call.url, headers=call.headers, content=call.content,
                                     params=call.params)

    async def _run(self, op: Op) -> Any:
        return await drive_async(op, self._perform)

    async def _perform(self, effect: Any) -> Any:
        """Answer one effect of an operation (an exception goes back to the operation)."""
        value: Any = None
        if isinstance(effect, HttpCall):
            value = await self._send(effect)
        elif isinstance(effect, TokenCall):
            value = await self._rest_client.send_token_request(effect)
        elif isinstance(effect, (Sleep, TokenSleep)):
            await _sleep(effect.seconds)
        elif isinstance(effect, BearerFields):
            value = effect.provider.get_bearer_fields()
            if inspect.isawaitable(value):
                value = await value
        else:  # pragma: no cover - the operations yield nothing else
            raise TypeError(f"unknown effect {effect!r}")
        return value

    async def __aenter__(self) -> "AsyncSchemaRegistryClient":
        return self

    async def __aexit__(self, *args: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP session; the client cannot make requests afterwards. Safe to call
        more than once."""
        if self._rest_client is not None:
            closer = getattr(self._rest_client, "aclose", None)
            if closer is not None:
                await closer()
            else:
                await self._rest_client.session.aclose()

    def config(self) -> Dict[str, Any]:
        """The configuration the client was made with.

        :returns: the dict given to the constructor.
        """
        return self._conf

    async def clear_latest_caches(self) -> None:
        """Forget the cached latest versions (plain and by metadata)."""
        self._ops.clear_latest_caches()

    async def clear_caches(self) -> None:
        """Forget everything cached."""
        self._ops.clear_caches()

    @staticmethod
    def new_client(conf: dict) -> "AsyncSchemaRegistryClient":  # type: ignore[type-arg]
        """A client for ``conf``: an :class:`AsyncMockSchemaRegistryClient` when ``url`` starts
        with ``mock://``, else an :class:`AsyncSchemaRegistryClient`.

        :param conf: the configuration.
        :returns: the client.
        """
        url = conf.get("url")
        if isinstance(url, str) and url.startswith("mock://"):
            from .mock_schema_registry_client import AsyncMockSchemaRegistryClient

            return AsyncMockSchemaRegistryClient(conf)
        return AsyncSchemaRegistryClient(conf)

    async def register_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> int:
        """Register ``schema`` under ``subject_name`` (or find it registered there). (awaitable form of
        :meth:`SchemaRegistryClient.register_schema`)."""
        result: int = await self._run(self._ops.register_schema(subject_name, schema, normalize_schemas))
        return result

    async def register_schema_full_response(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> RegisteredSchema:
        """Like :meth:`register_schema`, returning the whole registration. (awaitable form of
        :meth:`SchemaRegistryClient.register_schema_full_response`)."""
        result: RegisteredSchema = await self._run(self._ops.register_schema_full_response(subject_name, schema, normalize_schemas))
        return result

    async def get_schema(self, schema_id: int, subject_name: Optional[str] = None, fmt: Optional[str] = None, reference_format: Optional[str] = None) -> Schema:
        """The schema with id ``schema_id`` (cached after the first call). (awaitable form of
        :meth:`SchemaRegistryClient.get_schema`)."""
        result: Schema = await self._run(self._ops.get_schema(schema_id, subject_name, fmt, reference_format))
        return result

    async def get_schema_by_guid(self, guid: str, fmt: Optional[str] = None) -> Schema:
        """The schema with guid ``guid`` (cached after the first call). (awaitable form of
        :meth:`SchemaRegistryClient.get_schema_by_guid`)."""
        result: Schema = await self._run(self._ops.get_schema_by_guid(guid, fmt))
        return result

    async def get_schema_types(self) -> List[str]:
        """The schema types the registry supports. (awaitable form of
        :meth:`SchemaRegistryClient.get_schema_types`)."""
        result: List[str] = await self._run(self._ops.get_schema_types())
        return result

    async def get_subjects_by_schema_id(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False, offset: int = 0, limit: int = -1) -> List[str]:
        """The subjects holding the schema with id ``schema_id``. (awaitable form of
        :meth:`SchemaRegistryClient.get_subjects_by_schema_id`)."""
        result: List[str] = await self._run(self._ops.get_subjects_by_schema_id(schema_id, subject_name, deleted, offset, limit))
        return result

    async def get_schema_versions(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False, offset: int = 0, limit: int = -1) -> List[SchemaVersion]:
        """The (subject, version) pairs holding the schema with id ``schema_id``. (awaitable form of
        :meth:`SchemaRegistryClient.get_schema_versions`)."""
        result: List[SchemaVersion] = await self._run(self._ops.get_schema_versions(schema_id, subject_name, deleted, offset, limit))
        return result

    async def lookup_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False, fmt: Optional[str] = None, deleted: bool = False) -> RegisteredSchema:
        """The registration of ``schema`` under ``subject_name``. (awaitable form of
        :meth:`SchemaRegistryClient.lookup_schema`)."""
        result: RegisteredSchema = await self._run(self._ops.lookup_schema(subject_name, schema, normalize_schemas, fmt, deleted))
        return result

    async def get_subjects(self, subject_prefix: Optional[str] = None, deleted: bool = False, deleted_only: bool = False, offset: int = 0, limit: int = -1) -> List[str]:
        """The registered subjects. (awaitable form of
        :meth:`SchemaRegistryClient.get_subjects`)."""
        result: List[str] = await self._run(self._ops.get_subjects(subject_prefix, deleted, deleted_only, offset, limit))
        return result

    async def delete_subject(self, subject_name: str, permanent: bool = False) -> List[int]:
        """Delete a subject (soft, or hard with ``permanent``; a hard delete needs a soft one first). (awaitable form of
        :meth:`SchemaRegistryClient.delete_subject`)."""
        result: List[int] = await self._run(self._ops.delete_subject(subject_name, permanent))
        return result

    async def get_latest_version(self, subject_name: str, fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of a subject (cached; see ``cache.latest.ttl.sec``). (awaitable form of
        :meth:`SchemaRegistryClient.get_latest_version`)."""
        result: RegisteredSchema = await self._run(self._ops.get_latest_version(subject_name, fmt))
        return result

    async def get_latest_with_metadata(self, subject_name: str, metadata: Dict[str, str], deleted: bool = False, fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of a subject whose metadata properties include ``metadata`` (cached). (awaitable form of
        :meth:`SchemaRegistryClient.get_latest_with_metadata`)."""
        result: RegisteredSchema = await self._run(self._ops.get_latest_with_metadata(subject_name, metadata, deleted, fmt))
        return result

    async def get_version(self, subject_name: str, version: Union[int, Literal['latest']] = 'latest', deleted: bool = False, fmt: Optional[str] = None) -> RegisteredSchema:
        """One version of a subject (numbered versions are cached). (awaitable form of
        :meth:`SchemaRegistryClient.get_version`)."""
        result: RegisteredSchema = await self._run(self._ops.get_version(subject_name, version, deleted, fmt))
        return result

    async def get_referenced_by(self, subject_name: str, version: Union[int, Literal['latest']] = 'latest', offset: int = 0, limit: int = -1) -> List[int]:
        """The ids of the schemas referencing a version of a subject. (awaitable form of
        :meth:`SchemaRegistryClient.get_referenced_by`)."""
        result: List[int] = await self._run(self._ops.get_referenced_by(subject_name, version, offset, limit))
        return result

    async def get_versions(self, subject_name: str, deleted: bool = False, deleted_only: bool = False, offset: int = 0, limit: int = -1) -> List[int]:
        """The versions of a subject. (awaitable form of
        :meth:`SchemaRegistryClient.get_versions`)."""
        result: List[int] = await self._run(self._ops.get_versions(subject_name, deleted, deleted_only, offset, limit))
        return result

    async def delete_version(self, subject_name: str, version: int, permanent: bool = False) -> int:
        """Delete one version of a subject (soft, or hard with ``permanent``). (awaitable form of
        :meth:`SchemaRegistryClient.delete_version`)."""
        result: int = await self._run(self._ops.delete_version(subject_name, version, permanent))
        return result

    async def set_compatibility(self, subject_name: Optional[str] = None, level: Optional[str] = None) -> str:
        """Set the compatibility level of a subject, or the global one. (awaitable form of
        :meth:`SchemaRegistryClient.set_compatibility`)."""
        result: str = await self._run(self._ops.set_compatibility(subject_name, level))
        return result

    async def get_compatibility(self, subject_name: Optional[str] = None) -> str:
        """The compatibility level of a subject, or the global one. (awaitable form of
        :meth:`SchemaRegistryClient.get_compatibility`)."""
        result: str = await self._run(self._ops.get_compatibility(subject_name))
        return result

    async def test_compatibility(self, subject_name: str, schema: Schema, version: Union[int, str] = 'latest', normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` is compatible with a version of a subject. (awaitable form of
        :meth:`SchemaRegistryClient.test_compatibility`)."""
        result: bool = await self._run(self._ops.test_compatibility(subject_name, schema, version, normalize, verbose))
        return result

    async def test_compatibility_all_versions(self, subject_name: str, schema: Schema, normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` is compatible with the versions of a subject its compatibility level checks. (awaitable form of
        :meth:`SchemaRegistryClient.test_compatibility_all_versions`)."""
        result: bool = await self._run(self._ops.test_compatibility_all_versions(subject_name, schema, normalize, verbose))
        return result

    async def set_config(self, subject_name: Optional[str] = None, config: Optional[ServerConfig] = None) -> ServerConfig:
        """Update the configuration of a subject, or the global one. (awaitable form of
        :meth:`SchemaRegistryClient.set_config`)."""
        result: ServerConfig = await self._run(self._ops.set_config(subject_name, config))
        return result

    async def delete_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """Remove the configuration of a subject (or reset the global one). (awaitable form of
        :meth:`SchemaRegistryClient.delete_config`)."""
        result: ServerConfig = await self._run(self._ops.delete_config(subject_name))
        return result

    async def get_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """The configuration of a subject, or the global one. (awaitable form of
        :meth:`SchemaRegistryClient.get_config`)."""
        result: ServerConfig = await self._run(self._ops.get_config(subject_name))
        return result

    async def get_mode(self, subject_name: str) -> str:
        """The mode of a subject. (awaitable form of
        :meth:`SchemaRegistryClient.get_mode`)."""
        result: str = await self._run(self._ops.get_mode(subject_name))
        return result

    async def update_mode(self, subject_name: str, mode: str, force: bool = False) -> str:
        """Set the mode of a subject. (awaitable form of
        :meth:`SchemaRegistryClient.update_mode`)."""
        result: str = await self._run(self._ops.update_mode(subject_name, mode, force))
        return result

    async def delete_mode(self, subject_name: str) -> str:
        """Remove the mode of a subject (the global mode applies again). (awaitable form of
        :meth:`SchemaRegistryClient.delete_mode`)."""
        result: str = await self._run(self._ops.delete_mode(subject_name))
        return result

    async def get_global_mode(self) -> str:
        """The registry's global mode. (awaitable form of
        :meth:`SchemaRegistryClient.get_global_mode`)."""
        result: str = await self._run(self._ops.get_global_mode())
        return result

    async def update_global_mode(self, mode: str, force: bool = False) -> str:
        """Set the registry's global mode. (awaitable form of
        :meth:`SchemaRegistryClient.update_global_mode`)."""
        result: str = await self._run(self._ops.update_global_mode(mode, force))
        return result

    async def get_contexts(self, offset: int = 0, limit: int = -1) -> List[str]:
        """The registry's schema contexts. (awaitable form of
        :meth:`SchemaRegistryClient.get_contexts`)."""
        result: List[str] = await self._run(self._ops.get_contexts(offset, limit))
        return result

    async def get_associations_by_resource_name(self, resource_name: str, resource_namespace: str, resource_type: Optional[str] = None, association_types: Optional[List[str]] = None, offset: int = 0, limit: int = -1) -> List[Association]:
        """The associations of a resource (such as a topic) with subjects. (awaitable form of
        :meth:`SchemaRegistryClient.get_associations_by_resource_name`)."""
        result: List[Association] = await self._run(self._ops.get_associations_by_resource_name(resource_name, resource_namespace, resource_type, association_types, offset, limit))
        return result

    async def create_association(self, request: AssociationCreateOrUpdateRequest) -> AssociationResponse:
        """Associate subjects with a resource. (awaitable form of
        :meth:`SchemaRegistryClient.create_association`)."""
        result: AssociationResponse = await self._run(self._ops.create_association(request))
        return result

    async def delete_associations(self, resource_id: str, resource_type: Optional[str] = None, association_types: Optional[List[str]] = None, cascade_lifecycle: bool = False) -> None:
        """Remove associations of a resource. (awaitable form of
        :meth:`SchemaRegistryClient.delete_associations`)."""
        result: None = await self._run(self._ops.delete_associations(resource_id, resource_type, association_types, cascade_lifecycle))
        return result


# Each awaitable call documents itself as its synchronous twin does.
for _name, _method in list(vars(AsyncSchemaRegistryClient).items()):
    _twin = getattr(SchemaRegistryClient, _name, None)
    if inspect.iscoroutinefunction(_method) and _twin is not None and _twin.__doc__ and _name != "aclose":
        _method.__doc__ = _twin.__doc__
