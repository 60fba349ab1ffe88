"""JSON Schema serialization steps shared by the sync and async serdes, with no I/O of their own:
schema parsing (references resolved through the registry into a ``referencing`` registry),
validation with ``jsonschema``, JSON encoding and decoding, and the Confluent framing.

A schema's ``$ref`` to an ``http(s)`` URI that no registered reference names is fetched when
validation first needs it, as upstream does, refusing hosts that resolve to non-public
addresses.
"""

from __future__ import annotations

import decimal
import ipaddress
import json
import logging
import socket
import threading
from io import BytesIO
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, Union
from urllib.parse import urlsplit

import referencing
import referencing.exceptions
import referencing.jsonschema
from cachetools import LRUCache
from jsonschema import ValidationError  # type: ignore[import-untyped,unused-ignore]
from jsonschema.validators import validator_for  # type: ignore[import-untyped,unused-ignore]
from referencing import Registry, Resource

from ...serialization import SerializationContext, SerializationError
from .schema_registry_client import RuleMode, Schema
from ._rule_framework import _keeps_field_result
from ._validation import declared_rules, evaluate_rules
from .serde import (
    FieldTransform,
    FieldType,
    ParsedSchemaCache,
    RuleContext,
    SchemaId,
    SerdeBase,
    SerdeConfig,
    SerdeOp,
    ValidationRuleError,
    ValidationRuleExecutor,
    ValidationRulesExecution,
    _where,
    _with_context,
    framing_error,
    registry_call,
    wrap_error,
    writer_schema_op,
    deserializer_defaults,
    serializer_defaults,
)

__all__ = ["JsonMessage", "JsonSchema", "DEFAULT_SPEC", "_retrieve_via_httpx", "transform", "validate_message",
           "get_type", "_disjoint",
           "get_inline_tags", "_json_loads", "_json_dumps", "_HAS_ORJSON"]

log = logging.getLogger(__name__)

JSON_TYPE = "JSON"

JsonMessage = Union[None, str, float, int, decimal.Decimal, bool, list, dict]  # type: ignore[type-arg]
JsonSchema = Union[bool, dict]  # type: ignore[type-arg]

#: The JSON Schema draft a referenced schema without ``$schema`` is read as.
DEFAULT_SPEC = referencing.jsonschema.DRAFT7

# The JSON codec: orjson when it is installed (the ``json-fast`` extra), else the standard
# library writing the same bytes (compact separators, non-ASCII kept), as upstream does.
try:
    import orjson  # type: ignore[import-not-found,unused-ignore]

    _HAS_ORJSON = True

    def _json_loads(data: Union[str, bytes, bytearray]) -> Any:
        return orjson.loads(data)

    def _json_dumps(obj: Any) -> str:
        text: str = orjson.dumps(obj).decode("utf-8")
        return text

except Exception as _orjson_error:  # noqa: BLE001 - an orjson that fails to load is not used
    if not isinstance(_orjson_error, ImportError):
        log.warning("orjson is installed but failed to import; using the json module", exc_info=True)
    _HAS_ORJSON = False

    def _json_loads(data: Union[str, bytes, bytearray]) -> Any:
        return json.loads(data)

    def _json_dumps(obj: Any) -> str:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class _ContextStringIO(BytesIO):
    """A BytesIO usable in ``with``."""

    def __enter__(self) -> "_ContextStringIO":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


# -- remote $refs ----------------------------------------------------------------------------------


def _is_blocked_ip(ip: Any) -> bool:
    """Whether an address is not a public one (loopback, private, link-local, reserved...),
    an IPv4-mapped IPv6 address judged as its IPv4 address.

    :param ip: an :mod:`ipaddress` address.
    :returns: True when schemas must not be fetched from it.
    """
    mapped = getattr(ip, "ipv4_mapped", None)
    return not (mapped or ip).is_global


