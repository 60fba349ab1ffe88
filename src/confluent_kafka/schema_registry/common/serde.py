"""What the Schema Registry serializers share, written once with no I/O: the schema id and its
wire forms, subject name strategies by type, the serde configuration, the data-contract rule
framework (rule contexts, executors, actions and the order in which a schema's migration,
domain and encoding rules run), and the steps of serializing and deserializing as generators of
:class:`RegistryCall` effects. The sync serdes run those calls on a
:class:`SchemaRegistryClient`, the async ones await them on an
:class:`AsyncSchemaRegistryClient`; the steps themselves exist once.
"""

from __future__ import annotations

import copy
import io
import logging
import struct
import threading
import uuid
from collections import OrderedDict
from enum import Enum
from typing import Any, Callable, Dict, Generator, List, NamedTuple, Optional, Tuple, TypeVar

from ...serialization import MessageField, SerializationContext, SerializationError
from ..error import SchemaRegistryError
from ..._effects import drive, drive_async
from ._rule_framework import (
    DLQ_HEADER_PREFIX,
    DLQ_RULE_EXCEPTION_HEADER,
    DLQ_RULE_MODE_HEADER,
    DLQ_RULE_NAME_HEADER,
    DLQ_RULE_SUBJECT_HEADER,
    DLQ_RULE_TOPIC_HEADER,
    ErrorAction,
    FieldContext,
    FieldRuleExecutor,
    FieldTransform,
    FieldTransformer,
    FieldType,
    Migration,
    NoneAction,
    RuleAction,
    RuleBase,
    RuleConditionError,
    RuleContext,
    RuleError,
    RuleExecutor,
    RuleRunner,
    clear_original_key,
    get_original_key,
    has_rules,
    set_original_key,
)
from ._validation import (
    VALIDATION_RULES_PROP,
    ValidationRule,
    ValidationRuleError,
    ValidationRuleExecutor,
    ValidationRulesExecution,
    default_validation_rule_executor,
    evaluate_validation_rule,
    parse_validation_rules,
    raise_violations,
    validation_settings,
)
from .schema_registry_client import RegisteredSchema, RuleMode, RulePhase, Schema

log = logging.getLogger("confluent_kafka.schema_registry.serde")

__all__ = [
    "STRATEGY_TYPE_MAP",
    "SubjectNameStrategyType",
    "FieldType",
    "FieldContext",
    "RuleContext",
    "FieldTransform",
    "FieldTransformer",
    "RuleBase",
    "RuleExecutor",
    "FieldRuleExecutor",
    "RuleAction",
    "ErrorAction",
    "NoneAction",
    "DLQ_HEADER_PREFIX",
    "DLQ_RULE_NAME_HEADER",
    "DLQ_RULE_MODE_HEADER",
    "DLQ_RULE_SUBJECT_HEADER",
    "DLQ_RULE_TOPIC_HEADER",
    "DLQ_RULE_EXCEPTION_HEADER",
    "set_original_key",
    "get_original_key",
    "clear_original_key",
    "RuleError",
    "RuleConditionError",
    "ValidationRulesExecution",
    "ValidationRule",
    "ValidationRuleError",
    "ValidationRuleExecutor",
    "VALIDATION_RULES_PROP",
    "parse_validation_rules",
    "default_validation_rule_executor",
    "evaluate_validation_rule",
    "Migration",
    "ParsedSchemaCache",
    "SchemaId",
]

_MAGIC_BYTE_V0 = 0
_MAGIC_BYTE_V1 = 1


class SubjectNameStrategyType(str, Enum):
    """The subject name strategies a serde can be configured with by name."""

    NONE = "NONE"
    TOPIC = "TOPIC"
    RECORD = "RECORD"
    TOPIC_RECORD = "TOPIC_RECORD"
    ASSOCIATED = "ASSOCIATED"


from .. import (  # noqa: E402 - the package is loaded before any serde module
    record_subject_name_strategy,
    topic_record_subject_name_strategy,
    topic_subject_name_strategy,
)

#: The strategy functions by type (ASSOCIATED is a class of its own, NONE is no strategy).
STRATEGY_TYPE_MAP: Dict[SubjectNameStrategyType, Callable[..., Optional[str]]] = {
    SubjectNameStrategyType.TOPIC: topic_subject_name_strategy,
    SubjectNameStrategyType.RECORD: record_subject_name_strategy,
    SubjectNameStrategyType.TOPIC_RECORD: topic_record_subject_name_strategy,
}


def _strategies() -> Dict[SubjectNameStrategyType, Callable[..., Optional[str]]]:
    return STRATEGY_TYPE_MAP


T = TypeVar("T")


