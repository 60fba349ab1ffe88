"""What each Schema Registry client call does, written once: which REST request it makes, how
the answer is decoded, and what is cached. No I/O here: every operation is a generator of
:mod:`._rest` effects that the sync shell, the async shell or the ``mock://`` registry runs.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, Dict, Generator, Hashable, List, Literal, Optional, Union

from ._rest import Effect, RestSettings, exchange, urlencode
from .schema_registry_client import (
    Association,
    AssociationCreateOrUpdateRequest,
    AssociationResponse,
    RegisteredSchema,
    Schema,
    SchemaVersion,
    ServerConfig,
    _SchemaCache,
)

Op = Generator[Effect, Any, Any]


class _LatestCache:
    """A bounded LRU map whose entries optionally expire after ``ttl`` seconds."""

    def __init__(self, capacity: int, ttl: Optional[float]) -> None:
        self._capacity = max(capacity, 0)
        self._ttl = ttl
        self._entries: "OrderedDict[Hashable, tuple[float, Any]]" = OrderedDict()

    def get(self, key: Hashable) -> Any:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if self._ttl is not None and time.monotonic() - entry[0] >= self._ttl:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry[1]

    def set(self, key: Hashable, value: Any) -> None:
        if self._capacity == 0:
            return
        self._entries[key] = (time.monotonic(), value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


def _paging(offset: int, limit: int, **extra: Any) -> Dict[str, Any]:
    query: Dict[str, Any] = dict(extra)
    query["offset"] = offset
    query["limit"] = limit
    return query


def _registrations_query(subject_name: Optional[str], deleted: bool, offset: int, limit: int) -> Dict[str, Any]:
    """The query of the two "where is schema id N registered" requests (subjects, versions)."""
    query = _paging(offset, limit)
    if subject_name is not None:
        query["subject"] = subject_name
    if deleted:
        query["deleted"] = deleted
    return query


class ClientOps:
    """The client calls as effect generators, with the client-side caches.

    :param settings: the checked configuration.
    :param caching: False for the ``mock://`` registry, which (like upstream's mock) answers
        every call from its store so that deletions show at once.
    """

    def __init__(self, settings: RestSettings, caching: bool = True) -> None:
        self.settings = settings
        self.caching = caching
        self.cache = _SchemaCache()
        self.latest_lock = threading.Lock()
        self.latest_version_cache = _LatestCache(settings.cache_capacity, settings.cache_latest_ttl_sec)
        self.latest_with_metadata_cache = _LatestCache(settings.cache_capacity, settings.cache_latest_ttl_sec)

    def _call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None,
              query: Optional[Dict[str, Any]] = None) -> Op:
        return exchange(self.settings, method, path, body, query)

    # -- schemas -------------------------------------------------------------------------

    def register_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> Op:
        registered = yield from self.register_schema_full_response(subject_name, schema, normalize_schemas)
        return registered.schema_id

    def register_schema_full_response(self, subject_name: str, schema: Schema,
                                      normalize_schemas: bool = False) -> Op:
        if self.caching:
            known_id = self.cache.get_id_by_schema(subject_name, schema)
            if known_id is not None:
                known = self.cache.get_schema_by_id(subject_name, known_id)
                if known is not None:
                    return RegisteredSchema(subject=subject_name, version=None, schema_id=known_id,
                                            guid=known[0], schema=known[1])
        answer = yield from self._call("POST", f"subjects/{urlencode(subject_name)}/versions", schema.to_dict(),
                                       {"normalize": normalize_schemas})
        got = RegisteredSchema.from_dict(answer)
        registered = RegisteredSchema(subject=got.subject or subject_name, version=got.version,
                                      schema_id=got.schema_id, guid=got.guid, schema=got.schema)
        if self.caching:
            kept = registered.schema if registered.schema.schema_str is not None else schema
            self.cache.set_schema(subject_name, registered.schema_id, registered.guid, kept)
        return registered

    def get_schema(self, schema_id: int, subject_name: Optional[str] = None, fmt: Optional[str] = None,
                   reference_format: Optional[str] = None) -> Op:
        if self.caching:
            known = self.cache.get_schema_by_id(subject_name, schema_id)
            if known is not None:
                return known[1]
        query: Dict[str, Any] = {}
        if subject_name is not None:
            query["subject"] = subject_name
        if fmt is not None:
            query["format"] = fmt
        if reference_format is not None:
            query["reference_format"] = reference_format
        answer = yield from self._call("GET", f"schemas/ids/{schema_id}", query=query)
        registered = RegisteredSchema.from_dict(answer)
        if self.caching:
            self.cache.set_schema(subject_name, schema_id, registered.guid, registered.schema)
            if subject_name is not None:
                self.cache.set_registered_schema(registered.schema, registered)
        return registered.schema

    def get_schema_by_guid(self, guid: str, fmt: Optional[str] = None) -> Op:
        if self.caching:
            known = self.cache.get_schema_by_guid(guid)
            if known is not None:
                return known
        query = {"format": fmt} if fmt is not None else {}
        answer = yield from self._call("GET", f"schemas/guids/{urlencode(str(guid))}", query=query)
        registered = RegisteredSchema.from_dict(answer)
        if self.caching:
            self.cache.set_schema(None, registered.schema_id, registered.guid, registered.schema)
        return registered.schema

    def get_schema_types(self) -> Op:
        return (yield from self._call("GET", "schemas/types"))

    def get_subjects_by_schema_id(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False,
                                  offset: int = 0, limit: int = -1) -> Op:
        query = _registrations_query(subject_name, deleted, offset, limit)
        return (yield from self._call("GET", f"schemas/ids/{schema_id}/subjects", query=query))

    def get_schema_versions(self, schema_id: int, subject_name: Optional[str] = None, deleted: bool = False,
                            offset: int = 0, limit: int = -1) -> Op:
        query = _registrations_query(subject_name, deleted, offset, limit)
        answer = yield from self._call("GET", f"schemas/ids/{schema_id}/versions", query=query)
        return [SchemaVersion.from_dict(item) for item in answer]

    def lookup_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False,
                      fmt: Optional[str] = None, deleted: bool = False) -> Op:
        if self.caching:
            known = self.cache.get_registered_by_subject_schema(subject_name, schema)
            if known is not None:
                return known
        query: Dict[str, Any] = {"normalize": normalize_schemas, "deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        answer = yield from self._call("POST", f"subjects/{urlencode(subject_name)}", schema.to_dict(), query)
        got = RegisteredSchema.from_dict(answer)
        registered = RegisteredSchema(subject=got.subject, version=got.version, schema_id=got.schema_id,
                                      guid=got.guid, schema=schema)
        if self.caching:
            self.cache.set_registered_schema(schema, registered)
        return registered

    # -- subjects and versions -------------------------------------------------------------

    def get_subjects(self, subject_prefix: Optional[str] = None, deleted: bool = False, deleted_only: bool = False,
                     offset: int = 0, limit: int = -1) -> Op:
        query = _paging(offset, limit, deleted=deleted, deleted_only=deleted_only)
        if subject_prefix is not None:
            query["subjectPrefix"] = subject_prefix
        return (yield from self._call("GET", "subjects", query=query))

    def delete_subject(self, subject_name: str, permanent: bool = False) -> Op:
        query = {"permanent": True} if permanent else None
        versions = yield from self._call("DELETE", f"subjects/{urlencode(subject_name)}", query=query)
        if permanent:
            self.cache.remove_by_subject(subject_name)
        return versions

    def get_latest_version(self, subject_name: str, fmt: Optional[str] = None) -> Op:
        if self.caching:
            with self.latest_lock:
                known = self.latest_version_cache.get(subject_name)
            if known is not None:
                return known
        query = {"format": fmt} if fmt is not None else None
        answer = yield from self._call("GET", f"subjects/{urlencode(subject_name)}/versions/latest", query=query)
        registered = RegisteredSchema.from_dict(answer)
        if self.caching:
            with self.latest_lock:
                self.latest_version_cache.set(subject_name, registered)
        return registered

    def get_latest_with_metadata(self, subject_name: str, metadata: Dict[str, str], deleted: bool = False,
                                 fmt: Optional[str] = None) -> Op:
        key = (subject_name, frozenset(metadata.items()), deleted)
        if self.caching:
            with self.latest_lock:
                known = self.latest_with_metadata_cache.get(key)
            if known is not None:
                return known
        query: Dict[str, Any] = {"deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        if metadata:
            query["key"] = list(metadata.keys())
            query["value"] = list(metadata.values())
        answer = yield from self._call("GET", f"subjects/{urlencode(subject_name)}/metadata", query=query)
        registered = RegisteredSchema.from_dict(answer)
        if self.caching:
            with self.latest_lock:
                self.latest_with_metadata_cache.set(key, registered)
        return registered

    def get_version(self, subject_name: str, version: Union[int, Literal["latest"]] = "latest",
                    deleted: bool = False, fmt: Optional[str] = None) -> Op:
        if self.caching and version != "latest":
            known = self.cache.get_registered_by_subject_version(subject_name, version)
            if known is not None:
                return known
        query: Dict[str, Any] = {"deleted": deleted}
        if fmt is not None:
            query["format"] = fmt
        answer = yield from self._call("GET", f"subjects/{urlencode(subject_name)}/versions/{version}", query=query)
        registered = RegisteredSchema.from_dict(answer)
        if self.caching:
            self.cache.set_registered_schema(registered.schema, registered)
        return registered

    def get_referenced_by(self, subject_name: str, version: Union[int, Literal["latest"]] = "latest",
                          offset: int = 0, limit: int = -1) -> Op:
        return (yield from self._call("GET", f"subjects/{urlencode(subject_name)}/versions/{version}/referencedby",
                                      query=_paging(offset, limit)))

    def get_versions(self, subject_name: str, deleted: bool = False, deleted_only: bool = False, offset: int = 0,
                     limit: int = -1) -> Op:
        query = _paging(offset, limit, deleted=deleted, deleted_only=deleted_only)
        return (yield from self._call("GET", f"subjects/{urlencode(subject_name)}/versions", query=query))

    def delete_version(self, subject_name: str, version: int, permanent: bool = False) -> Op:
        query = {"permanent": True} if permanent else None
        answer = yield from self._call("DELETE", f"subjects/{urlencode(subject_name)}/versions/{version}",
                                       query=query)
        self.cache.remove_by_subject_version(subject_name, version)
        return answer

    # -- configuration and modes -----------------------------------------------------------

    @staticmethod
    def _config_path(subject_name: Optional[str]) -> str:
        return "config" if subject_name is None else f"config/{urlencode(subject_name)}"

    def set_compatibility(self, subject_name: Optional[str] = None, level: Optional[str] = None) -> Op:
        if level is None:
            raise ValueError("level must be set")
        return (yield from self._call("PUT", self._config_path(subject_name), {"compatibility": level.upper()}))

    def get_compatibility(self, subject_name: Optional[str] = None) -> Op:
        answer = yield from self._call("GET", self._config_path(subject_name))
        return answer["compatibilityLevel"]

    def test_compatibility(self, subject_name: str, schema: Schema, version: Union[int, str] = "latest",
                           normalize: bool = False, verbose: bool = False) -> Op:
        answer = yield from self._call(
            "POST", f"compatibility/subjects/{urlencode(subject_name)}/versions/{version}", schema.to_dict(),
            {"normalize": normalize, "verbose": verbose})
        return answer["is_compatible"]

    def test_compatibility_all_versions(self, subject_name: str, schema: Schema, normalize: bool = False,
                                        verbose: bool = False) -> Op:
        answer = yield from self._call(
            "POST", f"compatibility/subjects/{urlencode(subject_name)}/versions", schema.to_dict(),
            {"normalize": normalize, "verbose": verbose})
        return answer["is_compatible"]

    def set_config(self, subject_name: Optional[str] = None, config: Optional[ServerConfig] = None) -> Op:
        if config is None:
            raise ValueError("config must be set")
        return (yield from self._call("PUT", self._config_path(subject_name), config.to_dict()))

    def delete_config(self, subject_name: Optional[str] = None) -> Op:
        answer = yield from self._call("DELETE", self._config_path(subject_name))
        return ServerConfig.from_dict(answer)

    def get_config(self, subject_name: Optional[str] = None) -> Op:
        answer = yield from self._call("GET", self._config_path(subject_name))
        return ServerConfig.from_dict(answer)

    def get_mode(self, subject_name: str) -> Op:
        answer = yield from self._call("GET", f"mode/{urlencode(subject_name)}")
        return answer["mode"]

    def update_mode(self, subject_name: str, mode: str, force: bool = False) -> Op:
        answer = yield from self._call("PUT", f"mode/{urlencode(subject_name)}", {"mode": mode}, {"force": force})
        return answer["mode"]

    def delete_mode(self, subject_name: str) -> Op:
        answer = yield from self._call("DELETE", f"mode/{urlencode(subject_name)}")
        return answer["mode"]

    def get_global_mode(self) -> Op:
        answer = yield from self._call("GET", "mode")
        return answer["mode"]

    def update_global_mode(self, mode: str, force: bool = False) -> Op:
        answer = yield from self._call("PUT", "mode", {"mode": mode}, {"force": force})
        return answer["mode"]

    def get_contexts(self, offset: int = 0, limit: int = -1) -> Op:
        return (yield from self._call("GET", "contexts", query=_paging(offset, limit)))

    # -- associations ----------------------------------------------------------------------

    def get_associations_by_resource_name(self, resource_name: str, resource_namespace: str,
                                          resource_type: Optional[str] = None,
                                          association_types: Optional[List[str]] = None, offset: int = 0,
                                          limit: int = -1) -> Op:
        query: Dict[str, Any] = {}
        if resource_type is not None:
            query["resourceType"] = resource_type
        if association_types is not None:
            query["associationType"] = list(association_types)
        if offset > 0:
            query["offset"] = offset
        if limit >= 1:
            query["limit"] = limit
        answer = yield from self._call(
            "GET", f"associations/resources/{urlencode(resource_namespace)}/{urlencode(resource_name)}",
            query=query)
        return [Association.from_dict(item) for item in answer]

    def create_association(self, request: AssociationCreateOrUpdateRequest) -> Op:
        answer = yield from self._call("POST", "associations", request.to_dict())
        return AssociationResponse.from_dict(answer)

    def delete_associations(self, resource_id: str, resource_type: Optional[str] = None,
                            association_types: Optional[List[str]] = None, cascade_lifecycle: bool = False) -> Op:
        query: Dict[str, Any] = {"cascadeLifecycle": cascade_lifecycle}
        if resource_type is not None:
            query["resourceType"] = resource_type
        if association_types is not None:
            query["associationType"] = list(association_types)
        yield from self._call("DELETE", f"associations/resources/{urlencode(resource_id)}", query=query)
        return None

    # -- caches ----------------------------------------------------------------------------

    def clear_latest_caches(self) -> None:
        with self.latest_lock:
            self.latest_version_cache.clear()
            self.latest_with_metadata_cache.clear()

    def clear_caches(self) -> None:
        self.clear_latest_caches()
        self.cache.clear()