def _guard_external_uri(uri: str) -> None:
    """Refuse a ``$ref`` URI that is not http(s) or whose host resolves to a non-public address.

    :param uri: the URI.
    :raises ValueError: when it is refused.
    """
    parts = urlsplit(uri)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"Refusing to retrieve schema from non-HTTP(S) URI: {uri}")
    if not parts.hostname:
        raise ValueError(f"Refusing to retrieve schema from URI without a host: {uri}")
    try:
        addresses = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except socket.gaierror as exc:
        raise ValueError(f"Could not resolve schema URI host {parts.hostname}: {exc}") from exc
    for address in addresses:
        if _is_blocked_ip(ipaddress.ip_address(address[4][0])):
            raise ValueError(f"Refusing to retrieve schema from non-public address: {uri}")


def _retrieve_via_httpx(uri: str) -> Resource:
    """Fetch a schema named by a ``$ref`` URI that no reference resolves (public hosts only).

    :param uri: the URI.
    :returns: the schema, as a ``referencing`` resource.
    :raises ValueError: for a URI that is not http(s) or whose host is not public.
    """
    from ._httpx_compat import httpx

    _guard_external_uri(uri)
    response = httpx.get(uri, follow_redirects=False)
    return Resource.from_contents(response.json(), default_specification=DEFAULT_SPEC)


def _empty_registry() -> Registry:
    return Registry(retrieve=_retrieve_via_httpx)  # type: ignore[call-arg]


def resolve_named_schemas_op(schema: Schema, ref_registry: Optional[Registry] = None) -> SerdeOp:
    """The schemas ``schema`` references (recursively), fetched from the registry and named as
    the references name them, so that ``$ref`` finds them.

    :param schema: the schema.
    :param ref_registry: the registry to add them to (a new one when None).
    :returns: the ``referencing`` registry.
    """
    if ref_registry is None:
        ref_registry = _empty_registry()
    for ref in schema.references or []:
        if ref.subject is None or ref.version is None:
            raise TypeError("Subject or version cannot be None")
        referenced = yield from registry_call("get_version", ref.subject, ref.version, True)
        ref_registry = yield from resolve_named_schemas_op(referenced.schema, ref_registry)
        if referenced.schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        contents = _json_loads(referenced.schema.schema_str)
        if ref.name is None:
            raise TypeError("Name cannot be None")
        ref_registry = ref_registry.with_resource(
            ref.name, Resource.from_contents(contents, default_specification=DEFAULT_SPEC))
    return ref_registry


def get_inline_tags(schema: Dict[str, Any]) -> Set[str]:
    """The tags a schema node carries in ``confluent:tags``.

    :param schema: the node.
    :returns: its tags.
    """
    tags = schema.get("confluent:tags")
    return set() if tags is None else set(tags)


def _disjoint(tags1: Set[str], tags2: Set[str]) -> bool:
    return not (set(tags1) & set(tags2))


# -- the steps -------------------------------------------------------------------------------------


def _title(parsed: Any) -> Optional[str]:
    title = parsed.get("title") if isinstance(parsed, dict) else None
    return title if isinstance(title, str) else None


def _describe(parsed: Any, schema_id: Optional[SchemaId]) -> str:
    title = _title(parsed)
    ident = "" if schema_id is None else (f" (id {schema_id.id})" if schema_id.id is not None
                                           else f" (guid {schema_id.guid})")
    return (f"JSON schema {title!r}" if title else "JSON schema") + ident


def _json_path(error: ValidationError) -> str:
    path = "$"
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


class ValidationFailed(SerializationError):
    """A record that does not match its JSON schema.

    :param message: what failed and where.
    :param error: jsonschema's error (also the ``__cause__``).
    """

    def __init__(self, message: str, error: Optional[ValidationError] = None) -> None:
        super().__init__(message)
        #: The failing value's location, as ``$.field[index]``.
        self.path = _json_path(error) if error is not None else None
        #: jsonschema's own message, the text upstream raises.
        self.reason = error.message if error is not None else None