class ParsedSchemaCache:
    """Parsed schemas by :class:`Schema`. Thread-safe."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.parsed_schemas: Dict[Schema, Any] = {}

    def set(self, schema: Schema, parsed_schema: Any) -> None:
        """Remember the parsed form of ``schema``."""
        with self.lock:
            self.parsed_schemas[schema] = parsed_schema

    def get_parsed_schema(self, schema: Schema) -> Any:
        """The parsed form of ``schema``, or None."""
        with self.lock:
            return self.parsed_schemas.get(schema)

    def clear(self) -> None:
        """Forget everything."""
        with self.lock:
            self.parsed_schemas.clear()


class SchemaId:
    """Which schema a payload was written with: an id (framed as magic byte 0 + 4 bytes) or a
    guid (magic byte 1 + 16 bytes), and for Protobuf the message indexes.

    :param schema_type: ``AVRO``, ``JSON`` or ``PROTOBUF``.
    :param schema_id: the id.
    :param guid: the guid, as text.
    :param message_indexes: Protobuf message indexes.
    :ivar id: the schema id (None when the guid is used).
    :ivar guid: the schema guid, as a :class:`uuid.UUID`.
    :ivar schema_type: the schema type.
    :ivar message_indexes: the Protobuf message indexes.
    """

    __slots__ = ["schema_type", "id", "guid", "message_indexes"]

    def __init__(self, schema_type: str, schema_id: Optional[int] = None, guid: Optional[str] = None,
                 message_indexes: Optional[List[int]] = None) -> None:
        self.schema_type = schema_type
        self.id = schema_id
        self.guid = uuid.UUID(guid) if guid is not None else None
        self.message_indexes = message_indexes

    def from_bytes(self, payload: io.BytesIO) -> io.BytesIO:
        """Read the framing at the start of ``payload`` into this id.

        :param payload: the framed bytes.
        :returns: ``payload``, positioned after the framing.
        :raises ~confluent_kafka.serialization.SerializationError: for an unknown magic byte.
        """
        magic = struct.unpack(">b", payload.read(1))[0]
        if magic == _MAGIC_BYTE_V0:
            self.id = struct.unpack(">I", payload.read(4))[0]
        elif magic == _MAGIC_BYTE_V1:
            self.guid = uuid.UUID(bytes=payload.read(16))
        else:
            raise SerializationError("Invalid magic byte")
        if self.schema_type == "PROTOBUF":
            self.message_indexes = self._read_index_array(payload, zigzag=True)
        return payload

    def id_to_bytes(self) -> bytes:
        """The id framing: magic byte 0, the id as 4 big-endian bytes (and message indexes).

        :returns: the framing.
        :raises ~confluent_kafka.serialization.SerializationError: when no id is set.
        """
        if self.id is None:
            raise SerializationError("Schema ID is not set")
        out = io.BytesIO()
        out.write(struct.pack(">bI", _MAGIC_BYTE_V0, self.id))
        if self.message_indexes is not None:
            self._encode_varints(out, self.message_indexes, zigzag=True)
        return out.getvalue()

    def guid_to_bytes(self) -> bytes:
        """The guid framing: magic byte 1 and the 16 guid bytes (and message indexes).

        :returns: the framing.
        :raises ~confluent_kafka.serialization.SerializationError: when no guid is set.
        """
        if self.guid is None:
            raise SerializationError("Schema GUID is not set")
        out = io.BytesIO()
        out.write(struct.pack(">b", _MAGIC_BYTE_V1))
        out.write(self.guid.bytes)
        if self.message_indexes is not None:
            self._encode_varints(out, self.message_indexes, zigzag=True)
        return out.getvalue()

    @staticmethod
    def _read_byte(buf: io.BytesIO) -> int:
        one = buf.read(1)
        if not one:
            raise EOFError("Unexpected EOF encountered")
        return one[0]

    @staticmethod
    def _decode_varint(buf: io.BytesIO, zigzag: bool = True) -> int:
        value, shift = 0, 0
        try:
            while True:
                byte = SchemaId._read_byte(buf)
                value |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
        except EOFError:
            raise EOFError("Unexpected EOF while reading index")
        return (value >> 1) ^ -(value & 1) if zigzag else value

    @staticmethod
    def _read_index_array(buf: io.BytesIO, zigzag: bool = True) -> List[int]:
        size = SchemaId._decode_varint(buf, zigzag=zigzag)
        if size < 0 or size > 100000:
            raise SerializationError("Invalid msgidx array length")
        if size == 0:
            return [0]
        return [SchemaId._decode_varint(buf, zigzag=zigzag) for _ in range(size)]

    @staticmethod
    def _write_varint(buf: io.BytesIO, val: int, zigzag: bool = True) -> None:
        if zigzag:
            val = (val << 1) ^ (val >> 63)
        while val & ~0x7F:
            buf.write(bytes(((val & 0x7F) | 0x80,)))
            val >>= 7
        buf.write(bytes((val,)))

    @staticmethod
    def _encode_varints(buf: io.BytesIO, ints: List[int], zigzag: bool = True) -> None:
        if ints == [0]:
            buf.write(b"\x00")
            return
        SchemaId._write_varint(buf, len(ints), zigzag=zigzag)
        for value in ints:
            SchemaId._write_varint(buf, value, zigzag=zigzag)

    def __repr__(self) -> str:
        return f"SchemaId({self.schema_type!r}, id={self.id!r}, guid={self.guid!r})"


# -- errors naming what failed -------------------------------------------------------------------
# Where upstream lets a codec's error through (TypeError, ValueError, EOFError, struct.error,
# json.JSONDecodeError, SchemaRegistryError), ours is of that very type, not a SerializationError,
# so code that catches SerializationError around a serializer (quixstreams wraps it) treats our
# errors as it treats upstream's; only the text says more: where, which schema and id.


class SchemaNotFoundError(SchemaRegistryError):
    """The schema a payload names is not in the registry: the registry's 404, with a text
    saying which topic, field and schema id or guid.

    :param message: what failed.
    :param cause: the registry's answer, whose status, code and message this error keeps.
    """

    def __init__(self, message: str, cause: SchemaRegistryError) -> None:
        super().__init__(cause.http_status_code, cause.error_code, cause.error_message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"SchemaNotFoundError({self.message!r})"

    def __reduce__(self) -> Any:
        return (type(self), (self.message, SchemaRegistryError(self.http_status_code, self.error_code,
                                                                self.error_message)))


def _where(ctx: Optional[SerializationContext]) -> str:
    if ctx is None:
        return ""
    return f"topic {ctx.topic!r} {ctx.field}: "


def retexted(exc: BaseException, text: str) -> BaseException:
    """A copy of ``exc`` (same type, same attributes) whose text is ``text``; ``exc`` itself
    when it cannot be copied or its text does not come from its arguments.

    :param exc: the error to copy.
    :param text: the text the copy says.
    :returns: the copy, or ``exc``.
    """
    try:
        twin = copy.copy(exc)
        twin.args = (text,)
        if str(twin) == text:
            return twin
    except Exception:  # noqa: BLE001 - an error that will not copy is raised as it is
        pass
    return exc


def wrap_error(exc: BaseException, ctx: Optional[SerializationContext], doing: str) -> BaseException:
    """``exc`` (raised by the codec) as an error of the same type that says where it happened.

    :param exc: the codec's error.
    :param ctx: the serialization context.
    :param doing: what was being done, e.g. ``"encoding with schema 'User' (id 1)"``.
    :returns: the error to raise: ``exc`` itself when it is already a SerializationError (which
        says what failed) or not one of the codec's own errors.
    """
    if isinstance(exc, SerializationError) or not isinstance(exc, (TypeError, ValueError, EOFError, struct.error)):
        return exc
    return retexted(exc, f"{_where(ctx)}{doing} failed: {exc}")


def framing_error(exc: BaseException, ctx: Optional[SerializationContext], data: bytes) -> BaseException:
    """The error for a payload whose schema id framing cannot be read: of the type the framing
    code raised (SerializationError for an unknown magic byte, EOFError or struct.error for a
    short payload, ValueError for a short guid), saying what the payload starts with and what was
    expected.

    :param exc: the framing code's error.
    :param ctx: the serialization context.
    :param data: the payload.
    :returns: the error to raise.
    """
    if not isinstance(exc, (SerializationError, TypeError, ValueError, EOFError, struct.error)):
        return exc
    text = ("{}cannot read the schema id framing: {} (the payload starts with {!r}; a Confluent Schema Registry "
            "framing starts with 0x00 and a 4-byte id, or 0x01 and a 16-byte guid)".format(
                _where(ctx), str(exc) or type(exc).__name__, bytes(data[:5])))
    return retexted(exc, text)


def schema_not_found(exc: SchemaRegistryError, ctx: Optional[SerializationContext], schema_id: "SchemaId") -> BaseException:
    """The error for a writer schema the registry does not hold (a 404), else ``exc``.

    :param exc: the registry's error.
    :param ctx: the serialization context.
    :param schema_id: the payload's schema id or guid.
    :returns: the error to raise.
    """
    if exc.http_status_code != 404:
        return exc
    which = f"id {schema_id.id}" if schema_id.id is not None else f"guid {schema_id.guid}"
    return SchemaNotFoundError(f"{_where(ctx)}the payload's writer schema ({which}) is not in the Schema Registry: "
                               f"{exc}", exc)


def writer_schema_op(schema_id: "SchemaId", subject: Optional[str], fmt: Optional[str],
                     ctx: Optional[SerializationContext]) -> SerdeOp:
    """Fetch the schema a payload was written with, by id or guid.

    :returns: the :class:`Schema`.
    :raises SchemaNotFoundError: a SchemaRegistryError, when the registry does not hold it.
    :raises ~confluent_kafka.serialization.SerializationError: when the payload names no id nor guid.
    """
    try:
        if schema_id.id is not None:
            return (yield from registry_call("get_schema", schema_id.id, subject, fmt))
        if schema_id.guid is not None:
            return (yield from registry_call("get_schema_by_guid", str(schema_id.guid), fmt))
    except SchemaRegistryError as exc:
        raise schema_not_found(exc, ctx, schema_id) from exc
    raise SerializationError("Schema ID or GUID is not set")


# -- the effects the serde steps yield -----------------------------------------------------------


class RegistryCall(NamedTuple):
    """Call the client's method ``name`` (awaited on an async client); the result is sent back,
    or its exception thrown back."""

    name: str
    args: Tuple[Any, ...] = ()
    kwargs: Dict[str, Any] = {}


class Invoke(NamedTuple):
    """Call ``fn(*args)`` (awaiting the result on the async side if it is awaitable): a
    function of the application's, such as the cluster id resolver."""

    fn: Callable[..., Any]
    args: Tuple[Any, ...] = ()


