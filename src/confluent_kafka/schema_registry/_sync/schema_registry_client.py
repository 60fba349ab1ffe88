"""The synchronous Schema Registry client: the shared operations (``common/_client_ops.py``)
run on ``httpx.Client`` and ``time.sleep``."""

from __future__ import annotations

import inspect
import time
from typing import Any, Dict, List, Literal, Optional, Union

from ..common._client_ops import ClientOps, Op
from ..._effects import drive
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

__all__ = ["_urlencode", "_RestClient", "SchemaRegistryClient"]

_urlencode = urlencode

# How the shell waits between retries (a module name, so tests can replace it for this shell alone).
_sleep = time.sleep


class _RestClient:
    """The HTTP session of a client, made from its checked settings."""

    def __init__(self, settings: RestSettings) -> None:
        self.settings = settings
        self.base_urls = settings.base_urls
        self.session = httpx.Client(verify=settings.verify, auth=settings.auth, proxy=settings.proxy,
                                    timeout=settings.timeout)
        self._token_session: Optional[Any] = None

    def send_token_request(self, call: TokenCall) -> Any:
        """Send a request to an OAuth token endpoint, on a session of its own (made on first use)."""
        if self._token_session is None:
            self._token_session = httpx.Client()
        return self._token_session.request(call.method, call.url, headers=call.headers, content=call.content)

    def close(self) -> None:
        """Close the sessions."""
        self.session.close()
        if self._token_session is not None:
            self._token_session.close()