class JSONPayloadDecodeError(json.JSONDecodeError):
    """A payload that is not JSON: the ``json.JSONDecodeError`` upstream raises (same ``msg``,
    ``doc``, ``pos``, ``lineno``, ``colno``), with a text naming the topic, field, schema and id
    that a pickled copy keeps. Not a SerializationError, as upstream's is not.

    :param message: what failed and where.
    :param cause: the codec's error.
    """

    def __init__(self, message: str, cause: json.JSONDecodeError) -> None:
        super().__init__(cause.msg, cause.doc, cause.pos)
        self.args = (message,)

    def __reduce__(self) -> Any:
        return (type(self), (self.args[0], json.JSONDecodeError(self.msg, self.doc, self.pos)))


class JsonSteps(SerdeBase):
    """What JSON serializers and deserializers share: parsed schemas and validators, cached."""

    _parsed_schemas: ParsedSchemaCache
    _validators: "LRUCache[Schema, Any]"
    _validators_lock: threading.Lock
    _validate: bool

    def _init_caches(self) -> None:
        self._parsed_schemas = ParsedSchemaCache()
        self._validators = LRUCache(1000)
        self._validators_lock = threading.Lock()

    def _parsed_op(self, schema: Optional[Schema]) -> SerdeOp:
        if schema is None:
            return None, None
        found = self._parsed_schemas.get_parsed_schema(schema)
        if found is not None:
            return found
        ref_registry = yield from resolve_named_schemas_op(schema)
        if schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        parsed = (_json_loads(schema.schema_str), ref_registry)
        self._parsed_schemas.set(schema, parsed)
        return parsed

    def _validator(self, schema: Schema, parsed: Any, ref_registry: Registry) -> Any:
        with self._validators_lock:
            found = self._validators.get(schema)
        if found is not None:
            return found
        cls = validator_for(parsed)
        cls.check_schema(parsed)
        made = cls(parsed, registry=ref_registry)
        with self._validators_lock:
            self._validators[schema] = made
        return made

    def _check(self, value: Any, schema: Schema, parsed: Any, ref_registry: Registry,
               ctx: Optional[SerializationContext], schema_id: Optional[SchemaId]) -> None:
        validator = self._validator(schema, parsed, ref_registry)
        try:
            validator.validate(value)
        except ValidationError as exc:
            raise ValidationFailed(f"{_where(ctx)}validating with {_describe(parsed, schema_id)} failed at "
                                   f"{_json_path(exc)}: {exc.message}", exc) from exc

    def _format_keys(self, conf: Dict[str, Any]) -> None:
        validate = conf.pop("validate")
        if not isinstance(validate, bool):
            raise ValueError("validate must be a boolean value")
        self._validate = validate


def _as_schema(schema_str: Union[str, Schema, None]) -> Optional[Schema]:
    if isinstance(schema_str, str):
        return Schema(schema_str, schema_type="JSON")
    if isinstance(schema_str, Schema):
        return schema_str
    return None