class CacheLookup(NamedTuple):
    """Read the client's schema cache (never awaited): registered schema by subject and id."""

    subject: str
    schema_id: int


SerdeOp = Generator[Any, Any, Any]


def registry_call(name: str, *args: Any, **kwargs: Any) -> SerdeOp:
    """Yield one client call and return its result (``yield from registry_call(...)``)."""
    result = yield RegistryCall(name, args, kwargs)
    return result


def run_sync(op: SerdeOp, client: Any) -> Any:
    """Run serde steps on a sync client.

    :param op: the steps.
    :param client: the :class:`SchemaRegistryClient` (or anything with its methods).
    :returns: what the steps return.
    """
    return drive(op, lambda effect: _perform_now(effect, client))


def _perform_now(effect: Any, client: Any) -> Any:
    if isinstance(effect, Invoke):
        return effect.fn(*effect.args)
    if isinstance(effect, CacheLookup):
        cache = getattr(client, "_cache", None)
        return None if cache is None else cache.get_registered_by_subject_id(effect.subject, effect.schema_id)
    if client is None:
        raise SerializationError("a Schema Registry client is needed to " + effect.name.replace("_", " "))
    return getattr(client, effect.name)(*effect.args, **effect.kwargs)


async def run_async(op: SerdeOp, client: Any) -> Any:
    """Run serde steps on an async client (each call awaited).

    :param op: the steps.
    :param client: the :class:`AsyncSchemaRegistryClient`.
    :returns: what the steps return.
    """
    import inspect

    async def perform(effect: Any) -> Any:
        value = _perform_now(effect, client)
        return (await value) if inspect.isawaitable(value) else value

    return await drive_async(op, perform)