class SchemaRegistryClient:
    """A client of a Confluent-compatible Schema Registry.

    Configuration (``*`` = required):

    * ``url`` * -- one URL, or several separated by commas (tried in turn). ``mock://NAME``
      makes an in-process registry (see :meth:`new_client`).
    * ``basic.auth.user.info`` -- ``user:password`` (or put them in the URL).
    * ``bearer.auth.credentials.source`` -- ``STATIC_TOKEN`` (with ``bearer.auth.token``),
      ``CUSTOM`` (with ``bearer.auth.custom.provider.function``/``.config``), ``OAUTHBEARER``
      (the client credentials grant: ``bearer.auth.client.id``, ``bearer.auth.client.secret``,
      ``bearer.auth.scope``, ``bearer.auth.issuer.endpoint.url``) or ``OAUTHBEARER_AZURE_IMDS``
      (a managed identity's token: ``bearer.auth.issuer.endpoint.query``, and
      ``bearer.auth.issuer.endpoint.url`` to replace Azure's metadata endpoint). All but CUSTOM
      need ``bearer.auth.logical.cluster``; ``bearer.auth.identity.pool.id`` is optional. OAuth
      tokens are fetched again when 80% of their lifetime has passed.
    * ``ssl.ca.location``, ``ssl.certificate.location``, ``ssl.key.location``,
      ``ssl.key.password`` -- TLS trust and client certificate (``ssl.ca.location=False``
      turns verification off).
    * ``proxy``, ``timeout`` -- passed to httpx (no timeout unless set, like upstream).
    * ``cache.capacity`` (1000), ``cache.latest.ttl.sec`` (no expiry).
    * ``max.retries`` (3), ``retries.wait.ms`` (1000), ``retries.max.wait.ms`` (20000) --
      retries of timeouts, 429 and 5xx answers and transport errors, with jittered
      exponential backoff.

    :param conf: the configuration.
    :raises ValueError: for a missing or malformed setting, or an unknown key.
    :raises TypeError: for a setting of the wrong type.
    """

    def __init__(self, conf: dict) -> None:  # type: ignore[type-arg]
        self._conf = conf
        settings = RestSettings(conf)
        self._ops = ClientOps(settings, caching=self._caching())
        self._cache = self._ops.cache
        self._rest_client = self._make_rest_client(settings)

    # -- what the mock overrides --------------------------------------------------------------

    @staticmethod
    def _caching() -> bool:
        return True

    def _make_rest_client(self, settings: RestSettings) -> Any:
        return _RestClient(settings)

    def _send(self, call: HttpCall) -> Any:
        session = self._rest_client.session
        return session.request(call.method, url=call.url, headers=call.headers, content=call.content,
                               params=call.params)

    # -- running the shared operations ------------------------------------------------------

    def _run(self, op: Op) -> Any:
        return drive(op, self._perform)

    def _perform(self, effect: Any) -> Any:
        """Answer one effect of an operation (an exception goes back to the operation)."""
        value: Any = None
        if isinstance(effect, HttpCall):
            value = self._send(effect)
        elif isinstance(effect, TokenCall):
            value = self._rest_client.send_token_request(effect)
        elif isinstance(effect, (Sleep, TokenSleep)):
            _sleep(effect.seconds)
        elif isinstance(effect, BearerFields):
            value = effect.provider.get_bearer_fields()
            if inspect.isawaitable(value):
                close = getattr(value, "close", None)
                if close is not None:
                    close()
                raise TypeError("bearer.auth.custom.provider.function returned an awaitable; "
                                "use AsyncSchemaRegistryClient for an async function")
        else:  # pragma: no cover - the operations yield nothing else
            raise TypeError(f"unknown effect {effect!r}")
        return value

    def __enter__(self) -> "SchemaRegistryClient":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP session; the client cannot make requests afterwards. Safe to call
        more than once."""
        if self._rest_client is not None:
            closer = getattr(self._rest_client, "close", None)
            if closer is not None:
                closer()
            else:
                self._rest_client.session.close()

    def config(self) -> Dict[str, Any]:
        """The configuration the client was made with.

        :returns: the dict given to the constructor.
        """
        return self._conf

    def clear_latest_caches(self) -> None:
        """Forget the cached latest versions (plain and by metadata)."""
        self._ops.clear_latest_caches()

    def clear_caches(self) -> None:
        """Forget everything cached."""
        self._ops.clear_caches()

    @staticmethod
    def new_client(conf: dict) -> "SchemaRegistryClient":  # type: ignore[type-arg]
        """A client for ``conf``: a :class:`MockSchemaRegistryClient` (an in-process registry of
        its own) when ``url`` starts with ``mock://``, else a :class:`SchemaRegistryClient`.

        :param conf: the configuration.
        :returns: the client.
        """
        url = conf.get("url")
        if isinstance(url, str) and url.startswith("mock://"):
            from .mock_schema_registry_client import MockSchemaRegistryClient

            return MockSchemaRegistryClient(conf)
        return SchemaRegistryClient(conf)

    def register_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> int:
        """Register ``schema`` under ``subject_name`` (or find it registered there).

        :param subject_name: the subject.
        :param schema: the schema.
        :param normalize_schemas: have the registry normalize the schema first.
        :returns: the schema id.
        :raises SchemaRegistryError: when the registry refuses it (e.g. incompatible).
        """
        result: int = self._run(self._ops.register_schema(subject_name, schema, normalize_schemas))
        return result

    def register_schema_full_response(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> RegisteredSchema:
        """Like :meth:`register_schema`, returning the whole registration.

        :param subject_name: the subject.
        :param schema: the schema.
        :param normalize_schemas: have the registry normalize the schema first.
        :returns: the registered schema (id, guid, subject, version when the registry says it).
        :raises SchemaRegistryError: when the registry refuses it.
        """
        result: RegisteredSchema = self._run(self._ops.register_schema_full_response(subject_name, schema, normalize_schemas))
        return result

    def get_schema(self, schema_id: int, subject_name: Optional[str] = None, fmt: Optional[str] = None, reference_format: Optional[str] = None) -> Schema:
        """The schema with id ``schema_id`` (cached after the first call).

        :param schema_id: the id.
        :param subject_name: the subject it is registered under, if known.
        :param fmt: the output format, depending on the schema type.
        :param reference_format: the output format of references.
        :returns: the schema.
        :raises SchemaRegistryError: when there is no such schema.
        """
        result: Schema = self._run(self._ops.get_schema(schema_id, subject_name, fmt, reference_format))
        return result

    def get_schema_by_guid(self, guid: str, fmt: Optional[str] = None) -> Schema:
        """The schema with guid ``guid`` (cached after the first call).

        :param guid: the guid.
        :param fmt: the output format.
        :returns: the schema.
        :raises SchemaRegistryError: when there is no such schema.
        """
        result: Schema = self._run(self._ops.get_schema_by_guid(guid, fmt))
        return result

    def get_schema_types(self) -> List[str]:
        """The schema types the registry supports.

        :returns: e.g. ``['JSON', 'PROTOBUF', 'AVRO']``.
        :raises SchemaRegistryError: on an error answer.
        """
        result: List[str] = self._run(self._ops.get_schema_types())
        return result

    def get_subjects_by_schema_id(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False, offset: int = 0, limit: int = -1) -> List[str]:
        """The subjects holding the schema with id ``schema_id``.

        :param schema_id: the id.
        :param subject_name: only this subject.
        :param deleted: include soft-deleted registrations.
        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: subject names.
        :raises SchemaRegistryError: when there is no such schema.
        """
        result: List[str] = self._run(self._ops.get_subjects_by_schema_id(schema_id, subject_name, deleted, offset, limit))
        return result

    def get_schema_versions(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False, offset: int = 0, limit: int = -1) -> List[SchemaVersion]:
        """The (subject, version) pairs holding the schema with id ``schema_id``.

        :param schema_id: the id.
        :param subject_name: only this subject.
        :param deleted: include soft-deleted registrations.
        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: the pairs.
        :raises SchemaRegistryError: when there is no such schema.
        """
        result: List[SchemaVersion] = self._run(self._ops.get_schema_versions(schema_id, subject_name, deleted, offset, limit))
        return result

    def lookup_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False, fmt: Optional[str] = None, deleted: bool = False) -> RegisteredSchema:
        """The registration of ``schema`` under ``subject_name``.

        :param subject_name: the subject.
        :param schema: the schema.
        :param normalize_schemas: normalize before comparing.
        :param fmt: the output format.
        :param deleted: include soft-deleted versions.
        :returns: the registration.
        :raises SchemaRegistryError: when the schema is not registered there.
        """
        result: RegisteredSchema = self._run(self._ops.lookup_schema(subject_name, schema, normalize_schemas, fmt, deleted))
        return result

    def get_subjects(self, subject_prefix: Optional[str] = None, deleted: bool = False, deleted_only: bool = False, offset: int = 0, limit: int = -1) -> List[str]:
        """The registered subjects.

        :param subject_prefix: only subjects starting with this.
        :param deleted: include soft-deleted subjects.
        :param deleted_only: only soft-deleted subjects.
        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: subject names.
        :raises SchemaRegistryError: on an error answer.
        """
        result: List[str] = self._run(self._ops.get_subjects(subject_prefix, deleted, deleted_only, offset, limit))
        return result

    def delete_subject(self, subject_name: str, permanent: bool = False) -> List[int]:
        """Delete a subject (soft, or hard with ``permanent``; a hard delete needs a soft one first).

        :param subject_name: the subject.
        :param permanent: hard delete.
        :returns: the versions deleted.
        :raises SchemaRegistryError: when there is no such subject.
        """
        result: List[int] = self._run(self._ops.delete_subject(subject_name, permanent))
        return result

    def get_latest_version(self, subject_name: str, fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of a subject (cached; see ``cache.latest.ttl.sec``).

        :param subject_name: the subject.
        :param fmt: the output format.
        :returns: the registration.
        :raises SchemaRegistryError: when the subject has no versions.
        """
        result: RegisteredSchema = self._run(self._ops.get_latest_version(subject_name, fmt))
        return result

    def get_latest_with_metadata(self, subject_name: str, metadata: Dict[str, str], deleted: bool = False, fmt: Optional[str] = None) -> RegisteredSchema:
        """The latest version of a subject whose metadata properties include ``metadata`` (cached).

        :param subject_name: the subject.
        :param metadata: property names and values to match.
        :param deleted: include soft-deleted versions.
        :param fmt: the output format.
        :returns: the registration.
        :raises SchemaRegistryError: when no version matches.
        """
        result: RegisteredSchema = self._run(self._ops.get_latest_with_metadata(subject_name, metadata, deleted, fmt))
        return result

    def get_version(self, subject_name: str, version: Union[int, Literal['latest']] = 'latest', deleted: bool = False, fmt: Optional[str] = None) -> RegisteredSchema:
        """One version of a subject (numbered versions are cached).

        :param subject_name: the subject.
        :param version: the version number, or ``'latest'``.
        :param deleted: include soft-deleted versions.
        :param fmt: the output format.
        :returns: the registration.
        :raises SchemaRegistryError: when there is no such version.
        """
        result: RegisteredSchema = self._run(self._ops.get_version(subject_name, version, deleted, fmt))
        return result

    def get_referenced_by(self, subject_name: str, version: Union[int, Literal['latest']] = 'latest', offset: int = 0, limit: int = -1) -> List[int]:
        """The ids of the schemas referencing a version of a subject.

        :param subject_name: the subject.
        :param version: the version number, or ``'latest'``.
        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: schema ids.
        :raises SchemaRegistryError: when there is no such version.
        """
        result: List[int] = self._run(self._ops.get_referenced_by(subject_name, version, offset, limit))
        return result

    def get_versions(self, subject_name: str, deleted: bool = False, deleted_only: bool = False, offset: int = 0, limit: int = -1) -> List[int]:
        """The versions of a subject.

        :param subject_name: the subject.
        :param deleted: include soft-deleted versions.
        :param deleted_only: only soft-deleted versions.
        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: version numbers.
        :raises SchemaRegistryError: when there is no such subject.
        """
        result: List[int] = self._run(self._ops.get_versions(subject_name, deleted, deleted_only, offset, limit))
        return result

    def delete_version(self, subject_name: str, version: int, permanent: bool = False) -> int:
        """Delete one version of a subject (soft, or hard with ``permanent``).

        :param subject_name: the subject.
        :param version: the version number.
        :param permanent: hard delete.
        :returns: the registry's answer: the version deleted (the ``mock://`` registry answers the schema id, like upstream's mock).
        :raises SchemaRegistryError: when there is no such version.
        """
        result: int = self._run(self._ops.delete_version(subject_name, version, permanent))
        return result

    def set_compatibility(self, subject_name: Optional[str] = None, level: Optional[str] = None) -> str:
        """Set the compatibility level of a subject, or the global one.

        :param subject_name: the subject; None for the global level.
        :param level: e.g. ``'BACKWARD'`` (any case).
        :returns: the registry's answer, e.g. ``{'compatibility': 'BACKWARD'}``.
        :raises ValueError: when ``level`` is None.
        :raises SchemaRegistryError: for an invalid level.
        """
        result: str = self._run(self._ops.set_compatibility(subject_name, level))
        return result

    def get_compatibility(self, subject_name: Optional[str] = None) -> str:
        """The compatibility level of a subject, or the global one.

        :param subject_name: the subject; None for the global level.
        :returns: the level.
        :raises SchemaRegistryError: when the subject has no level of its own.
        """
        result: str = self._run(self._ops.get_compatibility(subject_name))
        return result

    def test_compatibility(self, subject_name: str, schema: Schema, version: Union[int, str] = 'latest', normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` is compatible with a version of a subject.

        :param subject_name: the subject.
        :param schema: the candidate schema.
        :param version: the version number, or ``'latest'``.
        :param normalize: normalize the candidate first.
        :param verbose: ask for the reasons of an incompatibility.
        :returns: True when compatible.
        :raises SchemaRegistryError: on an error answer.
        """
        result: bool = self._run(self._ops.test_compatibility(subject_name, schema, version, normalize, verbose))
        return result

    def test_compatibility_all_versions(self, subject_name: str, schema: Schema, normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` is compatible with the versions of a subject its compatibility level checks.

        :param subject_name: the subject.
        :param schema: the candidate schema.
        :param normalize: normalize the candidate first.
        :param verbose: ask for the reasons of an incompatibility.
        :returns: True when compatible.
        :raises SchemaRegistryError: on an error answer.
        """
        result: bool = self._run(self._ops.test_compatibility_all_versions(subject_name, schema, normalize, verbose))
        return result

    def set_config(self, subject_name: Optional[str] = None, config: Optional[ServerConfig] = None) -> ServerConfig:
        """Update the configuration of a subject, or the global one.

        :param subject_name: the subject; None for the global configuration.
        :param config: the settings to change.
        :returns: the registry's answer (a dict, as upstream returns it).
        :raises ValueError: when ``config`` is None.
        :raises SchemaRegistryError: for an invalid configuration.
        """
        result: ServerConfig = self._run(self._ops.set_config(subject_name, config))
        return result

    def delete_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """Remove the configuration of a subject (or reset the global one).

        :param subject_name: the subject; None for the global configuration.
        :returns: the configuration removed.
        :raises SchemaRegistryError: on an error answer.
        """
        result: ServerConfig = self._run(self._ops.delete_config(subject_name))
        return result

    def get_config(self, subject_name: Optional[str] = None) -> ServerConfig:
        """The configuration of a subject, or the global one.

        :param subject_name: the subject; None for the global configuration.
        :returns: the configuration.
        :raises SchemaRegistryError: when the subject has no configuration of its own.
        """
        result: ServerConfig = self._run(self._ops.get_config(subject_name))
        return result

    def get_mode(self, subject_name: str) -> str:
        """The mode of a subject.

        :param subject_name: the subject.
        :returns: ``READWRITE``, ``READONLY`` or ``IMPORT``.
        :raises SchemaRegistryError: when the subject has no mode of its own.
        """
        result: str = self._run(self._ops.get_mode(subject_name))
        return result

    def update_mode(self, subject_name: str, mode: str, force: bool = False) -> str:
        """Set the mode of a subject.

        :param subject_name: the subject.
        :param mode: ``READWRITE``, ``READONLY`` or ``IMPORT``.
        :param force: change it even when the subject holds schemas.
        :returns: the new mode.
        :raises SchemaRegistryError: on an error answer.
        """
        result: str = self._run(self._ops.update_mode(subject_name, mode, force))
        return result

    def delete_mode(self, subject_name: str) -> str:
        """Remove the mode of a subject (the global mode applies again).

        :param subject_name: the subject.
        :returns: the mode removed.
        :raises SchemaRegistryError: on an error answer.
        """
        result: str = self._run(self._ops.delete_mode(subject_name))
        return result

    def get_global_mode(self) -> str:
        """The registry's global mode.

        :returns: ``READWRITE``, ``READONLY`` or ``IMPORT``.
        :raises SchemaRegistryError: on an error answer.
        """
        result: str = self._run(self._ops.get_global_mode())
        return result

    def update_global_mode(self, mode: str, force: bool = False) -> str:
        """Set the registry's global mode.

        :param mode: ``READWRITE``, ``READONLY`` or ``IMPORT``.
        :param force: change it even when the registry holds schemas.
        :returns: the new mode.
        :raises SchemaRegistryError: on an error answer.
        """
        result: str = self._run(self._ops.update_global_mode(mode, force))
        return result

    def get_contexts(self, offset: int = 0, limit: int = -1) -> List[str]:
        """The registry's schema contexts.

        :param offset: pagination offset.
        :param limit: pagination size (ignored if negative).
        :returns: context names.
        :raises SchemaRegistryError: on an error answer.
        """
        result: List[str] = self._run(self._ops.get_contexts(offset, limit))
        return result

    def get_associations_by_resource_name(self, resource_name: str, resource_namespace: str, resource_type: Optional[str] = None, association_types: Optional[List[str]] = None, offset: int = 0, limit: int = -1) -> List[Association]:
        """The associations of a resource (such as a topic) with subjects.

        :param resource_name: e.g. the topic name.
        :param resource_namespace: e.g. the Kafka cluster id; ``'-'`` for any.
        :param resource_type: e.g. ``'topic'``.
        :param association_types: e.g. ``['key', 'value']``.
        :param offset: pagination offset.
        :param limit: pagination size (ignored below 1).
        :returns: the associations.
        :raises SchemaRegistryError: on an error answer (a registry without associations answers 404).
        """
        result: List[Association] = self._run(self._ops.get_associations_by_resource_name(resource_name, resource_namespace, resource_type, association_types, offset, limit))
        return result

    def create_association(self, request: AssociationCreateOrUpdateRequest) -> AssociationResponse:
        """Associate subjects with a resource.

        :param request: the resource and its associations.
        :returns: the associations made.
        :raises SchemaRegistryError: on an error answer.
        """
        result: AssociationResponse = self._run(self._ops.create_association(request))
        return result

    def delete_associations(self, resource_id: str, resource_type: Optional[str] = None, association_types: Optional[List[str]] = None, cascade_lifecycle: bool = False) -> None:
        """Remove associations of a resource.

        :param resource_id: the resource id.
        :param resource_type: only associations with this resource type.
        :param association_types: only these association types.
        :param cascade_lifecycle: apply the lifecycle policy to the dependent schemas.
        :raises SchemaRegistryError: on an error answer.
        """
        result: None = self._run(self._ops.delete_associations(resource_id, resource_type, association_types, cascade_lifecycle))
        return result