class JsonSerializerSteps(JsonSteps):
    """The steps of a JSON serializer."""

    _default_conf: Dict[str, Any] = serializer_defaults({"validate": True})

    _to_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _json_encode: Callable[[Any], Any]
    _schema_id: Optional[SchemaId]
    _schema_name: Optional[str]
    _parsed_schema: Any
    _ref_registry: Any
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], to_dict: Any, conf: Optional[Dict[str, Any]],
                 json_encode: Optional[Callable[[Any], Any]]) -> SerdeOp:
        self._schema = _as_schema(schema_str)
        self._json_encode = json_encode or _json_dumps
        self._schema_id = None
        self._known_subjects = set()
        self._known_lock = threading.Lock()
        self._init_caches()
        if to_dict is not None and not callable(to_dict):
            raise ValueError("to_dict must be callable with the signature to_dict(object, SerializationContext)->dict")
        self._to_dict = to_dict
        self._conf = SerdeConfig(self._default_conf, conf, serializer=True, format_keys=self._format_keys,
                                 associated=self._new_associated_strategy)
        self._parsed_schema, self._ref_registry = yield from self._parsed_op(self._schema)
        self._schema_name = _title(self._parsed_schema)
        return None

    def _serialize_steps(self, obj: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
        if obj is None:
            return None
        subject = yield from self._subject_op(ctx, self._schema_name, self._registry is not None)
        latest = (yield from self._reader_schema_op(subject)) if subject else None
        schema_id = self._schema_id
        if latest is not None:
            schema_id = SchemaId(JSON_TYPE, latest.schema_id, latest.guid)
            self._schema_id = schema_id
        elif subject is not None and subject not in self._known_subjects:
            if self._schema is None:
                raise SerializationError(f"{_where(ctx)}the serializer has no schema to register: pass one, or set "
                                         "use.latest.version or use.schema.id")
            schema_id = yield from self._register_op(subject, self._schema, JSON_TYPE)

        value = _with_context(self._to_dict, obj, ctx) if self._to_dict is not None else obj

        if latest is not None:
            schema: Optional[Schema] = latest.schema
            parsed, ref_registry = yield from self._parsed_op(latest.schema)
            if ref_registry is not None:
                resolver = _root_resolver(parsed, ref_registry)

                def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, msg: Any) -> Any:
                    return transform(rule_ctx, parsed, ref_registry, resolver, "$", msg, field_transform)

                if self._validation_enabled(ValidationRulesExecution.BEFORE_DOMAIN_RULES):
                    self._validate_inline_rules(parsed, ref_registry, resolver, value)
                if ctx is not None and subject is not None:
                    value = self._execute_rules(ctx, subject, RuleMode.WRITE, None, latest.schema, value, None,
                                                field_transformer)
                if self._validation_enabled(ValidationRulesExecution.AFTER_DOMAIN_RULES):
                    self._validate_inline_rules(parsed, ref_registry, resolver, value)
        else:
            schema, parsed, ref_registry = self._schema, self._parsed_schema, self._ref_registry
            # No domain rules run here, so before and after are the same point.
            if self._validation_enabled() and parsed is not None and ref_registry is not None:
                self._validate_inline_rules(parsed, ref_registry, _root_resolver(parsed, ref_registry), value)
        if self._validate and schema is not None and ref_registry is not None:
            self._check(value, schema, parsed, ref_registry, ctx, schema_id)
        if schema_id is None:
            raise SerializationError(f"{_where(ctx)}no schema id to frame the record with: a SerializationContext "
                                     "is needed to find the subject")
        try:
            encoded = self._json_encode(value)
        except Exception as exc:  # noqa: BLE001 - wrapped with where it happened
            raise wrap_error(exc, ctx, "encoding as JSON for " + _describe(parsed, schema_id)) from exc
        payload = encoded.encode("utf8") if isinstance(encoded, str) else encoded
        return self._write_framed(ctx, subject, latest, payload, schema_id)

    def _validate_inline_rules(self, parsed: Any, ref_registry: Registry, resolver: Any, value: Any) -> None:
        self._raise_validation_violations(validate_message(
            self._conf.validation_executor, parsed, ref_registry, resolver, value, self._conf.validation_fail_fast))