# -- configuration -------------------------------------------------------------------------------


def _flag(conf: Dict[str, Any], key: str) -> bool:
    value = conf.pop(key)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be a boolean value")
    return value


class SerdeConfig:
    """A serializer's or deserializer's configuration, checked (upstream's messages).

    :param defaults: the keys the serde accepts, with their defaults.
    :param conf: the application's settings.
    :raises ValueError: for a value of the wrong type or an unknown key.
    """

    def __init__(self, defaults: Dict[str, Any], conf: Optional[Dict[str, Any]], serializer: bool,
                 format_keys: Optional[Callable[[Dict[str, Any]], None]] = None,
                 associated: Optional[Callable[[], Any]] = None) -> None:
        c = dict(defaults)
        if conf is not None:
            c.update(conf)
        self.auto_register = False
        self.normalize_schemas = False
        self.use_schema_id: Optional[int] = None
        if serializer:
            self.auto_register = _flag(c, "auto.register.schemas")
            self.normalize_schemas = _flag(c, "normalize.schemas")
            self.use_schema_id = c.pop("use.schema.id")
            if self.use_schema_id is not None and not isinstance(self.use_schema_id, int):
                raise ValueError("use.schema.id must be an int value")
        self.use_latest_version = _flag(c, "use.latest.version")
        if serializer and self.use_latest_version and self.auto_register:
            raise ValueError("cannot enable both use.latest.version and auto.register.schemas")
        self.use_latest_with_metadata: Optional[Dict[str, str]] = c.pop("use.latest.with.metadata")
        if self.use_latest_with_metadata is not None and not isinstance(self.use_latest_with_metadata, dict):
            raise ValueError("use.latest.with.metadata must be a dict value")
        self.strategy, self.strategy_conf = resolve_subject_name_strategy(
            c.pop("subject.name.strategy.type"), c.pop("subject.name.strategy.conf"), c.pop("subject.name.strategy"),
            associated)
        key = "schema.id.serializer" if serializer else "schema.id.deserializer"
        self.schema_id_framing: Callable[..., Any] = c.pop(key)
        if not callable(self.schema_id_framing):
            raise ValueError(f"{key} must be callable")
        self.strict = False
        self.strict_allow_default = False
        if "validate.strict" in defaults:
            self.strict = _flag(c, "validate.strict")
            self.strict_allow_default = _flag(c, "validate.strict.allow.default")
        self.validation = ValidationRulesExecution.DISABLED
        self.validation_fail_fast = False
        self.validation_executor: Optional[ValidationRuleExecutor] = None
        if serializer:
            self.validation, self.validation_fail_fast, self.validation_executor = validation_settings(c)
        if format_keys is not None:
            format_keys(c)
        if c:
            raise ValueError("Unrecognized properties: {}".format(", ".join(c.keys())))


