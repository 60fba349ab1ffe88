"""The Schema Registry's data model, the client-side schema cache, and the retry arithmetic.

Everything here is plain data and pure functions: the sync and async clients
(``_sync``/``_async``) and the in-process ``mock://`` registry share it.
"""

from __future__ import annotations

import random
from collections import defaultdict
from enum import Enum
from threading import Lock
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, TypeVar

from attrs import define, field

from ._oauthbearer import _AsyncBearerFieldProvider, _StaticFieldProvider, normalize_identity_pool
from ._document import Field, _arguments, _Document, _Mapping, _opt, _to_dict, _value

__all__ = [
    "VALID_AUTH_PROVIDERS",
    "is_success",
    "is_retriable",
    "full_jitter",
    "normalize_identity_pool",
    "_StaticFieldProvider",
    "_AsyncStaticFieldProvider",
    "_SchemaCache",
    "RuleKind",
    "RuleMode",
    "RuleParams",
    "Rule",
    "RuleSet",
    "MetadataTags",
    "MetadataProperties",
    "Metadata",
    "SchemaReference",
    "ConfigCompatibilityLevel",
    "ServerConfig",
    "Schema",
    "RegisteredSchema",
    "Association",
    "AssociationInfo",
    "AssociationCreateOrUpdateInfo",
    "AssociationCreateOrUpdateRequest",
    "AssociationResponse",
]

VALID_AUTH_PROVIDERS = ["URL", "USER_INFO"]

T = TypeVar("T")

#: HTTP statuses worth another attempt: timeouts, throttling and transient server faults.
_RETRIABLE_STATUSES = frozenset((408, 429, 500, 502, 503, 504))


class _AsyncStaticFieldProvider(_AsyncBearerFieldProvider):
    """A fixed bearer token, for the async client."""

    def __init__(self, token: str, logical_cluster: str, identity_pool: Optional[str] = None) -> None:
        self._fields = _StaticFieldProvider(token, logical_cluster, identity_pool)
        self.token = token
        self.logical_cluster = logical_cluster
        self.identity_pool = identity_pool

    async def get_bearer_fields(self) -> Dict[str, Any]:
        return self._fields.get_bearer_fields()


def is_success(status_code: int) -> bool:
    """Whether an HTTP status is a 2xx success.

    :param status_code: the HTTP status.
    :returns: True for 200-299.
    """
    return 200 <= status_code < 300


def is_retriable(status_code: int) -> bool:
    """Whether a request answered with ``status_code`` may succeed when sent again.

    :param status_code: the HTTP status.
    :returns: True for 408, 429, 500, 502, 503 and 504.
    """
    return status_code in _RETRIABLE_STATUSES


def full_jitter(base_delay_ms: int, max_delay_ms: int, retries_attempted: int) -> float:
    """The wait before the next attempt, in milliseconds: uniformly drawn below an exponential
    ceiling (``base * 2**attempt``, capped at ``max_delay_ms``).

    :param base_delay_ms: the ceiling of the first wait.
    :param max_delay_ms: the largest ceiling.
    :param retries_attempted: how many retries were made so far.
    :returns: milliseconds to wait.
    """
    ceiling = min(base_delay_ms * (2.0**retries_attempted), max_delay_ms)
    return random.random() * ceiling