class JsonDeserializerSteps(JsonSteps):
    """The steps of a JSON deserializer."""

    _default_conf: Dict[str, Any] = deserializer_defaults({"validate": True})

    _from_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _json_decode: Callable[[Any], Any]
    _reader_schema: Any
    _ref_registry: Any
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], from_dict: Any, conf: Optional[Dict[str, Any]],
                 json_decode: Optional[Callable[[Any], Any]]) -> SerdeOp:
        if isinstance(schema_str, str):
            schema: Optional[Schema] = Schema(schema_str, schema_type="JSON")
        elif isinstance(schema_str, Schema):
            schema = schema_str
            if schema.references and self._registry is None:
                raise ValueError('schema_registry_client must be provided if "schema_str" is a Schema instance '
                                 'with references')
        elif schema_str is None:
            if self._registry is None:
                raise ValueError('schema_registry_client must be provided if "schema_str" is not provided')
            schema = None
        else:
            raise TypeError("You must pass either str or Schema")
        self._schema = schema
        self._init_caches()
        self._json_decode = json_decode or _json_loads
        self._conf = SerdeConfig(self._default_conf, conf, serializer=False, format_keys=self._format_keys,
                                 associated=self._new_associated_strategy)
        self._reader_schema, self._ref_registry = yield from self._parsed_op(schema)
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature from_dict(dict, SerializationContext) "
                             "-> object")
        self._from_dict = from_dict
        return None

    def _deserialize_steps(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
        if data is None:
            return None
        has_client = self._registry is not None
        subject = yield from self._subject_op(ctx, None, has_client)
        latest = (yield from self._reader_schema_op(subject)) if subject is not None and has_client else None

        schema_id = SchemaId(JSON_TYPE)
        try:
            payload = self._conf.schema_id_framing(data, ctx, schema_id)
        except Exception as exc:  # noqa: BLE001 - named with where it happened
            raise framing_error(exc, ctx, data) from exc

        writer_raw: Optional[Schema] = None
        writer: Tuple[Any, Any] = (None, None)
        if has_client:
            writer_raw = yield from writer_schema_op(schema_id, subject, None, ctx)
            writer = yield from self._parsed_op(writer_raw)
            if subject is None and isinstance(writer[0], dict):
                subject = yield from self._subject_op(ctx, writer[0].get("title"), has_client)
                if subject is not None:
                    latest = yield from self._reader_schema_op(subject)
        payload = self._read_encoding_rules(ctx, subject, writer_raw, payload, data)
        if isinstance(payload, bytes):
            payload = BytesIO(payload)
        raw = payload.read()
        try:
            record = self._json_decode(raw)
        except json.JSONDecodeError as exc:
            raise JSONPayloadDecodeError(f"{_where(ctx)}decoding JSON written with {_describe(writer[0], schema_id)} "
                                         f"failed: {exc}", exc) from exc
        except Exception as exc:  # noqa: BLE001 - wrapped with where it happened
            raise wrap_error(exc, ctx, "decoding JSON written with " + _describe(writer[0], schema_id)) from exc

        reader_id: Optional[SchemaId] = None
        migrations: List[Any] = []
        if latest is not None and subject is not None and writer_raw is not None:
            migrations = yield from self._migrations_op(subject, writer_raw, latest, None)
            reader_raw: Optional[Schema] = latest.schema
            reader, reader_registry = yield from self._parsed_op(latest.schema)
            reader_id = SchemaId(JSON_TYPE, latest.schema_id, latest.guid)
        elif self._schema is not None:
            reader_raw, reader, reader_registry = self._schema, self._reader_schema, self._ref_registry
        else:
            reader_raw, (reader, reader_registry) = writer_raw, writer
            reader_id = schema_id
        if migrations and ctx is not None and subject is not None:
            record = self._execute_migrations(ctx, subject, migrations, record)
        if reader_registry is not None and ctx is not None and subject is not None:
            resolver = _root_resolver(reader, reader_registry)

            def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, msg: Any) -> Any:
                return transform(rule_ctx, reader, reader_registry, resolver, "$", msg, field_transform)

            record = self._execute_rules(ctx, subject, RuleMode.READ, None, reader_raw, record, None,
                                         field_transformer, data)
        if self._validate and reader_raw is not None and reader_registry is not None:
            self._check(record, reader_raw, reader, reader_registry, ctx, reader_id)

        return _with_context(self._from_dict, record, ctx) if self._from_dict is not None else record