def resolve_subject_name_strategy(kind: Any, strategy_conf: Any, strategy: Any,
                                  associated: Optional[Callable[[], Any]] = None) -> Tuple[Any, Any]:
    """The subject name strategy a serde is configured with: ``strategy`` (a callable) if
    given, else the one ``kind`` names, else the associated strategy.

    :param kind: a :class:`SubjectNameStrategyType` or its name (any case).
    :param strategy_conf: the strategy's settings, returned with it.
    :param strategy: a callable ``(ctx, record_name) -> subject``.
    :param associated: makes the associated strategy (the sync one by default).
    :returns: (strategy, its settings).
    :raises ValueError: for a strategy that is not callable, or an unknown or NONE type.
    """
    if associated is None:
        associated = AssociatedNameStrategy
    if strategy is not None:
        if not callable(strategy):
            raise ValueError("subject.name.strategy must be callable")
        return strategy, strategy_conf
    if kind is not None:
        if isinstance(kind, str) and not isinstance(kind, SubjectNameStrategyType):
            try:
                kind = SubjectNameStrategyType(kind.upper())
            except ValueError:
                raise ValueError(f"Invalid subject.name.strategy.type: {kind}. "
                                 f"Valid values are: {[e.value for e in SubjectNameStrategyType]}")
        if kind == SubjectNameStrategyType.ASSOCIATED:
            return associated(), strategy_conf
        if kind == SubjectNameStrategyType.NONE:
            raise ValueError(f"Invalid subject.name.strategy.type: {kind}. "
                             "NONE cannot be used as a subject name strategy.")
        found = _strategies().get(kind)
        if found is None:
            raise ValueError(f"Unknown subject.name.strategy.type: {kind}")
        return found, strategy_conf
    return associated(), strategy_conf


# -- the associated subject name strategy ---------------------------------------------------------

KAFKA_CLUSTER_ID = "subject.name.strategy.kafka.cluster.id"
FALLBACK_TYPE = "subject.name.strategy.fallback.type"


def cluster_id_op(conf: Optional[Dict[str, Any]], resolver: Optional[Callable[[], Any]]) -> SerdeOp:
    """The namespace of association lookups: ``subject.name.strategy.kafka.cluster.id`` if
    set, else what ``resolver`` returns (awaited on the async side), else ``-`` (any).

    :returns: the namespace.
    :raises ~confluent_kafka.serialization.SerializationError: when the resolver fails or gives an empty id.
    """
    configured = (conf or {}).get(KAFKA_CLUSTER_ID)
    if configured:
        return configured
    if resolver is None:
        return "-"
    try:
        found = yield Invoke(resolver)
    except Exception as exc:
        raise SerializationError(
            "associated name strategy: could not resolve the Kafka cluster id, which typically means the client "
            f"has not reached a broker yet; set {KAFKA_CLUSTER_ID} to supply it explicitly: {exc}") from exc
    if not found:
        raise SerializationError("associated name strategy: the Kafka cluster id resolved to an empty string; "
                                 f"set {KAFKA_CLUSTER_ID} to supply it explicitly")
    return found


def associated_subject_op(ctx: SerializationContext, record_name: Optional[str], conf: Optional[Dict[str, Any]],
                          has_client: bool, resolver: Optional[Callable[[], Any]] = None) -> SerdeOp:
    """Find the subject associated with the topic, falling back to another strategy (TOPIC
    unless ``subject.name.strategy.fallback.type`` says otherwise) when there is none.

    :param resolver: gives the Kafka cluster id (see :func:`cluster_id_op`).
    :returns: the subject name.
    :raises ~confluent_kafka.serialization.SerializationError: for several associated subjects, or none with fallback
        NONE.
    """
    fallback = SubjectNameStrategyType.TOPIC
    if not has_client:
        return _strategies()[fallback](ctx, record_name)
    configured = (conf or {}).get(FALLBACK_TYPE)
    if configured is not None:
        try:
            fallback = SubjectNameStrategyType(configured if isinstance(configured, SubjectNameStrategyType)
                                               else str(configured).upper())
        except ValueError:
            valid = [e.value for e in SubjectNameStrategyType if e != SubjectNameStrategyType.ASSOCIATED]
            raise ValueError(f"Invalid value for {FALLBACK_TYPE}: {configured}. "
                             f"Valid values are: {', '.join(valid)}")
    namespace = yield from cluster_id_op(conf, resolver)
    try:
        found = yield from registry_call("get_associations_by_resource_name", resource_name=ctx.topic,
                                         resource_namespace=namespace, resource_type="topic",
                                         association_types=["key" if ctx.field == MessageField.KEY else "value"],
                                         offset=0, limit=-1)
    except SchemaRegistryError as exc:
        if exc.http_status_code != 404:
            raise
        found = []
    if len(found) > 1:
        raise SerializationError(f"Multiple associated subjects found for topic {ctx.topic}")
    if len(found) == 1:
        return found[0].subject
    if fallback == SubjectNameStrategyType.NONE:
        raise SerializationError(f"No associated subject found for topic {ctx.topic}")
    if fallback == SubjectNameStrategyType.ASSOCIATED:
        raise ValueError(f"Invalid value for {FALLBACK_TYPE}: {fallback.value}. "
                         "ASSOCIATED cannot be used as a fallback strategy.")
    return _strategies()[fallback](ctx, record_name)


