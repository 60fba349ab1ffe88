"""The in-process registry behind ``mock://`` URLs.

It answers the REST requests the clients make (:class:`._rest.HttpCall`), so a mock client runs
exactly the code a real one runs, down to URL quoting and JSON decoding. Where upstream's mock
client defines an answer, this registry gives the same one (ids never reused, the same schema
registered under two subjects getting two ids, ``delete_version`` answering the schema id, an
unknown subject having no versions rather than being an error). Calls upstream's mock leaves to
a network that is not there (configuration, modes, contexts, schema types, references) are
answered the way a registry answers them. Compatibility is not checked (registration never
fails for it); :meth:`MockRegistry.handle` raises :class:`NotImplementedError` for the
compatibility-test endpoints.

Each mock client has its own registry, like upstream's.
"""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any, Callable, Dict, List, Mapping, Optional
from urllib.parse import unquote, urlsplit

from ._rest import HttpCall, RestSettings
from .schema_registry_client import (
    Association,
    AssociationCreateOrUpdateRequest,
    AssociationInfo,
    AssociationResponse,
    RegisteredSchema,
    Schema,
)


class MockResponse:
    """What :class:`MockRegistry` answers: the parts of an HTTP response the clients read."""

    def __init__(self, status_code: int, body: Any = None) -> None:
        self.status_code = status_code
        self._body = body
        self.content = b"" if body is None else json.dumps(body).encode()

    def json(self) -> Any:
        return json.loads(self.content)

    def __repr__(self) -> str:
        return f"<MockResponse [{self.status_code}]>"


def _error(status: int, code: int, message: str) -> MockResponse:
    return MockResponse(status, {"error_code": code, "message": message})


def _not_found() -> MockResponse:
    return _error(404, 40400, "Schema Not Found")


def _flag(query: Mapping[str, Any], name: str) -> bool:
    value = query.get(name, False)
    return value is True or str(value).lower() == "true"


def _page(items: List[Any], query: Mapping[str, Any]) -> List[Any]:
    offset = int(query.get("offset", 0))
    limit = int(query.get("limit", -1))
    if offset > 0:
        items = items[offset:]
    if limit >= 0:
        items = items[:limit]
    return items