# -- data-contract rules: walking a record for field-level rules ------------------------------------


def get_type(schema: JsonSchema) -> FieldType:
    """The :class:`FieldType` of a JSON (sub)schema: an object with properties is a RECORD,
    without them a MAP; ``const``/``enum`` make an ENUM; a boolean schema is COMBINED.

    :param schema: the schema.
    :returns: its field type.
    """
    if isinstance(schema, bool):
        return FieldType.COMBINED
    kind = schema.get("type")
    if schema.get("const") is not None or schema.get("enum") is not None:
        return FieldType.ENUM
    if kind == "object":
        return FieldType.RECORD if schema.get("properties") else FieldType.MAP
    simple = {"array": FieldType.ARRAY, "string": FieldType.STRING, "integer": FieldType.INT,
              "number": FieldType.DOUBLE, "boolean": FieldType.BOOLEAN, "null": FieldType.NULL}
    if isinstance(kind, str) and kind in simple:
        return simple[kind]
    if schema.get("properties") is not None:
        return FieldType.RECORD
    return FieldType.NULL


def _valid(message: Any, schema: Any, ref_registry: Registry, resolver: Optional[Any] = None) -> bool:
    try:
        cls = validator_for(schema) if isinstance(schema, dict) else validator_for({})
        validator = cls(schema, registry=ref_registry, _resolver=resolver) if resolver is not None \
            else cls(schema, registry=ref_registry)
        validator.validate(message)
        return True
    except (ValidationError, referencing.exceptions.Unresolvable):
        return False


def _matching_type(schema: Dict[str, Any], message: Any, ref_registry: Registry, resolver: Any) -> Optional[Any]:
    # A schema with several types: a copy narrowed to the first type the message has (the
    # cached schema itself is never changed).
    for kind in schema["type"]:
        narrowed = {**schema, "type": kind}
        if _valid(message, narrowed, ref_registry, resolver):
            return narrowed
    return None


def _matching_subschema(subschema: Any, message: Any, ref_registry: Registry, resolver: Any) -> Optional[Any]:
    if not isinstance(subschema, dict):
        return None
    ref = subschema.get("$ref")
    if ref is not None:
        resolved = resolver.lookup(ref)
        return resolved.contents if _valid(message, resolved.contents, ref_registry, resolved.resolver) else None
    return subschema if _valid(message, subschema, ref_registry) else None