DEFAULT_CACHE_CAPACITY = 1000


class AssociatedNameStrategy:
    """The subject associated with the topic in the registry (key or value association),
    falling back to ``topic_subject_name_strategy`` when there is none (or to the strategy
    named by ``subject.name.strategy.fallback.type``: TOPIC, RECORD, TOPIC_RECORD or NONE).
    Found subjects are cached (LRU).

    :param cache_capacity: how many (topic, key/value, record name) answers to keep.
    """

    def __init__(self, cache_capacity: int = DEFAULT_CACHE_CAPACITY) -> None:
        self._capacity = cache_capacity
        self._cache: "OrderedDict[Tuple[str, bool, Optional[str]], str]" = OrderedDict()
        self._lock = threading.Lock()
        self._cluster_id_resolver: Optional[Callable[[], Any]] = None

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """The function giving the Kafka cluster id, the namespace of the association lookups
        when ``subject.name.strategy.kafka.cluster.id`` is not set.

        :param resolver: called on a cache miss only.
        """
        self._cluster_id_resolver = resolver

    def _op(self, ctx: Optional[SerializationContext], record_name: Optional[str], conf: Optional[Dict[str, Any]],
            has_client: bool) -> SerdeOp:
        if ctx is None:
            raise ValueError("SerializationContext is required for AssociatedNameStrategy. "
                             "Either provide a SerializationContext or use a different strategy.")
        if ctx.topic is None:
            return None
        key = (ctx.topic, ctx.field == MessageField.KEY, record_name)
        with self._lock:
            known = self._cache.get(key)
            if known is not None:
                self._cache.move_to_end(key)
                return known
        found = yield from associated_subject_op(ctx, record_name, conf, has_client, self._cluster_id_resolver)
        if found is not None:
            with self._lock:
                self._cache[key] = found
                while len(self._cache) > self._capacity:
                    self._cache.popitem(last=False)
        return found

    def __call__(self, ctx: Optional[SerializationContext], record_name: Optional[str],
                 schema_registry_client: Any = None, conf: Optional[Dict[str, Any]] = None) -> Optional[str]:
        """The subject for ``ctx``'s topic and field.

        :param ctx: the serialization context (required).
        :param record_name: the record's name, for the fallback strategies.
        :param schema_registry_client: the client to query.
        :param conf: ``subject.name.strategy.kafka.cluster.id`` and
            ``subject.name.strategy.fallback.type``.
        :returns: the subject name.
        :raises ValueError: when ``ctx`` is None.
        :raises ~confluent_kafka.serialization.SerializationError: for several associated subjects, or none with
            fallback NONE.
        """
        found: Optional[str] = run_sync(self._op(ctx, record_name, conf, schema_registry_client is not None),
                                        schema_registry_client)
        return found

    def clear_cache(self) -> None:
        """Forget the subjects found."""
        with self._lock:
            self._cache.clear()


def serializer_defaults(own: Dict[str, Any]) -> Dict[str, Any]:
    """A format's serializer settings with their defaults: those every serializer takes, the
    format's ``own``, then the validation-rule settings."""
    from .. import prefix_schema_id_serializer

    return {"auto.register.schemas": True, "normalize.schemas": False, "use.schema.id": None,
            **_READER_DEFAULTS, "schema.id.serializer": prefix_schema_id_serializer, **own,
            "validation.rules.execution": ValidationRulesExecution.DISABLED, "validation.rules.fail.fast": False,
            "validation.rules.executor": None}


def deserializer_defaults(own: Dict[str, Any]) -> Dict[str, Any]:
    """A format's deserializer settings with their defaults: those every deserializer takes, then
    the format's ``own``."""
    from .. import dual_schema_id_deserializer

    return {**_READER_DEFAULTS, "schema.id.deserializer": dual_schema_id_deserializer, **own}


# How a serde picks the schema it reads or writes with, in both directions.
_READER_DEFAULTS: Dict[str, Any] = {"use.latest.version": False, "use.latest.with.metadata": None,
                                    "subject.name.strategy.type": None, "subject.name.strategy.conf": None,
                                    "subject.name.strategy": None}


def check_client_or_conf(schema_registry_client: Any, schema_registry_conf: Optional[Dict[str, Any]]) -> None:
    """A serde builder takes a Schema Registry client or the configuration to make one, not both.

    :raises ValueError: when both are given.
    """
    if schema_registry_client is not None and schema_registry_conf is not None:
        raise ValueError("Cannot specify both a Schema Registry client and a configuration; use one or the other")