class _SchemaCache:
    """What the client learnt from the registry, by subject: schemas by id and guid, ids by
    schema, and registered schemas by id, version and schema. Thread-safe."""

    def __init__(self) -> None:
        self.lock = Lock()
        self.schema_id_index: Dict[Optional[str], Dict[int, Tuple[Optional[str], Schema]]] = defaultdict(dict)
        self.schema_guid_index: Dict[str, Schema] = {}
        self.schema_index: Dict[Optional[str], Dict[Schema, int]] = defaultdict(dict)
        self.rs_id_index: Dict[Optional[str], Dict[int, RegisteredSchema]] = defaultdict(dict)
        self.rs_version_index: Dict[Optional[str], Dict[Optional[int], RegisteredSchema]] = defaultdict(dict)
        self.rs_schema_index: Dict[Optional[str], Dict[Schema, RegisteredSchema]] = defaultdict(dict)

    def set_schema(self, subject: Optional[str], schema_id: Optional[int], guid: Optional[str],
                   schema: "Schema") -> None:
        """Remember ``schema`` under its id (within ``subject``) and its guid."""
        with self.lock:
            if schema_id is not None:
                self.schema_id_index[subject][schema_id] = (guid, schema)
                self.schema_index[subject][schema] = schema_id
            if guid is not None:
                self.schema_guid_index[guid] = schema

    def set_registered_schema(self, schema: "Schema", registered_schema: "RegisteredSchema") -> None:
        """Remember a registered schema under its subject's id, version and schema indexes."""
        subject = registered_schema.subject
        with self.lock:
            if registered_schema.schema_id is not None:
                self.schema_id_index[subject][registered_schema.schema_id] = (registered_schema.guid, schema)
                self.schema_index[subject][schema] = registered_schema.schema_id
                self.rs_id_index[subject][registered_schema.schema_id] = registered_schema
            if registered_schema.guid is not None:
                self.schema_guid_index[registered_schema.guid] = schema
            self.rs_version_index[subject][registered_schema.version] = registered_schema
            self.rs_schema_index[subject][schema] = registered_schema

    def get_schema_by_id(self, subject: Optional[str], schema_id: int) -> Optional[Tuple[Optional[str], "Schema"]]:
        """The (guid, schema) known for ``schema_id`` within ``subject``, or None."""
        with self.lock:
            return self.schema_id_index.get(subject, {}).get(schema_id)

    def get_schema_by_guid(self, guid: str) -> Optional["Schema"]:
        """The schema known for ``guid``, or None."""
        with self.lock:
            return self.schema_guid_index.get(guid)

    def get_id_by_schema(self, subject: Optional[str], schema: "Schema") -> Optional[int]:
        """The id known for ``schema`` within ``subject``, or None."""
        with self.lock:
            return self.schema_index.get(subject, {}).get(schema)

    def get_registered_by_subject_schema(self, subject: Optional[str], schema: "Schema") -> Optional["RegisteredSchema"]:
        """The registration of ``schema`` under ``subject``, or None."""
        with self.lock:
            return self.rs_schema_index.get(subject, {}).get(schema)

    def get_registered_by_subject_id(self, subject: Optional[str], schema_id: int) -> Optional["RegisteredSchema"]:
        """The registration of id ``schema_id`` under ``subject``, or None."""
        with self.lock:
            return self.rs_id_index.get(subject, {}).get(schema_id)

    def get_registered_by_subject_version(self, subject: Optional[str], version: Any) -> Optional["RegisteredSchema"]:
        """The registration of ``version`` of ``subject``, or None."""
        with self.lock:
            return self.rs_version_index.get(subject, {}).get(version)

    def remove_by_subject(self, subject: str) -> None:
        """Forget everything known under ``subject``."""
        with self.lock:
            for index in (self.schema_id_index, self.schema_index, self.rs_id_index,
                          self.rs_version_index, self.rs_schema_index):
                index.pop(subject, None)

    def remove_by_subject_version(self, subject: str, version: Any) -> None:
        """Forget ``version`` of ``subject`` (and its id and schema within the subject)."""
        with self.lock:
            by_id = self.rs_id_index.get(subject, {})
            for key in [k for k, rs in by_id.items() if rs.version == version]:
                del by_id[key]
            by_schema = self.rs_schema_index.get(subject, {})
            for schema_key in [k for k, rs in by_schema.items() if rs.version == version]:
                del by_schema[schema_key]
            removed = self.rs_version_index.get(subject, {}).pop(version, None)
            if removed is not None:
                if removed.schema_id is not None:
                    self.schema_id_index.get(subject, {}).pop(removed.schema_id, None)
                self.schema_index.get(subject, {}).pop(removed.schema, None)

    def clear(self) -> None:
        """Forget everything."""
        with self.lock:
            for index in (self.schema_id_index, self.schema_guid_index, self.schema_index,
                          self.rs_id_index, self.rs_version_index, self.rs_schema_index):
                index.clear()