def transform(ctx: RuleContext, schema: JsonSchema, ref_registry: Registry, ref_resolver: Any, path: str,
              message: JsonMessage, field_transform: FieldTransform) -> Optional[JsonMessage]:
    """Walk ``message`` along ``schema``, applying ``field_transform`` to each string, number,
    integer, boolean or enum property whose tags meet the rule's (all of them when the rule
    names no tags). Objects are changed in place; properties are named ``$.a.b``.

    :param ctx: the rule context.
    :param schema: the (sub)schema.
    :param ref_registry: the ``referencing`` registry holding referenced schemas.
    :param ref_resolver: the resolver for ``$ref``.
    :param path: the JSON path of ``message``.
    :param message: the value.
    :param field_transform: the rule's field transform.
    :returns: the value, transformed.
    """
    if message is None or schema is None or isinstance(schema, bool):
        return message
    field_ctx = ctx.current_field()
    if field_ctx is not None:
        field_ctx.field_type = get_type(schema)
    if isinstance(schema.get("type"), list) and schema["type"]:
        narrowed = _matching_type(schema, message, ref_registry, ref_resolver)
        if narrowed is not None:
            return transform(ctx, narrowed, ref_registry, ref_resolver, path, message, field_transform)
    all_of, any_of, one_of = schema.get("allOf"), schema.get("anyOf"), schema.get("oneOf")
    if all_of is not None or any_of is not None or one_of is not None:
        if all_of is not None:
            for sub in all_of:
                message = transform(ctx, sub, ref_registry, ref_resolver, path, message, field_transform)
        elif one_of is not None:
            for sub in one_of:
                found = _matching_subschema(sub, message, ref_registry, ref_resolver)
                if found is not None:
                    message = transform(ctx, found, ref_registry, ref_resolver, path, message, field_transform)
                    break
        else:
            for sub in any_of or []:
                found = _matching_subschema(sub, message, ref_registry, ref_resolver)
                if found is not None:
                    message = transform(ctx, found, ref_registry, ref_resolver, path, message, field_transform)
        # Properties and items beside the combinators are walked too.
        props = schema.get("properties")
        if props is not None and isinstance(message, dict):
            for name, prop in props.items():
                if isinstance(prop, dict):
                    _transform_field(ctx, path, name, message, prop, ref_registry, ref_resolver, field_transform)
        items = schema.get("items")
        if items is not None and isinstance(message, list):
            message = [transform(ctx, items, ref_registry, ref_resolver, path, item, field_transform)
                       for item in message]
        return message
    items = schema.get("items")
    if items is not None and isinstance(message, list):
        return [transform(ctx, items, ref_registry, ref_resolver, path, item, field_transform) for item in message]
    ref = schema.get("$ref")
    if ref is not None:
        resolved = ref_resolver.lookup(ref)
        return transform(ctx, resolved.contents, ref_registry, resolved.resolver, path, message, field_transform)
    kind = get_type(schema)
    if kind == FieldType.RECORD:
        if not isinstance(message, dict):
            log.warning("Incompatible message type for record schema")
            return message
        for name, prop in (schema.get("properties") or {}).items():
            if isinstance(prop, dict):
                _transform_field(ctx, path, name, message, prop, ref_registry, ref_resolver, field_transform)
        return message
    if kind in (FieldType.ENUM, FieldType.STRING, FieldType.INT, FieldType.DOUBLE, FieldType.BOOLEAN):
        if field_ctx is not None:
            tags = ctx.rule.tags
            if not tags or not _disjoint(set(tags), field_ctx.tags):
                transformed: JsonMessage = field_transform(ctx, field_ctx, message)
                return transformed
    return message


def _transform_field(ctx: RuleContext, path: str, name: str, message: Dict[str, Any], prop: Dict[str, Any],
                     ref_registry: Registry, ref_resolver: Any, field_transform: FieldTransform) -> None:
    full_name = f"{path}.{name}"
    try:
        ctx.enter_field(message, full_name, name, get_type(prop), get_inline_tags(prop))
        value = message.get(name)
        if value is not None:
            result = transform(ctx, prop, ref_registry, ref_resolver, full_name, value, field_transform)
            if _keeps_field_result(ctx, result):
                message[name] = result
    finally:
        ctx.exit_field()


# -- inline validation rules --------------------------------------------------------------------


def validate_message(executor: Optional[ValidationRuleExecutor], schema: Optional[JsonSchema], ref_registry: Registry,
                     ref_resolver: Any, message: JsonMessage, fail_fast: bool = False) -> List[ValidationRuleError]:
    """Evaluate the ``confluent:rules`` keywords of ``schema`` against ``message``, without
    changing it: an object schema's rules with ``this`` bound to the object, a property's with
    ``this`` bound to its value (not when it is absent or null), through nested objects,
    arrays, ``$ref``, type lists and ``allOf``/``anyOf``/``oneOf``.

    :param executor: evaluates each rule; None validates nothing.
    :param schema: the schema.
    :param ref_registry: the ``referencing`` registry holding referenced schemas.
    :param ref_resolver: the resolver for ``$ref``.
    :param message: the record.
    :param fail_fast: stop at the first failure.
    :returns: every failure, located by JSON path (``$.addr.zip``, ``$.tags[3]``).
    """
    found: List[ValidationRuleError] = []
    if executor is not None and schema is not None and message is not None:
        _validate(executor, schema, ref_registry, ref_resolver, "$", message, fail_fast, found)
    return found