def _as_list(value: Any) -> List[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


class MockRegistry:
    """One in-memory registry. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._max_id = 0
        self._by_id: Dict[int, RegisteredSchema] = {}
        self._by_guid: Dict[str, RegisteredSchema] = {}
        self._id_of: Dict[Schema, int] = {}
        self._subjects: Dict[str, List[RegisteredSchema]] = {}
        self._config: Dict[Optional[str], Dict[str, Any]] = {}
        self._modes: Dict[Optional[str], str] = {}
        self._associations: Dict[str, List[Association]] = {}

    # -- request dispatch ------------------------------------------------------------------

    def handle(self, call: HttpCall) -> MockResponse:
        """Answer one request.

        :param call: the request a client would send over HTTP.
        :returns: the response.
        :raises NotImplementedError: for the compatibility-test endpoints.
        """
        parts = [unquote(p) for p in urlsplit(call.url).path.split("/") if p]
        body = json.loads(call.content) if call.content else None
        query = dict(call.params or {})
        with self._lock:
            return self._route(call.method, parts, body, query)

    def _route(self, method: str, p: List[str], body: Any, query: Dict[str, Any]) -> MockResponse:
        n = len(p)
        head = p[0] if p else ""
        if head == "subjects":
            if n == 1 and method == "GET":
                return self._list_subjects(query)
            subject = p[1] if n > 1 else ""
            if n == 2 and method == "POST":
                return self._lookup(subject, body)
            if n == 2 and method == "DELETE":
                return self._delete_subject(subject)
            if n == 3 and p[2] == "versions" and method == "POST":
                return self._register(subject, body)
            if n == 3 and p[2] == "versions" and method == "GET":
                return MockResponse(200, _page([rs.version for rs in self._subjects.get(subject, [])], query))
            if n == 3 and p[2] == "metadata" and method == "GET":
                return self._latest_with_metadata(subject, query)
            if n == 4 and p[2] == "versions" and method == "GET":
                return self._version(subject, p[3])
            if n == 4 and p[2] == "versions" and method == "DELETE":
                return self._delete_version(subject, p[3])
            if n == 5 and p[2] == "versions" and p[4] == "referencedby" and method == "GET":
                return self._referenced_by(subject, p[3], query)
        elif head == "schemas":
            if n == 2 and p[1] == "types" and method == "GET":
                return MockResponse(200, ["JSON", "PROTOBUF", "AVRO"])
            if n >= 3 and p[1] == "ids" and method == "GET":
                return self._by_schema_id(p[2], p[3] if n > 3 else None, query)
            if n == 3 and p[1] == "guids" and method == "GET":
                found = self._by_guid.get(p[2])
                return MockResponse(200, found.to_dict()) if found is not None else _not_found()
        elif head == "config" and n <= 2:
            return self._configure(method, p[1] if n == 2 else None, body)
        elif head == "mode" and n <= 2:
            return self._mode(method, p[1] if n == 2 else None, body)
        elif head == "contexts" and n == 1 and method == "GET":
            return MockResponse(200, ["."])
        elif head == "compatibility":
            raise NotImplementedError("the mock:// registry does not check schema compatibility")
        elif head == "associations":
            return self._association_call(method, p, body, query)
        return _error(404, 404, "HTTP 404 Not Found")

    # -- schemas ---------------------------------------------------------------------------

    def _find(self, subject: str, schema: Schema) -> Optional[RegisteredSchema]:
        for rs in self._subjects.get(subject, []):
            if rs.schema == schema:
                return rs
        return None

    def _latest(self, subject: str) -> Optional[RegisteredSchema]:
        found = self._subjects.get(subject)
        return max(found, key=lambda rs: rs.version or 0) if found else None

    def _register(self, subject: str, body: Dict[str, Any]) -> MockResponse:
        schema = Schema.from_dict(body)
        known = self._find(subject, schema)
        if known is None:
            latest = self._latest(subject)
            self._max_id += 1
            known = RegisteredSchema(subject=subject, version=1 if latest is None else (latest.version or 0) + 1,
                                     schema_id=self._max_id, guid=str(uuid.uuid4()), schema=schema)
            self._by_id[self._max_id] = known
            self._by_guid[known.guid or ""] = known
            self._id_of[schema] = self._max_id
            self._subjects.setdefault(subject, []).append(known)
        return MockResponse(200, known.to_dict())

    def _lookup(self, subject: str, body: Dict[str, Any]) -> MockResponse:
        found = self._find(subject, Schema.from_dict(body))
        return MockResponse(200, found.to_dict()) if found is not None else _not_found()

    def _by_schema_id(self, raw_id: str, sub: Optional[str], query: Dict[str, Any]) -> MockResponse:
        found = self._by_id.get(int(raw_id)) if raw_id.isdigit() else None
        if found is None:
            return _not_found() if sub is None else _error(404, 40403, "Schema {} not found".format(raw_id))
        if sub is None:
            answer = found.schema.to_dict()
            answer["guid"] = found.guid
            return MockResponse(200, answer)
        holders = [(s, rs.version) for s, listed in self._subjects.items() for rs in listed
                   if rs.schema_id == found.schema_id]
        if "subject" in query:
            holders = [h for h in holders if h[0] == query["subject"]]
        if sub == "subjects":
            return MockResponse(200, _page(sorted({s for s, _ in holders}), query))
        if sub == "versions":
            return MockResponse(200, _page([{"subject": s, "version": v} for s, v in holders], query))
        return _error(404, 404, "HTTP 404 Not Found")

    # -- subjects and versions -------------------------------------------------------------

    def _list_subjects(self, query: Dict[str, Any]) -> MockResponse:
        subjects = list(self._subjects)
        prefix = query.get("subjectPrefix")
        if prefix is not None:
            subjects = [s for s in subjects if s.startswith(prefix)]
        return MockResponse(200, _page(subjects, query))

    def _delete_subject(self, subject: str) -> MockResponse:
        removed = self._subjects.pop(subject, [])
        for rs in removed:
            schema_id = self._id_of.pop(rs.schema, None)
            if schema_id is not None:
                self._by_id.pop(schema_id, None)
        return MockResponse(200, [rs.version for rs in removed])

    def _version(self, subject: str, version: str) -> MockResponse:
        if version == "latest":
            found = self._latest(subject)
        else:
            found = next((rs for rs in self._subjects.get(subject, []) if str(rs.version) == version), None)
        return MockResponse(200, found.to_dict()) if found is not None else _not_found()

    def _delete_version(self, subject: str, version: str) -> MockResponse:
        listed = self._subjects.get(subject, [])
        found = next((rs for rs in listed if str(rs.version) == version), None)
        if found is None:
            return _not_found()
        listed.remove(found)
        return MockResponse(200, found.schema_id)

    def _latest_with_metadata(self, subject: str, query: Dict[str, Any]) -> MockResponse:
        wanted = dict(zip(_as_list(query.get("key")), _as_list(query.get("value"))))
        for rs in sorted(self._subjects.get(subject, []), key=lambda r: -(r.version or 0)):
            metadata = rs.schema.metadata
            if metadata is not None and metadata.properties is not None \
                    and wanted.items() <= metadata.properties.properties.items():
                return MockResponse(200, rs.to_dict())
        return _not_found()

    def _referenced_by(self, subject: str, version: str, query: Dict[str, Any]) -> MockResponse:
        target = self._latest(subject) if version == "latest" else next(
            (rs for rs in self._subjects.get(subject, []) if str(rs.version) == version), None)
        if target is None:
            return _not_found()
        ids = sorted({rs.schema_id for rs in self._by_id.values() for ref in rs.schema.references or []
                      if ref.subject == subject and ref.version == target.version and rs.schema_id is not None})
        return MockResponse(200, _page(ids, query))

    # -- configuration and modes -----------------------------------------------------------

    def _configure(self, method: str, subject: Optional[str], body: Any) -> MockResponse:
        if method == "PUT":
            stored = dict(body or {})
            if "compatibility" in stored:
                stored["compatibilityLevel"] = stored.pop("compatibility")
            self._config.setdefault(subject, {}).update(stored)
            return MockResponse(200, body)
        if method == "GET":
            if subject in self._config:
                return MockResponse(200, dict(self._config[subject]))
            if subject is None:
                return MockResponse(200, {"compatibilityLevel": "BACKWARD"})
            return _error(404, 40408, f"Subject '{subject}' does not have subject-level compatibility configured")
        if method == "DELETE":
            old = self._config.pop(subject, None)
            if old is None:
                old = {"compatibilityLevel": "BACKWARD"} if subject is None else None
            if old is None:
                return _error(404, 40401, f"Subject '{subject}' not found.")
            return MockResponse(200, old)
        return _error(405, 405, "HTTP 405 Method Not Allowed")

    def _mode(self, method: str, subject: Optional[str], body: Any) -> MockResponse:
        if method == "PUT":
            self._modes[subject] = str((body or {}).get("mode"))
            return MockResponse(200, {"mode": self._modes[subject]})
        if method == "GET":
            if subject in self._modes:
                return MockResponse(200, {"mode": self._modes[subject]})
            if subject is None:
                return MockResponse(200, {"mode": "READWRITE"})
            return _error(404, 40409, f"Subject '{subject}' does not have subject-level mode configured")
        if method == "DELETE":
            old = self._modes.pop(subject, None)
            if old is None:
                return _error(404, 40401, f"Subject '{subject}' not found.")
            return MockResponse(200, {"mode": old})
        return _error(405, 405, "HTTP 405 Method Not Allowed")

    # -- associations ----------------------------------------------------------------------

    def _association_call(self, method: str, p: List[str], body: Any, query: Dict[str, Any]) -> MockResponse:
        if len(p) == 1 and method == "POST":
            return MockResponse(200, self._create_association(AssociationCreateOrUpdateRequest.from_dict(body)))
        types = query.get("associationType")
        types = _as_list(types) if types is not None else None
        resource_type = query.get("resourceType")
        if len(p) == 4 and p[1] == "resources" and method == "GET":
            found = [a.to_dict() for listed in self._associations.values() for a in listed
                     if (p[2] == "-" or a.resource_namespace == p[2]) and a.resource_name == p[3]
                     and (resource_type is None or a.resource_type == resource_type)
                     and (types is None or a.association_type in types)]
            return MockResponse(200, found)
        if len(p) == 3 and p[1] == "resources" and method == "DELETE":
            listed = self._associations.get(p[2])
            if listed is not None:
                if types is None and resource_type is None:
                    del self._associations[p[2]]
                else:
                    keep: Callable[[Association], bool] = lambda a: (
                        (resource_type is not None and a.resource_type != resource_type)
                        or (types is not None and a.association_type not in types))
                    self._associations[p[2]] = [a for a in listed if keep(a)]
            return MockResponse(204)
        return _error(404, 404, "HTTP 404 Not Found")

    def _create_association(self, request: AssociationCreateOrUpdateRequest) -> Dict[str, Any]:
        created: List[AssociationInfo] = []
        if request.associations and request.resource_id is not None:
            for info in request.associations:
                frozen = info.frozen if info.frozen is not None else False
                self._associations.setdefault(request.resource_id, []).append(Association(
                    subject=info.subject, guid=None, resource_name=request.resource_name,
                    resource_namespace=request.resource_namespace, resource_id=request.resource_id,
                    resource_type=request.resource_type, association_type=info.association_type, frozen=frozen))
                created.append(AssociationInfo(subject=info.subject, association_type=info.association_type,
                                               lifecycle=info.lifecycle, frozen=frozen, schema=info.schema))
        return AssociationResponse(resource_name=request.resource_name, resource_namespace=request.resource_namespace,
                                   resource_id=request.resource_id, resource_type=request.resource_type,
                                   associations=created).to_dict()


# -- what the sync and async mock clients share ----------------------------------------------------


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


class InProcessClient:
    """Mixed into the ``mock://`` clients, before their client class: a registry of each client's
    own, no cache (every call reads the registry), no HTTP session."""

    _registry: MockRegistry

    def __init__(self, conf: Dict[str, Any]) -> None:
        self._registry = MockRegistry()
        super().__init__(conf)  # type: ignore[call-arg]  # the client class after this one

    @staticmethod
    def _caching() -> bool:
        return False

    def _make_rest_client(self, settings: RestSettings) -> Any:
        return _MockRestClient(settings)
