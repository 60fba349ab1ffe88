"""Avro serialization steps shared by the sync and async serdes, with no I/O: schema parsing
(with references resolved through the registry), framing, encoding with fastavro, and schema
resolution on read (writer schema to the reader schema)."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections import defaultdict
from copy import deepcopy
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, Union

from fastavro import schemaless_reader, schemaless_writer
from fastavro import repository
from fastavro.schema import expand_schema, load_schema
from fastavro.validation import validate as avro_validate

from ...serialization import SerializationContext, SerializationError
from ..confluent.type.variant_utils import Variant
from .schema_registry_client import Schema
from .schema_registry_client import RuleMode
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
    _with_context,
    framing_error,
    registry_call,
    wrap_error,
    writer_schema_op,
    deserializer_defaults,
    serializer_defaults,
)

# The Avro ``variant`` logical type: a record of ``metadata`` and ``value`` bytes holding a
# Variant. Such a field reads as a :class:`Variant` and a Variant writes as that record (fastavro
# names logical types "<avro type>-<logicalType>").


def _variant_from_avro(data: Dict[str, Any], writer_schema: Any, reader_schema: Any = None) -> Variant:
    return Variant(bytes(data["value"]), bytes(data["metadata"]))


def _variant_to_avro(data: Any, schema: Any) -> Any:
    if isinstance(data, Variant):
        return {"metadata": data.metadata, "value": data.standalone_value_bytes()}
    return data


try:
    from fastavro import read as _fastavro_read
    from fastavro import write as _fastavro_write

    _fastavro_read.LOGICAL_READERS["record-variant"] = _variant_from_avro
    _fastavro_write.LOGICAL_WRITERS["record-variant"] = _variant_to_avro
except (ImportError, AttributeError):  # pragma: no cover - a fastavro without these tables
    pass

__all__ = ["AVRO_TYPE", "AvroSchema", "AvroMessage", "LocalSchemaRepository", "parse_schema_with_repo",
           "transform", "validate_message", "get_type", "get_inline_tags", "_schema_loads", "_ContextStringIO"]

log = logging.getLogger(__name__)

AVRO_TYPE = "AVRO"

AvroMessage = Union[None, str, float, int, bool, bytes, list, dict]  # type: ignore[type-arg]
AvroSchema = Union[str, list, dict]  # type: ignore[type-arg]


class _ContextStringIO(io.BytesIO):
    """A BytesIO usable in ``with``."""

    def __enter__(self) -> "_ContextStringIO":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


def _schema_loads(schema_str: str) -> Schema:
    """An Avro :class:`Schema` from its declaration; a bare primitive such as ``"string"``
    becomes ``{"type": "string"}``.

    :param schema_str: the declaration.
    :returns: the schema.
    """
    text = schema_str.strip()
    if text[0] != "{" and text[0] != "[":
        text = '{"type":' + text + "}"
    return Schema(text, schema_type="AVRO")


class LocalSchemaRepository(repository.AbstractSchemaRepository):
    """A fastavro schema repository over a dict of named schemas."""

    def __init__(self, schemas: Dict[str, Any]) -> None:
        self.schemas = schemas

    def load(self, subject: str) -> Any:
        """The schema named ``subject``, or None.

        :param subject: the schema's full name.
        :returns: the parsed schema."""
        return self.schemas.get(subject)


def parse_schema_with_repo(schema_str: str, named_schemas: Dict[str, AvroSchema]) -> AvroSchema:
    """Parse ``schema_str`` with fastavro, resolving named types from ``named_schemas``.

    :param schema_str: the declaration.
    :param named_schemas: referenced schemas by name.
    :returns: the parsed schema.
    """
    schemas: Dict[str, Any] = deepcopy(named_schemas)
    schemas["$root"] = json.loads(schema_str)
    parsed: AvroSchema = load_schema("$root", repo=LocalSchemaRepository(schemas))
    return parsed


def resolve_named_schemas_op(schema: Schema) -> SerdeOp:
    """The schemas ``schema`` references, by name (recursively), fetched from the registry.

    :returns: a dict of name to declaration (as JSON data).
    """
    named: Dict[str, AvroSchema] = {}
    for ref in schema.references or []:
        if ref.subject is None or ref.version is None:
            raise TypeError("Subject or version cannot be None")
        referenced = yield from registry_call("get_version", ref.subject, ref.version, True)
        named.update((yield from resolve_named_schemas_op(referenced.schema)))
        if referenced.schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        if ref.name is None:
            raise TypeError("Name cannot be None")
        # Kept unparsed: parsing here would inline sub-references, and a type reachable through
        # two references would then be defined twice when the root is parsed.
        raw = json.loads(referenced.schema.schema_str)
        named[ref.name] = raw
        if isinstance(raw, dict) and "name" in raw:
            namespace, name = raw.get("namespace"), raw["name"]
            full = f"{namespace}.{name}" if namespace and "." not in name else name
            if full != ref.name:
                named[full] = raw
    return named


def _is_bytes(parsed: Any) -> bool:
    return parsed == "bytes" or (isinstance(parsed, dict) and parsed.get("type") == "bytes")


def _describe(schema_id: Optional[SchemaId], parsed: Any) -> str:
    name = parsed.get("name", parsed.get("type")) if isinstance(parsed, dict) else parsed
    ident = "" if schema_id is None else (f" (id {schema_id.id})" if schema_id.id is not None
                                           else f" (guid {schema_id.guid})")
    return f"schema {name!r}{ident}" if isinstance(name, str) else f"schema{ident}"


class AvroSteps(SerdeBase):
    """What Avro serializers and deserializers share: parsing schemas, with a cache."""

    _parsed_schemas: ParsedSchemaCache

    def _parsed_op(self, schema: Schema) -> SerdeOp:
        parsed = self._parsed_schemas.get_parsed_schema(schema)
        if parsed is not None:
            return parsed
        named = yield from resolve_named_schemas_op(schema)
        if schema.schema_str is None:
            raise TypeError("Schema string cannot be None")
        prepared = _schema_loads(schema.schema_str)
        assert prepared.schema_str is not None
        parsed = parse_schema_with_repo(prepared.schema_str, named)
        self._parsed_schemas.set(schema, parsed)
        return parsed


def _schema_name(schema: Schema, parsed: Any) -> Optional[str]:
    if isinstance(parsed, dict) and schema.schema_str is not None:
        declared = json.loads(schema.schema_str)
        name = parsed.get("name", declared.get("type") if isinstance(declared, dict) else None)
        return name if isinstance(name, str) else None
    return None


class AvroSerializerSteps(AvroSteps):
    """The steps of an Avro serializer."""

    _default_conf: Dict[str, Any] = serializer_defaults({"validate.strict": False,
                                                         "validate.strict.allow.default": False})

    _to_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _schema_id: Optional[SchemaId]
    _schema_name: Optional[str]
    _parsed_schema: Any
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], to_dict: Any, conf: Optional[Dict[str, Any]]) -> SerdeOp:
        if isinstance(schema_str, str):
            schema: Optional[Schema] = _schema_loads(schema_str)
        elif isinstance(schema_str, Schema):
            schema = schema_str
        else:
            schema = None
        self._schema_id = None
        self._known_subjects = set()
        self._known_lock = threading.Lock()
        self._parsed_schemas = ParsedSchemaCache()
        if to_dict is not None and not callable(to_dict):
            raise ValueError("to_dict must be callable with the signature to_dict(object, SerializationContext)->dict")
        self._to_dict = to_dict
        self._conf = SerdeConfig(self._default_conf, conf, serializer=True, associated=self._new_associated_strategy)
        self._schema = schema
        self._schema_name = None
        self._parsed_schema = None
        if schema is not None:
            self._parsed_schema = yield from self._parsed_op(schema)
            self._schema_name = _schema_name(schema, self._parsed_schema)
        return None

    def _serialize_steps(self, obj: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
        if obj is None:
            return None
        has_client = self._registry is not None
        subject = yield from self._subject_op(ctx, self._schema_name, has_client)
        latest = (yield from self._reader_schema_op(subject)) if subject else None
        schema_id = self._schema_id
        if latest is not None:
            schema_id = SchemaId(AVRO_TYPE, latest.schema_id, latest.guid)
            self._schema_id = schema_id
        elif subject is not None and subject not in self._known_subjects:
            if self._schema is None:
                raise SerializationError("the serializer has no schema: pass one, or set use.latest.version or "
                                         "use.schema.id")
            schema_id = yield from self._register_op(subject, self._schema, AVRO_TYPE)

        value = _with_context(self._to_dict, obj, ctx) if self._to_dict is not None else obj

        if latest is not None and ctx is not None and subject is not None:
            parsed = yield from self._parsed_op(latest.schema)
            expanded = expand_schema(parsed)

            def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, msg: Any) -> Any:
                return transform(rule_ctx, expanded, msg, field_transform)

            if self._validation_enabled(ValidationRulesExecution.BEFORE_DOMAIN_RULES):
                self._validate_inline_rules(expanded, value)
            value = self._execute_rules(ctx, subject, RuleMode.WRITE, None, latest.schema, value,
                                        get_inline_tags(parsed), field_transformer)
            if self._validation_enabled(ValidationRulesExecution.AFTER_DOMAIN_RULES):
                self._validate_inline_rules(expanded, value)
        else:
            if latest is not None:
                parsed = yield from self._parsed_op(latest.schema)
            else:
                parsed = self._parsed_schema
            # No domain rules run here, so before and after are the same point.
            if parsed is not None and self._validation_enabled():
                self._validate_inline_rules(expand_schema(parsed), value)
        if parsed is None:
            raise SerializationError("the serializer has no schema to write with")
        with _ContextStringIO() as out:
            if _is_bytes(parsed):
                payload = value if isinstance(value, bytes) else value.encode()
            else:
                try:
                    schemaless_writer(out, parsed, value, strict=self._conf.strict,
                                      strict_allow_default=self._conf.strict_allow_default)
                except Exception as exc:  # noqa: BLE001 - wrapped with where it happened
                    raise wrap_error(exc, ctx, "encoding with " + _describe(schema_id, parsed)) from exc
                payload = out.getvalue()
            return self._write_framed(ctx, subject, latest, payload, schema_id)

    def _validate_inline_rules(self, schema: AvroSchema, value: Any) -> None:
        self._raise_validation_violations(validate_message(
            self._conf.validation_executor, schema, value, self._conf.validation_fail_fast))


class AvroDeserializerSteps(AvroSteps):
    """The steps of an Avro deserializer."""

    _default_conf: Dict[str, Any] = deserializer_defaults({})

    _reader_schema: Any
    _from_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _return_record_name: bool
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], from_dict: Any, return_record_name: bool,
                 conf: Optional[Dict[str, Any]]) -> SerdeOp:
        schema: Optional[Schema] = None
        if schema_str is not None:
            if isinstance(schema_str, str):
                schema = _schema_loads(schema_str)
            elif isinstance(schema_str, Schema):
                schema = schema_str
            else:
                raise TypeError("You must pass either schema string or schema object")
        self._schema = schema
        self._parsed_schemas = ParsedSchemaCache()
        self._conf = SerdeConfig(self._default_conf, conf, serializer=False, associated=self._new_associated_strategy)
        self._reader_schema = (yield from self._parsed_op(schema)) if schema is not None else None
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature "
                             "from_dict(SerializationContext, dict) -> object")
        self._from_dict = from_dict
        if not isinstance(return_record_name, bool):
            raise ValueError("return_record_name must be a boolean value")
        self._return_record_name = return_record_name
        return None

    def _deserialize_steps(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
        if data is None:
            return None
        if len(data) <= 5:
            raise SerializationError("Expecting data framing of length 6 bytes or more but total data size is {} "
                                     "bytes. This message was not produced with a Confluent Schema Registry "
                                     "serializer".format(len(data)))
        has_client = self._registry is not None
        subject = (yield from self._subject_op(ctx, None, has_client)) if ctx else None
        latest = (yield from self._reader_schema_op(subject)) if subject is not None else None

        schema_id = SchemaId(AVRO_TYPE)
        try:
            payload = self._conf.schema_id_framing(data, ctx, schema_id)
        except Exception as exc:  # noqa: BLE001 - named with where it happened
            raise framing_error(exc, ctx, data) from exc
        writer_raw = yield from writer_schema_op(schema_id, subject, None, ctx)
        writer = yield from self._parsed_op(writer_raw)

        if subject is None and isinstance(writer, dict) and ctx:
            subject = yield from self._subject_op(ctx, writer.get("name"), has_client)
            if subject is not None:
                latest = yield from self._reader_schema_op(subject)

        payload = self._read_encoding_rules(ctx, subject, writer_raw, payload, data)
        if isinstance(payload, bytes):
            payload = io.BytesIO(payload)
        migrations: List[Any] = []
        if latest is not None and subject is not None:
            migrations = yield from self._migrations_op(subject, writer_raw, latest, None)
            reader_raw: Optional[Schema] = latest.schema
            reader = yield from self._parsed_op(latest.schema)
        elif self._schema is not None and self._reader_schema is not None:
            reader_raw, reader = self._schema, self._reader_schema
        else:
            reader_raw, reader = writer_raw, writer
        try:
            if _is_bytes(writer):
                record: Any = payload.read()
            elif migrations:
                # Migration rules take the record as written; they make it the reader's.
                record = schemaless_reader(payload, writer, None, self._return_record_name)
            else:
                record = schemaless_reader(payload, writer, reader, self._return_record_name)
        except Exception as exc:  # noqa: BLE001 - wrapped with where it happened
            raise wrap_error(exc, ctx, "decoding with writer " + _describe(schema_id, writer)
                             + ("" if reader is writer else " into reader " + _describe(None, reader))) from exc
        if migrations and ctx is not None and subject is not None:
            record = self._execute_migrations(ctx, subject, migrations, record)
        if ctx is not None and subject is not None:
            expanded = expand_schema(reader)

            def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, msg: Any) -> Any:
                return transform(rule_ctx, expanded, msg, field_transform)

            record = self._execute_rules(ctx, subject, RuleMode.READ, None, reader_raw, record,
                                         get_inline_tags(reader) if reader is not None else None, field_transformer,
                                         data)
        return _with_context(self._from_dict, record, ctx) if self._from_dict is not None else record


# -- data-contract rules: walking a record for field-level rules ---------------------------------


def get_type(schema: AvroSchema) -> FieldType:
    """The :class:`FieldType` of an Avro (sub)schema; a named type referred to by name, or
    anything unknown, is NULL.

    :param schema: the schema.
    :returns: its field type.
    """
    if isinstance(schema, list):
        return FieldType.COMBINED
    kind = schema.get("type") if isinstance(schema, dict) else schema
    return _AVRO_FIELD_TYPES.get(kind, FieldType.NULL) if isinstance(kind, str) else FieldType.NULL


_AVRO_FIELD_TYPES = {
    "record": FieldType.RECORD, "enum": FieldType.ENUM, "array": FieldType.ARRAY, "map": FieldType.MAP,
    "union": FieldType.COMBINED, "fixed": FieldType.FIXED, "string": FieldType.STRING, "bytes": FieldType.BYTES,
    "int": FieldType.INT, "long": FieldType.LONG, "float": FieldType.FLOAT, "double": FieldType.DOUBLE,
    "boolean": FieldType.BOOLEAN, "null": FieldType.NULL,
}


def _disjoint(tags1: Set[str], tags2: Set[str]) -> bool:
    return not (set(tags1) & set(tags2))


def transform(ctx: RuleContext, schema: AvroSchema, message: AvroMessage, field_transform: FieldTransform) -> AvroMessage:
    """Walk ``message`` along ``schema`` (an expanded fastavro schema), applying
    ``field_transform`` to each leaf field whose tags meet the rule's (every field when the rule
    names no tags). Records are changed in place; for a CONDITION rule a field whose transform
    returns False raises :class:`RuleConditionError`.

    :param ctx: the rule context.
    :param schema: the schema.
    :param message: the value.
    :param field_transform: the rule's field transform.
    :returns: the value, transformed.
    """
    if schema is None:
        return message
    field_ctx = ctx.current_field()
    if field_ctx is not None:
        field_ctx.field_type = get_type(schema)
    if isinstance(schema, list):
        branch, value = _resolve_union(schema, message)
        if branch is None:
            return message
        result = transform(ctx, branch, value, field_transform)
        # Keep a (name, value) union notation while its branch still holds the new value.
        if isinstance(message, tuple) and len(message) == 2 and _branch_accepts(branch, result):
            return (message[0], result)
        return result
    if isinstance(schema, dict):
        kind = schema.get("type")
        if kind == "array":
            if not isinstance(message, list):
                log.warning("Incompatible message type for array schema")
                return message
            return [transform(ctx, schema["items"], item, field_transform) for item in message]
        if kind == "map":
            if not isinstance(message, dict):
                log.warning("Incompatible message type for map schema")
                return message
            return {k: transform(ctx, schema["values"], v, field_transform) for k, v in message.items()}
        if kind == "record":
            if message is None:
                return message
            if not isinstance(message, dict):
                log.warning("Incompatible message type for record schema")
                return message
            for fld in schema["fields"]:
                if fld["name"] in message:
                    _transform_field(ctx, schema, fld, message, field_transform)
            return message
    if field_ctx is not None:
        tags = ctx.rule.tags
        if not tags or not _disjoint(set(tags), field_ctx.tags):
            transformed: AvroMessage = field_transform(ctx, field_ctx, message)
            return transformed
    return message


def _transform_field(ctx: RuleContext, schema: Dict[str, Any], fld: Dict[str, Any], message: Dict[str, Any],
                     field_transform: FieldTransform) -> None:
    name = fld["name"]
    try:
        ctx.enter_field(message, f"{schema['name']}.{name}", name, get_type(fld["type"]), None)
        result = transform(ctx, fld["type"], message[name], field_transform)
        if _keeps_field_result(ctx, result):
            message[name] = result
    finally:
        ctx.exit_field()


# -- inline validation rules --------------------------------------------------------------------


def validate_message(executor: Optional[ValidationRuleExecutor], schema: Optional[AvroSchema], message: AvroMessage,
                     fail_fast: bool = False) -> List[ValidationRuleError]:
    """Evaluate the ``confluent:rules`` of ``schema`` (an expanded fastavro schema) against
    ``message``, without changing it: a record's rules with ``this`` bound to the record, a
    field's with ``this`` bound to the field's value (not when it is absent or null), through
    nested records, arrays, maps and unions.

    :param executor: evaluates each rule; None validates nothing.
    :param schema: the schema.
    :param message: the record.
    :param fail_fast: stop at the first failure.
    :returns: every failure, located (``addr.zip``, ``tags[3]``, ``scores["k"]``).
    """
    found: List[ValidationRuleError] = []
    if executor is not None and schema is not None and message is not None:
        _validate(executor, schema, message, "", fail_fast, found)
    return found


def _validate(executor: ValidationRuleExecutor, schema: AvroSchema, message: Any, path: str, fail_fast: bool,
              out: List[ValidationRuleError]) -> bool:
    """Walk one value; returns True to stop (fail fast after a failure)."""
    if schema is None:
        return False
    if isinstance(schema, list):
        if message is None:
            return False
        branch, value = _resolve_union(schema, message)
        if branch is None or branch == "null":
            return False
        return _validate(executor, branch, value, path, fail_fast, out)
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    if kind == "array":
        if not isinstance(message, list):
            log.warning("Incompatible message type for array schema")
            return False
        return any(_validate(executor, schema["items"], item, f"{path}[{i}]", fail_fast, out)
                   for i, item in enumerate(message))
    if kind == "map":
        if not isinstance(message, dict):
            log.warning("Incompatible message type for map schema")
            return False
        return any(_validate(executor, schema["values"], value, f'{path}["{key}"]', fail_fast, out)
                   for key, value in message.items())
    if kind != "record":
        return False  # a leaf: its field's rules were evaluated by the record holding it
    if not isinstance(message, dict):
        log.warning("Incompatible message type for record schema")
        return False
    if evaluate_rules(executor, declared_rules(schema), schema, message, path, fail_fast, out):
        return True
    for fld in schema["fields"]:
        name = fld["name"]
        where = f"{path}.{name}" if path else name
        value = message.get(name)
        if value is not None and evaluate_rules(executor, declared_rules(fld), fld["type"], value, where,
                                                fail_fast, out):
            return True
        if _validate(executor, fld["type"], value, where, fail_fast, out):
            return True
    return False


def _full_name(name: str, namespace: Optional[str]) -> str:
    return name if not namespace or "." in name else f"{namespace}.{name}"


def _names_branch(branch: AvroSchema, name: str, exact: bool) -> bool:
    if isinstance(branch, str):
        return exact and branch == name
    if not isinstance(branch, dict) or branch.get("name") is None:
        return False
    own = branch["name"]
    if exact:
        return name == _full_name(own, branch.get("namespace"))
    # A branch whose namespace comes from an enclosing record is matched on its simple name.
    return "." not in own and not branch.get("namespace") and name.rsplit(".", 1)[-1] == own


def _branch_accepts(branch: AvroSchema, value: Any) -> bool:
    try:
        avro_validate(value, _collapse_schema(deepcopy(branch)), raise_errors=True)
        return True
    except Exception:  # noqa: BLE001 - any refusal means "not this branch"
        return False


def _resolve_union(schema: List[Any], message: Any) -> Tuple[Optional[AvroSchema], Any]:
    named: Optional[Tuple[str, Any]] = None
    if isinstance(message, tuple) and len(message) == 2:
        named = (message[0], message[1])
    elif isinstance(message, dict) and "-type" in message:
        named = (message["-type"], message)
    if named is not None:
        for exact in (True, False):
            for branch in schema:
                if _names_branch(branch, named[0], exact):
                    return branch, named[1]
        return None, message
    for branch in schema:
        if _branch_accepts(branch, message):
            return branch, message
    return None, message


def _collapse_schema(schema: AvroSchema, seen: Optional[List[str]] = None) -> AvroSchema:
    """An expanded schema back in Avro's form, where a named type is defined once and then
    referred to by name (changes ``schema`` in place).

    :param schema: the expanded schema.
    :returns: the collapsed schema.
    """
    if seen is None:
        seen = []
    if isinstance(schema, list):
        return [_collapse_schema(s, seen) for s in schema]
    if not isinstance(schema, dict):
        return schema
    kind = schema.get("type")
    if kind == "array":
        schema["items"] = _collapse_schema(schema["items"], seen)
        return schema
    if kind == "map":
        schema["values"] = _collapse_schema(schema["values"], seen)
        return schema
    if kind in ("record", "enum", "fixed"):
        name = schema.get("name")
        namespace = schema.get("namespace")
        full = _full_name(name, namespace) if isinstance(name, str) else str(name)
        if full in seen:
            return str(name)
        seen.append(full)
        for alias in schema.get("aliases") or []:
            seen.append(_full_name(alias, namespace))
        if kind == "record":
            schema["fields"] = [_collapse_field(f, seen) for f in schema["fields"]]
        return schema
    if isinstance(kind, (dict, list)):
        schema["type"] = _collapse_schema(kind, seen)
    return schema


def _collapse_field(fld: Any, seen: List[str]) -> Any:
    if isinstance(fld, dict) and "type" in fld:
        fld["type"] = _collapse_schema(fld["type"], seen)
    return fld


def get_inline_tags(schema: AvroSchema) -> Dict[str, Set[str]]:
    """The ``confluent:tags`` of every record field in a parsed schema, by the field's full
    name (``namespace.Record.field``).

    :param schema: the parsed (not expanded) schema.
    :returns: the tags by field.
    """
    found: Dict[str, Set[str]] = defaultdict(set)
    _collect_tags("", "", schema, found)
    return found


def _namespace_of(name: str) -> Optional[str]:
    return name.rsplit(".", 1)[0] if "." in name else None


def _collect_tags(ns: str, outer: str, schema: Any, found: Dict[str, Set[str]]) -> None:
    if isinstance(schema, list):
        for branch in schema:
            _collect_tags(ns, outer, branch, found)
        return
    if not isinstance(schema, dict):
        return
    kind = schema.get("type")
    if kind == "array":
        _collect_tags(ns, outer, schema.get("items"), found)
    elif kind == "map":
        _collect_tags(ns, outer, schema.get("values"), found)
    elif kind == "record":
        name = schema.get("name")
        record_ns: str
        if name is not None and "." in name:
            record_ns = _namespace_of(name) or ""
        else:
            declared = schema.get("namespace")
            record_ns = str(declared) if declared is not None else (_namespace_of(outer) or ns)
            if name is not None and record_ns:
                name = f"{record_ns}.{name}"
        for fld in schema.get("fields") or []:
            tags, fname, ftype = fld.get("confluent:tags"), fld.get("name"), fld.get("type")
            if tags is not None and fname is not None and name is not None:
                found[f"{name}.{fname}"].update(tags)
            if ftype is not None and name is not None:
                _collect_tags(record_ns, name, ftype, found)