def build_serde_op(schema_registry_client: Any, schema_registry_conf: Optional[Dict[str, Any]],
                   new_client: Callable[[Dict[str, Any]], Any], construct: Callable[[Any], Any],
                   init: Optional[Callable[[Any], Any]], close: str) -> SerdeOp:
    """The steps of ``build_serde`` for either shell: ``construct(client)`` with the client given,
    or one made by ``new_client(schema_registry_conf)`` (then owned by the serde), or None; then
    ``init(serde)``. A client made here is closed if ``construct`` fails, the serde if ``init``
    fails (each by its method ``close``: ``close`` or ``aclose``). The calls are :class:`Invoke`
    effects, so the async shell awaits what they return.

    :returns: the serde.
    :raises ValueError: when both a client and a configuration are given.
    """
    check_client_or_conf(schema_registry_client, schema_registry_conf)
    client = schema_registry_client
    owned = client is None and schema_registry_conf is not None
    if owned:
        assert schema_registry_conf is not None
        client = new_client(schema_registry_conf)
    try:
        serde = yield Invoke(construct, (client,))
    except BaseException:
        if owned:
            yield from _close_quietly(client, close, "the Schema Registry client of a serde that failed to build")
        raise
    if owned:
        serde.own_schema_registry_client()
    if init is not None:
        try:
            yield Invoke(init, (serde,))
        except BaseException:
            yield from _close_quietly(serde, close, "a serde whose init callback failed")
            raise
    return serde


def _close_quietly(obj: Any, close: str, what: str) -> SerdeOp:
    try:
        yield Invoke(getattr(obj, close))
    except Exception:
        log.warning("Failed to close %s", what, exc_info=True)


# -- the steps shared by every format -------------------------------------------------------------


def track_original_key(op: SerdeOp, ctx: Optional[SerializationContext], original: Any) -> SerdeOp:
    """Run ``op``, then remember ``original`` as the record's key when ``ctx`` is a key's (for
    the value serde's rule actions, e.g. the DLQ), else forget the remembered key.

    :returns: what ``op`` returns.
    """
    try:
        return (yield from op)
    finally:
        if ctx is not None and ctx.field == MessageField.KEY:
            set_original_key(original)
        else:
            clear_original_key()


def _with_context(hook: Callable[[Any, SerializationContext], Any], value: Any,
                  ctx: Optional[SerializationContext]) -> Any:
    """``hook(value, ctx)`` for a serde's to_dict/from_dict hook, which needs the context.

    :raises TypeError: when ``ctx`` is None.
    """
    if ctx is None:
        raise TypeError("SerializationContext cannot be None")
    return hook(value, ctx)


