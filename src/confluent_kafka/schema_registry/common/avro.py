"""Avro serialization steps shared by the sync and async serdes, with no I/O: schema parsing
(with references resolved through the registry), framing, encoding with fastavro, and schema
resolution on read (writer schema to the reader schema)."""

from __future__ import annotations

import io
import json
import threading
from copy import deepcopy
from typing import Any, Callable, Dict, Optional, Union

from fastavro import schemaless_reader, schemaless_writer
from fastavro import repository
from fastavro.schema import load_schema

from ...serialization import SerializationContext, SerializationError
from .schema_registry_client import Schema
from .serde import (
    ParsedSchemaCache,
    SchemaId,
    SerdeBase,
    SerdeConfig,
    SerdeOp,
    _where,
    framing_error,
    refuse_rules,
    registry_call,
    wrap_error,
    writer_schema_op,
)

__all__ = ["AVRO_TYPE", "AvroSchema", "AvroMessage", "LocalSchemaRepository", "parse_schema_with_repo",
           "_schema_loads", "_ContextStringIO"]

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

    _to_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _schema_id: Optional[SchemaId]
    _schema_name: Optional[str]
    _parsed_schema: Any
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], to_dict: Any, conf: Optional[Dict[str, Any]],
                 defaults: Dict[str, Any]) -> SerdeOp:
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
        self._conf = SerdeConfig(defaults, conf, serializer=True)
        self._schema = schema
        self._schema_name = None
        self._parsed_schema = None
        if schema is not None:
            self._parsed_schema = yield from self._parsed_op(schema)
            self._schema_name = _schema_name(schema, self._parsed_schema)
        return None

    def _serialize_op(self, obj: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
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
            if self._conf.auto_register:
                registered = yield from registry_call("register_schema_full_response", subject, self._schema,
                                                      normalize_schemas=self._conf.normalize_schemas)
            else:
                registered = yield from registry_call("lookup_schema", subject, self._schema,
                                                      normalize_schemas=self._conf.normalize_schemas)
            schema_id = SchemaId(AVRO_TYPE, registered.schema_id, registered.guid)
            with self._known_lock:
                self._known_subjects.add(subject)
                self._schema_id = schema_id

        if self._to_dict is not None:
            if ctx is None:
                raise TypeError("SerializationContext cannot be None")
            value = self._to_dict(obj, ctx)
        else:
            value = obj

        if latest is not None:
            refuse_rules(latest.schema)
            parsed = yield from self._parsed_op(latest.schema)
        else:
            refuse_rules(self._schema)
            parsed = self._parsed_schema
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
            framed: bytes = self._conf.schema_id_framing(payload, ctx, schema_id)
            return framed


class AvroDeserializerSteps(AvroSteps):
    """The steps of an Avro deserializer."""

    _reader_schema: Any
    _from_dict: Optional[Callable[[Any, SerializationContext], Any]]
    _return_record_name: bool
    _registry: Any

    def _init_op(self, schema_str: Union[str, Schema, None], from_dict: Any, return_record_name: bool,
                 conf: Optional[Dict[str, Any]], defaults: Dict[str, Any]) -> SerdeOp:
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
        self._conf = SerdeConfig(defaults, conf, serializer=False)
        self._reader_schema = (yield from self._parsed_op(schema)) if schema is not None else None
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature "
                             "from_dict(SerializationContext, dict) -> object")
        self._from_dict = from_dict
        if not isinstance(return_record_name, bool):
            raise ValueError("return_record_name must be a boolean value")
        self._return_record_name = return_record_name
        return None

    def _deserialize_op(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
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

        refuse_rules(writer_raw)
        if isinstance(payload, bytes):
            payload = io.BytesIO(payload)
        if latest is not None and subject is not None:
            # Upstream looks the writer schema up under the subject (for migration rules) even
            # when there are none: an unregistered writer schema fails the same way here.
            yield from registry_call("lookup_schema", subject, writer_raw, normalize_schemas=False, deleted=True)
            refuse_rules(latest.schema)
            reader = yield from self._parsed_op(latest.schema)
        elif self._schema is not None and self._reader_schema is not None:
            reader = self._reader_schema
        else:
            reader = writer
        if _is_bytes(writer):
            record: Any = payload.read()
        else:
            try:
                record = schemaless_reader(payload, writer, reader, self._return_record_name)
            except Exception as exc:  # noqa: BLE001 - wrapped with where it happened
                raise wrap_error(exc, ctx, "decoding with writer " + _describe(schema_id, writer)
                                 + ("" if reader is writer else " into reader " + _describe(None, reader))) from exc
        if self._from_dict is not None:
            if ctx is None:
                raise TypeError("SerializationContext cannot be None")
            return self._from_dict(record, ctx)
        return record