class _TextEnum(str, Enum):
    def __str__(self) -> str:
        return str(self.value)


class RuleKind(_TextEnum):
    """Whether a rule checks a message (CONDITION) or rewrites it (TRANSFORM)."""

    CONDITION = "CONDITION"
    TRANSFORM = "TRANSFORM"


class RulePhase(_TextEnum):
    """Which rules of a rule set run: migration, domain or encoding rules."""

    MIGRATION = "MIGRATION"
    DOMAIN = "DOMAIN"
    ENCODING = "ENCODING"


class RuleMode(_TextEnum):
    """When a rule runs: on write, on read, when migrating up or down, or combinations."""

    UPGRADE = "UPGRADE"
    DOWNGRADE = "DOWNGRADE"
    UPDOWN = "UPDOWN"
    READ = "READ"
    WRITE = "WRITE"
    WRITEREAD = "WRITEREAD"


def _parse(kind: Any, value: Any) -> Any:
    """``kind.from_dict(value)`` for a dict, None for None, TypeError for anything else."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError()
    return kind.from_dict(value)


def _schema_or_none(value: Any) -> Optional["Schema"]:
    return Schema.from_dict(value) if value else None


@define(hash=False)
class RuleParams(_Mapping):
    """A rule's free-form string parameters.

    :ivar params: the parameters, by name.
    """

    params: Dict[str, str] = field(factory=dict, hash=False)
    _field = "params"

    def __hash__(self) -> int:
        return hash(frozenset(self.params.items()))


@define(frozen=True)
class Rule(_Document):
    """One data-contract rule of a schema's rule set.

    :ivar name: the rule's name.
    :ivar doc: what it is for.
    :ivar kind: CONDITION or TRANSFORM.
    :ivar mode: when it runs (WRITE, READ, WRITEREAD, UPGRADE, DOWNGRADE, UPDOWN).
    :ivar type: its executor's type (``CEL``, ``ENCRYPT``, ...).
    :ivar tags: the field tags a field-level rule applies to.
    :ivar params: the executor's parameters.
    :ivar expr: the expression.
    :ivar on_success: the action after success.
    :ivar on_failure: the action after failure.
    :ivar disabled: whether the rule is off.
    """

    name: Optional[str]
    doc: Optional[str]
    kind: Optional[RuleKind]
    mode: Optional[RuleMode]
    type: Optional[str]
    tags: Optional[List[str]] = field(hash=False)
    params: Optional[RuleParams]
    expr: Optional[str]
    on_success: Optional[str]
    on_failure: Optional[str]
    disabled: Optional[bool]

    _fields = (Field("name", "name"), Field("doc", "doc"), Field("kind", "kind", _opt(_value), _opt(RuleKind)),
               Field("mode", "mode", _opt(_value), _opt(RuleMode)),
               Field("type", "type", always=True),  # always present, like upstream's wire form
               Field("tags", "tags"), Field("params", "params", _opt(_to_dict), _opt(RuleParams.from_dict)),
               Field("expr", "expr"), Field("on_success", "onSuccess"), Field("on_failure", "onFailure"),
               Field("disabled", "disabled"))


def _rules_to_dicts(rules: Optional[List[Rule]]) -> Optional[List[Dict[str, Any]]]:
    return None if rules is None else [rule.to_dict() for rule in rules]


def _rules_from_dicts(rules: Optional[List[Dict[str, Any]]]) -> List[Rule]:
    return [Rule.from_dict(r) for r in rules or []]


@define(hash=False)
class RuleSet(_Document):
    """A schema's migration, domain and encoding rules.

    :ivar migration_rules: the rules run between versions.
    :ivar domain_rules: the rules run on each record.
    :ivar encoding_rules: the rules run on the encoded bytes.
    :ivar enable_at: where the rules run (``ALL``, ``CLIENT``, ...).
    """

    migration_rules: Optional[List[Rule]] = field(hash=False)
    domain_rules: Optional[List[Rule]] = field(hash=False)
    encoding_rules: Optional[List[Rule]] = field(hash=False, default=None)
    enable_at: Optional[str] = field(default=None)

    _fields = tuple(Field(attr, key, _rules_to_dicts, _rules_from_dicts)
                    for attr, key in (("migration_rules", "migrationRules"), ("domain_rules", "domainRules"),
                                      ("encoding_rules", "encodingRules"))) + (Field("enable_at", "enableAt"),)

    def __hash__(self) -> int:
        every = (self.migration_rules or []) + (self.domain_rules or []) + (self.encoding_rules or [])
        return hash((frozenset(every), self.enable_at))


@define(hash=False)
class MetadataTags(_Mapping):
    """Tags by field path (paths may hold wildcards).

    :ivar tags: the tags, by field path.
    """

    tags: Dict[str, List[str]] = field(factory=dict, hash=False)
    _field = "tags"

    def __hash__(self) -> int:
        return hash(frozenset((k, tuple(v) if isinstance(v, (list, tuple)) else v)
                              for k, v in (self.tags or {}).items()))


@define(hash=False)
class MetadataProperties(_Mapping):
    """Free-form string properties of a schema.

    :ivar properties: the properties, by name.
    """

    properties: Dict[str, str] = field(factory=dict, hash=False)
    _field = "properties"

    def __hash__(self) -> int:
        return hash(frozenset(self.properties.items()))


@define(frozen=True)
class Metadata(_Document):
    """A schema's metadata: tags, properties and the names of sensitive fields.

    :ivar tags: tags by field path.
    :ivar properties: free-form properties.
    :ivar sensitive: the names of sensitive fields.
    """

    tags: Optional[MetadataTags]
    properties: Optional[MetadataProperties]
    sensitive: Optional[List[str]] = field(hash=False)

    _fields = (Field("tags", "tags", _opt(_to_dict), _opt(MetadataTags.from_dict)),
               Field("properties", "properties", _opt(_to_dict), _opt(MetadataProperties.from_dict)),
               Field("sensitive", "sensitive", _opt(list), lambda value: list(value or [])))


@define(frozen=True)
class SchemaVersion:
    """A (subject, version) pair holding a schema.

    :ivar subject: the subject.
    :ivar version: the version.
    """

    subject: Optional[str]
    version: Optional[int]

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        """The object of a registry's JSON document.

        :param src_dict: the document.
        :returns: the object.
        """
        return cls(subject=src_dict.get("subject"), version=src_dict.get("version"))  # type: ignore[call-arg]


@define(frozen=True)
class SchemaReference(_Document):
    """A reference from a schema to another one: the name it is imported by, and the subject
    and version holding it.

    :ivar name: the name the schema imports it by.
    :ivar subject: the subject holding it.
    :ivar version: its version there.
    """

    name: Optional[str]
    subject: Optional[str]
    version: Optional[int]

    _fields = (Field("name", "name"), Field("subject", "subject"), Field("version", "version"))


class ConfigCompatibilityLevel(_TextEnum):
    """The compatibility levels a registry enforces between versions of a subject."""

    BACKWARD = "BACKWARD"
    BACKWARD_TRANSITIVE = "BACKWARD_TRANSITIVE"
    FORWARD = "FORWARD"
    FORWARD_TRANSITIVE = "FORWARD_TRANSITIVE"
    FULL = "FULL"
    FULL_TRANSITIVE = "FULL_TRANSITIVE"
    NONE = "NONE"


def _as_dict(value: Any) -> Any:
    return value.to_dict() if isinstance(value, (Metadata, RuleSet)) else value


@define
class ServerConfig(_Document):
    """A registry's (global or per-subject) configuration.

    :ivar compatibility: the compatibility level (older registries' key).
    :ivar compatibility_level: the compatibility level.
    :ivar compatibility_group: the metadata property grouping versions for compatibility checks.
    :ivar default_metadata: metadata given to new schemas that have none.
    :ivar override_metadata: metadata given to every new schema.
    :ivar default_rule_set: rules given to new schemas that have none.
    :ivar override_rule_set: rules given to every new schema.
    """

    compatibility: Optional[ConfigCompatibilityLevel] = None
    compatibility_level: Optional[ConfigCompatibilityLevel] = None
    compatibility_group: Optional[str] = None
    default_metadata: Optional[Metadata] = None
    override_metadata: Optional[Metadata] = None
    default_rule_set: Optional[RuleSet] = None
    override_rule_set: Optional[RuleSet] = None

    _fields = (Field("compatibility", "compatibility", _opt(_value), _opt(ConfigCompatibilityLevel)),
               Field("compatibility_level", "compatibilityLevel", _opt(_value), _opt(ConfigCompatibilityLevel)),
               Field("compatibility_group", "compatibilityGroup"),
               Field("default_metadata", "defaultMetadata", _as_dict, lambda value: _parse(Metadata, value)),
               Field("override_metadata", "overrideMetadata", _as_dict, lambda value: _parse(Metadata, value)),
               Field("default_rule_set", "defaultRuleSet", _as_dict, lambda value: _parse(RuleSet, value)),
               Field("override_rule_set", "overrideRuleSet", _as_dict, lambda value: _parse(RuleSet, value)))


@define(frozen=True, cache_hash=True)
class Schema(_Document):
    """A schema as written: its text, its type (AVRO, JSON or PROTOBUF), the schemas it
    references, and optionally metadata and a rule set.

    :ivar schema_str: the schema's text.
    :ivar schema_type: AVRO, JSON or PROTOBUF.
    :ivar references: the schemas it references.
    :ivar metadata: its metadata.
    :ivar rule_set: its rules.
    """

    schema_str: Optional[str]
    schema_type: Optional[str] = "AVRO"
    references: Optional[List[SchemaReference]] = field(factory=list, hash=False)
    metadata: Optional[Metadata] = None
    rule_set: Optional[RuleSet] = None

    _fields = (Field("schema_str", "schema"), Field("schema_type", "schemaType", missing="AVRO"),
               Field("references", "references", lambda refs: [ref.to_dict() for ref in refs or []],
                     lambda refs: [SchemaReference.from_dict(r) for r in refs or []], always=True),
               Field("metadata", "metadata", lambda m: m.to_dict() if isinstance(m, Metadata) else None,
                     lambda value: _parse(Metadata, value)),
               Field("rule_set", "ruleSet", lambda r: r.to_dict() if isinstance(r, RuleSet) else None,
                     lambda value: _parse(RuleSet, value)))


@define(frozen=True, cache_hash=True)
class RegisteredSchema(_Document):
    """A schema as registered: the subject and version holding it, its id and guid.

    :ivar schema_id: the schema's id.
    :ivar guid: the schema's guid.
    :ivar schema: the schema.
    :ivar subject: the subject holding it.
    :ivar version: its version in the subject.
    """

    subject: Optional[str]
    version: Optional[int]
    schema_id: Optional[int]
    guid: Optional[str]
    schema: Schema

    _fields = (Field("schema_id", "id"), Field("guid", "guid"), Field("subject", "subject"),
               Field("version", "version"))

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = self.schema.to_dict() if self.schema is not None else {}
        out.update(_Document.to_dict(self))
        return out

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        fields = _arguments(RegisteredSchema._fields, src_dict)
        return cls(schema=Schema.from_dict(src_dict), **fields)  # type: ignore[call-arg]


@define(frozen=True)
class Association(_Document):
    """An association between a subject and a resource (such as a topic).

    :ivar subject: the associated subject.
    :ivar guid: the association's guid.
    :ivar resource_name: the resource's name (a topic's name).
    :ivar resource_namespace: the resource's namespace (a Kafka cluster id, or ``-``).
    :ivar resource_id: the resource's id.
    :ivar resource_type: the resource's type (``topic``).
    :ivar association_type: ``key`` or ``value``.
    :ivar frozen: whether the association may no longer change.
    """

    subject: Optional[str]
    guid: Optional[str]
    resource_name: Optional[str]
    resource_namespace: Optional[str]
    resource_id: Optional[str]
    resource_type: Optional[str]
    association_type: Optional[str]
    frozen: bool = False

    _fields = (Field("subject", "subject"), Field("guid", "guid"), Field("resource_name", "resourceName"),
               Field("resource_namespace", "resourceNamespace"), Field("resource_id", "resourceId"),
               Field("resource_type", "resourceType"), Field("association_type", "associationType"),
               Field("frozen", "frozen", always=True, missing=False))


@define
class AssociationInfo(_Document):
    """One association in a registry's answer.

    :ivar subject: the associated subject.
    :ivar association_type: ``key`` or ``value``.
    :ivar lifecycle: STRONG or WEAK.
    :ivar frozen: whether the association may no longer change.
    :ivar schema: the schema registered with it, if any.
    """

    subject: Optional[str] = None
    association_type: Optional[str] = None
    lifecycle: Optional[str] = None
    frozen: bool = False
    schema: Optional[Schema] = None

    _fields = (Field("subject", "subject"), Field("association_type", "associationType"),
               Field("lifecycle", "lifecycle"),
               Field("frozen", "frozen", always=True, missing=False),
               Field("schema", "schema", _opt(_to_dict), _schema_or_none))


@define
class AssociationCreateOrUpdateInfo(_Document):
    """One association to create or update.

    :ivar subject: the subject to associate.
    :ivar association_type: ``key`` or ``value``.
    :ivar lifecycle: STRONG or WEAK.
    :ivar frozen: whether the association may no longer change.
    :ivar schema: a schema to register under the subject.
    :ivar normalize: whether to normalize that schema.
    """

    subject: Optional[str] = None
    association_type: Optional[str] = None
    lifecycle: Optional[str] = None
    frozen: Optional[bool] = None
    schema: Optional[Schema] = None
    normalize: Optional[bool] = None

    _fields = (Field("subject", "subject"), Field("association_type", "associationType"),
               Field("lifecycle", "lifecycle"),
               Field("frozen", "frozen"), Field("schema", "schema", _opt(_to_dict), _schema_or_none),
               Field("normalize", "normalize"))


def _resource_fields(association: Callable[[Any], Any]) -> Tuple[Field, ...]:
    """The fields of a resource's associations document; ``association`` reads each listed one."""
    return (Field("resource_name", "resourceName"), Field("resource_namespace", "resourceNamespace"),
            Field("resource_id", "resourceId"), Field("resource_type", "resourceType"),
            Field("associations", "associations", _opt(lambda listed: [a.to_dict() for a in listed]),
                  lambda listed: [association(a) for a in listed] if listed else None))


@define
class AssociationCreateOrUpdateRequest(_Document):
    """A request to create or update the associations of one resource.

    :ivar resource_name: the resource's name.
    :ivar resource_namespace: the resource's namespace.
    :ivar resource_id: the resource's id.
    :ivar resource_type: the resource's type.
    :ivar associations: the associations to create or update.
    """

    resource_name: Optional[str] = None
    resource_namespace: Optional[str] = None
    resource_id: Optional[str] = None
    resource_type: Optional[str] = None
    associations: Optional[List[AssociationCreateOrUpdateInfo]] = None

    _fields = _resource_fields(lambda value: AssociationCreateOrUpdateInfo.from_dict(value))


@define
class AssociationResponse(_Document):
    """A registry's answer to an association request.

    :ivar resource_name: the resource's name.
    :ivar resource_namespace: the resource's namespace.
    :ivar resource_id: the resource's id.
    :ivar resource_type: the resource's type.
    :ivar associations: the associations made or updated.
    """

    resource_name: Optional[str] = None
    resource_namespace: Optional[str] = None
    resource_id: Optional[str] = None
    resource_type: Optional[str] = None
    associations: Optional[List[AssociationInfo]] = None

    _fields = _resource_fields(lambda value: AssociationInfo.from_dict(value))