def _validate(executor: ValidationRuleExecutor, schema: JsonSchema, ref_registry: Registry, ref_resolver: Any,
              path: str, message: Any, fail_fast: bool, out: List[ValidationRuleError]) -> bool:
    """Walk one value; returns True to stop (fail fast after a failure)."""
    if message is None or schema is None or isinstance(schema, bool):
        return False
    if isinstance(schema.get("type"), list) and schema["type"]:
        narrowed = _matching_type(schema, message, ref_registry, ref_resolver)
        if narrowed is None:
            return False
        return _validate(executor, narrowed, ref_registry, ref_resolver, path, message, fail_fast, out)
    all_of, any_of, one_of = schema.get("allOf"), schema.get("anyOf"), schema.get("oneOf")
    if all_of is not None or any_of is not None or one_of is not None:
        if all_of is not None:
            for sub in all_of:
                if _validate(executor, sub, ref_registry, ref_resolver, path, message, fail_fast, out):
                    return True
        elif one_of is not None:
            for sub in one_of:
                match = _matching_subschema(sub, message, ref_registry, ref_resolver)
                if match is not None:
                    _validate(executor, match, ref_registry, ref_resolver, path, message, fail_fast, out)
                    break
        else:
            for sub in any_of or []:
                match = _matching_subschema(sub, message, ref_registry, ref_resolver)
                if match is not None and _validate(executor, match, ref_registry, ref_resolver, path, message,
                                                   fail_fast, out):
                    return True
        if fail_fast and out:
            return True
        # The object's own rules and properties beside the combinators, then its items.
        if _validate_object(executor, schema, ref_registry, ref_resolver, path, message, fail_fast, out):
            return True
        return _validate_items(executor, schema, ref_registry, ref_resolver, path, message, fail_fast, out)
    if schema.get("items") is not None and isinstance(message, list):
        return _validate_items(executor, schema, ref_registry, ref_resolver, path, message, fail_fast, out)
    ref = schema.get("$ref")
    if ref is not None:
        resolved = ref_resolver.lookup(ref)
        return _validate(executor, resolved.contents, ref_registry, resolved.resolver, path, message, fail_fast, out)
    return _validate_object(executor, schema, ref_registry, ref_resolver, path, message, fail_fast, out)


def _validate_items(executor: ValidationRuleExecutor, schema: Dict[str, Any], ref_registry: Registry,
                    ref_resolver: Any, path: str, message: Any, fail_fast: bool,
                    out: List[ValidationRuleError]) -> bool:
    items = schema.get("items")
    if items is None or not isinstance(message, list):
        return False
    return any(_validate(executor, items, ref_registry, ref_resolver, f"{path}[{i}]", item, fail_fast, out)
               for i, item in enumerate(message))


def _validate_object(executor: ValidationRuleExecutor, schema: Dict[str, Any], ref_registry: Registry,
                     ref_resolver: Any, path: str, message: Any, fail_fast: bool,
                     out: List[ValidationRuleError]) -> bool:
    # Declared properties only: additionalProperties and patternProperties are not walked.
    if not isinstance(message, dict):
        return False
    if evaluate_rules(executor, declared_rules(schema), schema, message, path, fail_fast, out):
        return True
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        where = f"{path}.{name}"
        value = message.get(name)
        if value is not None and evaluate_rules(executor, declared_rules(prop), prop, value, where, fail_fast, out):
            return True
        if _validate(executor, prop, ref_registry, ref_resolver, where, value, fail_fast, out):
            return True
    return False


def _root_resolver(parsed: Any, ref_registry: Registry) -> Any:
    return ref_registry.resolver_with_root(Resource.from_contents(parsed, default_specification=DEFAULT_SPEC))