class SerdeBase(RuleRunner):
    """State and steps shared by every serializer and deserializer."""

    _conf: SerdeConfig
    _schema: Optional[Schema]
    _known_subjects: set  # type: ignore[type-arg]
    _known_lock: threading.Lock
    _schema_id: Optional[SchemaId]
    _cluster_id_resolver: Optional[Callable[[], Any]]

    def _write_framed(self, ctx: Optional[SerializationContext], subject: Optional[str],
                      latest: Optional[RegisteredSchema], payload: bytes, schema_id: Optional[SchemaId]) -> bytes:
        """What a serializer writes: its encoded ``payload`` after the ENCODING rules of the latest
        schema (none without a latest schema, a context or a subject), framed with ``schema_id``."""
        if latest is not None and ctx is not None and subject is not None:
            payload = self._execute_rules_with_phase(ctx, subject, RulePhase.ENCODING, RuleMode.WRITE, None,
                                                     latest.schema, payload, None, None)
        framed: bytes = self._conf.schema_id_framing(payload, ctx, schema_id)
        return framed

    def _read_encoding_rules(self, ctx: Optional[SerializationContext], subject: Optional[str],
                             writer: Optional[Schema], payload: Any, data: bytes) -> Any:
        """A deserializer's unframed ``payload`` after the ENCODING rules of the writer schema (the
        payload itself without a context or a subject)."""
        if ctx is not None and subject is not None:
            payload = self._execute_rules_with_phase(ctx, subject, RulePhase.ENCODING, RuleMode.READ, None, writer,
                                                     payload, None, None, data)
        return payload

    def _register_op(self, subject: str, schema: Schema, schema_type: str,
                     message_indexes: Optional[List[int]] = None, keep_schema: bool = False) -> SerdeOp:
        """A serializer's first write to ``subject``: register ``schema`` there (or, without
        auto.register.schemas, look it up), then remember the subject as known and the schema id
        it got (with ``keep_schema``, ``schema`` too, as this serializer's schema).

        :returns: the :class:`SchemaId` to frame payloads with.
        """
        call = "register_schema_full_response" if self._conf.auto_register else "lookup_schema"
        registered = yield from registry_call(call, subject, schema, normalize_schemas=self._conf.normalize_schemas)
        schema_id = SchemaId(schema_type, registered.schema_id, registered.guid, message_indexes)
        with self._known_lock:
            if keep_schema:
                self._schema = schema
            self._known_subjects.add(subject)
            self._schema_id = schema_id
        return schema_id

    def _new_associated_strategy(self) -> Any:
        """A new associated subject name strategy of this serde's kind (sync or async)."""
        return AssociatedNameStrategy()

    def configure_subject_name_strategy(self, subject_name_strategy_type: Any = None,
                                        subject_name_strategy_conf: Optional[Dict[str, Any]] = None,
                                        subject_name_strategy: Optional[Callable[..., Any]] = None) -> None:
        """Choose how this serde names subjects: a callable ``(ctx, record_name) -> subject``,
        or a strategy by type (TOPIC, RECORD, TOPIC_RECORD or ASSOCIATED, as a
        :class:`SubjectNameStrategyType` or its name). The callable wins when both are given;
        with neither, the associated strategy (falling back to TOPIC) is used.

        :param subject_name_strategy_type: the strategy's type.
        :param subject_name_strategy_conf: settings for the strategies that take them (ASSOCIATED:
            ``subject.name.strategy.kafka.cluster.id``, ``subject.name.strategy.fallback.type``).
        :param subject_name_strategy: the callable.
        :raises ValueError: for a strategy that is not callable, or an unknown or NONE type.
        """
        self._conf.strategy, self._conf.strategy_conf = resolve_subject_name_strategy(
            subject_name_strategy_type, subject_name_strategy_conf, subject_name_strategy,
            self._new_associated_strategy)

    def configure_validation_rules(self, conf: Dict[str, Any]) -> None:
        """Take the inline validation settings out of ``conf`` and apply them:
        ``validation.rules.execution`` (DISABLED, BEFORE_DOMAIN_RULES or AFTER_DOMAIN_RULES),
        ``validation.rules.fail.fast`` (stop at the first failure) and
        ``validation.rules.executor`` (a :class:`ValidationRuleExecutor`; default: CEL, made
        now so that a missing dependency shows here).

        :param conf: the settings; the keys used are removed.
        :raises ValueError: for a bad value, or no CEL for the default executor.
        """
        self._conf.validation, self._conf.validation_fail_fast, self._conf.validation_executor = \
            validation_settings(conf)

    def _validation_enabled(self, phase: Optional[ValidationRulesExecution] = None) -> bool:
        """Whether inline rules run at ``phase`` (with no phase: whether they run at all, for
        a path with no domain rules to run before or after)."""
        execution = getattr(getattr(self, "_conf", None), "validation", ValidationRulesExecution.DISABLED)
        if phase is None:
            return execution != ValidationRulesExecution.DISABLED
        return execution == phase

    def _raise_validation_violations(self, violations: List[ValidationRuleError]) -> None:
        raise_violations(violations)

    def _serialize_steps(self, obj: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
        raise NotImplementedError

    def _deserialize_steps(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
        raise NotImplementedError

    def _serialize_op(self, obj: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
        """The serializer's steps, remembering a key for the value serde's rule actions."""
        return track_original_key(self._serialize_steps(obj, ctx), ctx, obj)

    def _deserialize_op(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
        """The deserializer's steps, remembering a key for the value serde's rule actions."""
        return track_original_key(self._deserialize_steps(data, ctx), ctx, data)

    def _subject_op(self, ctx: Optional[SerializationContext], record_name: Optional[str],
                    has_client: bool) -> SerdeOp:
        strategy = self._conf.strategy
        if isinstance(strategy, AssociatedNameStrategy):
            return (yield from strategy._op(ctx, record_name, self._conf.strategy_conf, has_client))
        return strategy(ctx, record_name)

    def _reader_schema_op(self, subject: str, fmt: Optional[str] = None) -> SerdeOp:
        conf = self._conf
        if conf.use_schema_id is not None:
            schema = yield from registry_call("get_schema", conf.use_schema_id, subject, fmt)
            known = yield CacheLookup(subject, conf.use_schema_id)
            if known is not None:
                return known
            return (yield from registry_call("lookup_schema", subject, schema, normalize_schemas=False,
                                             deleted=True))
        if conf.use_latest_with_metadata is not None:
            return (yield from registry_call("get_latest_with_metadata", subject, conf.use_latest_with_metadata,
                                             deleted=True, fmt=fmt))
        if conf.use_latest_version:
            return (yield from registry_call("get_latest_version", subject, fmt))
        return None

    def _migrations_op(self, subject: str, source_info: Schema, target: RegisteredSchema,
                       fmt: Optional[str] = None) -> SerdeOp:
        """The migration steps from the writer's schema to ``target`` (the reader's version):
        one per version in between whose rule set migrates in that direction.

        :returns: a list of :class:`Migration`, in the order they run.
        """
        source = yield from registry_call("lookup_schema", subject, source_info, normalize_schemas=False, deleted=True)
        if source.version < target.version:
            mode, first, last = RuleMode.UPGRADE, source, target
        elif source.version > target.version:
            mode, first, last = RuleMode.DOWNGRADE, target, source
        else:
            return []
        versions = [first]
        if first.version is not None and last.version is not None:
            for version in range(first.version + 1, last.version):
                versions.append((yield from registry_call("get_version", subject, version, True, fmt)))
        versions.append(last)
        migrations: List[Migration] = []
        for previous, version in zip(versions, versions[1:]):
            if version.schema is not None and has_rules(version.schema.rule_set, RulePhase.MIGRATION, mode):
                migrations.append(Migration(mode, previous, version) if mode == RuleMode.UPGRADE
                                  else Migration(mode, version, previous))
        if mode == RuleMode.DOWNGRADE:
            migrations.reverse()
        return migrations
