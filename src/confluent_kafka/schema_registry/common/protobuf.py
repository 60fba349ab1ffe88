"""Protobuf serialization steps shared by the sync and async serdes, with no I/O of their own.

The wire form is Confluent's: the schema id framing, then the *message indexes* (where the
message type sits in its ``.proto`` file: a zig-zag varint count and one zig-zag varint per
nesting level, written as a single ``0`` for the file's first message), then the message.

The schema registered for a message type is its file's ``FileDescriptorProto``, base64-encoded
(which Confluent's registry and Karapace accept and turn into ``.proto`` text), with each
imported file registered first under its own subject and named as a reference. Schemas are read
back in that ``serialized`` form and rebuilt in a private descriptor pool that already holds the
well-known types (``google/protobuf/*``, ``google/type/*``, ``confluent/*``).
"""

from __future__ import annotations

import base64
import binascii
import io
import threading
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Context, Decimal
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from attrs import evolve
from google.protobuf import __version__ as _protobuf_version  # type: ignore[import-untyped,unused-ignore]
from google.protobuf import (  # type: ignore[import-untyped,unused-ignore]
    any_pb2,
    api_pb2,
    descriptor_pb2,
    duration_pb2,
    empty_pb2,
    field_mask_pb2,
    message_factory,
    source_context_pb2,
    struct_pb2,
    timestamp_pb2,
    type_pb2,
    wrappers_pb2,
)
from google.protobuf.descriptor import Descriptor, FieldDescriptor, FileDescriptor  # type: ignore[import-untyped,unused-ignore]
from google.protobuf.descriptor_pool import DescriptorPool  # type: ignore[import-untyped,unused-ignore]
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]
from google.protobuf.message import DecodeError, Message  # type: ignore[import-untyped,unused-ignore]

from ...serialization import SerializationContext, SerializationError
from .. import reference_subject_name_strategy
from ..confluent import meta_pb2
from ..confluent.type import decimal_pb2, variant_pb2
from ..confluent.type.decimal_utils import unscaled_to_bytes
from ..confluent.type.variant_utils import Variant
from ..confluent.types import decimal_pb2 as legacy_decimal_pb2
from .schema_registry_client import RuleMode, Schema, SchemaReference
from ._rule_framework import _keeps_field_result
from ._validation import evaluate_rules
from .serde import (
    FieldTransform,
    FieldType,
    ParsedSchemaCache,
    RuleContext,
    SchemaId,
    SerdeBase,
    SerdeConfig,
    SerdeOp,
    ValidationRule,
    ValidationRuleError,
    ValidationRuleExecutor,
    ValidationRulesExecution,
    _where,
    framing_error,
    registry_call,
    wrap_error,
    writer_schema_op,
    deserializer_defaults,
    serializer_defaults,
)

__all__ = ["_bytes", "_create_index_array", "_schema_to_str", "_proto_to_str", "_str_to_proto", "_init_pool",
           "transform", "_transform_field", "_set_field", "validate_message", "get_type", "is_map_field",
           "_is_repeated", "get_inline_tags", "_disjoint", "_is_builtin", "decimal_to_protobuf",
           "protobuf_to_decimal", "variant_to_protobuf", "protobuf_to_variant"]

PROTOBUF_TYPE = "PROTOBUF"

PROTOBUF_MAJOR_VERSION = int(_protobuf_version.split(".")[0])


def _bytes(v: int) -> bytes:
    """One byte.

    :param v: its value (0-255).
    :returns: the byte.
    """
    return bytes((v,))


def _is_repeated(fd: FieldDescriptor) -> bool:
    """Whether a field is repeated (on every protobuf runtime: ``label`` went away in 7).

    :param fd: the field.
    :returns: True for a repeated field.
    """
    repeated = getattr(fd, "is_repeated", None)
    if isinstance(repeated, bool):
        return repeated
    return bool(fd.label == FieldDescriptor.LABEL_REPEATED)


class _ContextStringIO(io.BytesIO):
    """A BytesIO usable in ``with``."""

    def __enter__(self) -> "_ContextStringIO":
        return self

    def __exit__(self, *args: Any) -> None:
        self.close()


def _create_index_array(msg_desc: Descriptor) -> List[int]:
    """Where a message type sits in its file: its top-level message's position, then its
    position among each enclosing message's nested types.

    :param msg_desc: the message type.
    :returns: the indexes, outermost first.
    :raises ValueError: when the descriptor is not where its parents say.
    """
    indexes: List[int] = []
    current = msg_desc
    while current.containing_type is not None:
        parent = current.containing_type
        siblings = list(parent.nested_types)
        if current not in siblings:
            raise ValueError("Nested MessageDescriptor not found")
        indexes.append(siblings.index(current))
        current = parent
    top = [name for name in msg_desc.file.message_types_by_name]
    if current.name not in top:
        raise ValueError("MessageDescriptor not found in file")
    indexes.append(top.index(current.name))
    indexes.reverse()
    return indexes


def _schema_to_str(file_descriptor: FileDescriptor) -> str:
    """A file descriptor as the registry takes it: its ``FileDescriptorProto``, base64.

    :param file_descriptor: the file.
    :returns: the base64 text.
    """
    return base64.standard_b64encode(file_descriptor.serialized_pb).decode("ascii")


def _proto_to_str(file_descriptor_proto: descriptor_pb2.FileDescriptorProto) -> str:
    """A ``FileDescriptorProto``, base64.

    :param file_descriptor_proto: the file.
    :returns: the base64 text.
    """
    return base64.standard_b64encode(file_descriptor_proto.SerializeToString()).decode("ascii")


def _str_to_proto(name: str, schema_str: str) -> descriptor_pb2.FileDescriptorProto:
    """A schema in the registry's ``serialized`` form as a ``FileDescriptorProto`` named ``name``.

    :param name: the file name to give it (its reference name, or ``default`` for the root).
    :param schema_str: the base64 ``FileDescriptorProto``.
    :returns: the file.
    :raises ~confluent_kafka.serialization.SerializationError: when it is not base64 or not a ``FileDescriptorProto``.
    """
    try:
        serialized = base64.b64decode("".join(schema_str.split()).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise SerializationError(
            f"the Protobuf schema {name!r} is not a base64-encoded FileDescriptorProto (the registry's 'serialized' "
            "format); it starts with {!r}".format(schema_str[:40]))
    proto = descriptor_pb2.FileDescriptorProto()
    try:
        proto.ParseFromString(serialized)
    except DecodeError as exc:
        raise SerializationError(str(exc))
    proto.name = name
    return proto


_SCALAR_TYPES = {
    "double": descriptor_pb2.FieldDescriptorProto.TYPE_DOUBLE, "float": descriptor_pb2.FieldDescriptorProto.TYPE_FLOAT,
    "int64": descriptor_pb2.FieldDescriptorProto.TYPE_INT64, "uint64": descriptor_pb2.FieldDescriptorProto.TYPE_UINT64,
    "int32": descriptor_pb2.FieldDescriptorProto.TYPE_INT32, "fixed64": descriptor_pb2.FieldDescriptorProto.TYPE_FIXED64,
    "fixed32": descriptor_pb2.FieldDescriptorProto.TYPE_FIXED32, "bool": descriptor_pb2.FieldDescriptorProto.TYPE_BOOL,
    "string": descriptor_pb2.FieldDescriptorProto.TYPE_STRING, "bytes": descriptor_pb2.FieldDescriptorProto.TYPE_BYTES,
    "uint32": descriptor_pb2.FieldDescriptorProto.TYPE_UINT32,
    "sfixed32": descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED32,
    "sfixed64": descriptor_pb2.FieldDescriptorProto.TYPE_SFIXED64,
    "sint32": descriptor_pb2.FieldDescriptorProto.TYPE_SINT32, "sint64": descriptor_pb2.FieldDescriptorProto.TYPE_SINT64,
}


def _map_entry_name(field_name: str) -> str:
    # protoc's name for a map field's entry type: the field name in CamelCase, then "Entry".
    return "".join(part[:1].upper() + part[1:] for part in field_name.split("_") if part) + "Entry"


def _typed_field(entry: Any, name: str, number: int, type_text: str) -> None:
    added = entry.field.add(name=name, number=number, label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    scalar = _SCALAR_TYPES.get(type_text)
    if scalar is not None:
        added.type = scalar
    else:
        added.type_name = type_text  # a message or enum, resolved as the field's own type would be


def _repair_message(msg: Any, proto3: bool) -> None:
    for nested in list(msg.nested_type):
        _repair_message(nested, proto3)
    label = descriptor_pb2.FieldDescriptorProto
    for fd in msg.field:
        if fd.type_name.startswith("map<") and fd.type_name.endswith(">"):
            # ``.proto`` text turned into a descriptor without its map entry types.
            key, _, value = fd.type_name[4:-1].partition(",")
            entry = msg.nested_type.add(name=_map_entry_name(fd.name))
            entry.options.map_entry = True
            _typed_field(entry, "key", 1, key.strip())
            _typed_field(entry, "value", 2, value.strip())
            fd.type_name = entry.name
            fd.type = label.TYPE_MESSAGE
            fd.label = label.LABEL_REPEATED
    entries = {nested.name: nested for nested in msg.nested_type}
    for fd in msg.field:
        entry = entries.get(_map_entry_name(fd.name))
        if (entry is not None and fd.label == label.LABEL_REPEATED and not entry.options.map_entry
                and (fd.type_name == entry.name or fd.type_name.endswith("." + entry.name))
                and [(x.name, x.number) for x in entry.field] == [("key", 1), ("value", 2)]
                and not entry.nested_type and not entry.enum_type):
            entry.options.map_entry = True
    for fd in msg.field:
        if not proto3:
            fd.ClearField("proto3_optional")  # an ``optional`` label in proto2 is no proto3 optional
        elif fd.proto3_optional and not fd.HasField("oneof_index"):
            fd.oneof_index = len(msg.oneof_decl)  # synthetic oneofs come after every real one
            msg.oneof_decl.add(name="_" + fd.name)


def repair_registry_file(proto: descriptor_pb2.FileDescriptorProto) -> descriptor_pb2.FileDescriptorProto:
    """Restore, in place, what a registry's ``serialized`` form of a Protobuf schema can leave
    out, so that the file builds and reads as the schema's ``.proto`` text declares.

    Karapace makes that form from its own parse of the stored ``.proto`` text, which drops the
    synthetic oneof of every proto3 ``optional`` field (the descriptor pool then refuses the
    file), the ``map_entry`` option of map entry types (a map then reads as a list of entry
    messages), writes a map field declared in text as the type name ``map<K, V>`` with no
    entry type, and marks proto2 ``optional`` fields as proto3 optional. Each is put back as
    protoc would write it (entry types made here are added after the declared nested types,
    so the message indexes of those stay as they are). A file that has none of these is left
    unchanged, so Confluent's registry's form passes through as it is.

    :param proto: the file, as decoded from the ``serialized`` form.
    :returns: the same file.
    """
    proto3 = proto.syntax == "proto3"
    for msg in proto.message_type:
        _repair_message(msg, proto3)
    return proto


def _is_serialized(schema_str: Optional[str]) -> bool:
    """Whether a schema string is in the ``serialized`` form (base64), not ``.proto`` text."""
    if schema_str is None:
        return False
    try:
        base64.b64decode("".join(schema_str.split()).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return False
    return True


def serialized_form_op(registered: Any) -> SerdeOp:
    """``registered`` (a :class:`RegisteredSchema` asked for in the ``serialized`` form) with
    its schema in that form: Karapace answers a subject version in ``.proto`` text whatever
    the format asked for, and honours the format only for a schema fetched by id, so a text
    answer is fetched again by its id.

    :param registered: the registered schema.
    :returns: it, or a copy holding the ``serialized`` form.
    """
    schema = registered.schema
    if schema is None or _is_serialized(schema.schema_str) or registered.schema_id is None:
        return registered
    fetched = yield from registry_call("get_schema", registered.schema_id, registered.subject, "serialized")
    return evolve(registered, schema=evolve(schema, schema_str=fetched.schema_str))


_WELL_KNOWN_MODULES: List[Any] = [
    any_pb2, source_context_pb2, type_pb2, api_pb2, descriptor_pb2, duration_pb2, empty_pb2, field_mask_pb2,
    struct_pb2, timestamp_pb2, wrappers_pb2,
]


def _google_type_modules() -> List[Any]:
    from google.type import (  # type: ignore[import-untyped,unused-ignore]
        calendar_period_pb2,
        color_pb2,
        date_pb2,
        datetime_pb2,
        dayofweek_pb2,
        expr_pb2,
        fraction_pb2,
        latlng_pb2,
        money_pb2,
        month_pb2,
        postal_address_pb2,
        quaternion_pb2,
        timeofday_pb2,
    )

    return [calendar_period_pb2, color_pb2, date_pb2, datetime_pb2, dayofweek_pb2, expr_pb2, fraction_pb2,
            latlng_pb2, money_pb2, month_pb2, postal_address_pb2, quaternion_pb2, timeofday_pb2]


def _init_pool(pool: DescriptorPool) -> None:
    """Add the files a schema may import without a reference: the protobuf well-known types,
    ``google/type/*`` and Confluent's own (``confluent/meta.proto``, the decimal and variant
    types, and the former ``confluent/types/decimal.proto`` path).

    :param pool: the pool.
    """
    modules = _WELL_KNOWN_MODULES + _google_type_modules() + [meta_pb2, decimal_pb2, variant_pb2, legacy_decimal_pb2]
    for module in modules:
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)


def is_map_field(fd: FieldDescriptor) -> bool:
    """Whether a field is a map.

    :param fd: the field.
    :returns: True for a map field.
    """
    return bool(fd.type == FieldDescriptor.TYPE_MESSAGE and fd.message_type.GetOptions().map_entry)


def get_inline_tags(fd: FieldDescriptor) -> Set[str]:
    """The tags a field carries in its ``(confluent.field_meta)`` option.

    :param fd: the field.
    :returns: its tags.
    """
    meta = fd.GetOptions().Extensions[meta_pb2.field_meta]
    return set() if meta is None else set(meta.tags)


def _disjoint(tags1: Set[str], tags2: Set[str]) -> bool:
    return not (set(tags1) & set(tags2))


def _is_builtin(name: str) -> bool:
    """Whether a file is one every reader has (so it is never registered as a reference).

    :param name: the file's name.
    :returns: True for ``confluent/``, ``google/protobuf/`` and ``google/type/`` files.
    """
    return name.startswith(("confluent/", "google/protobuf/", "google/type/"))


# -- decimals --------------------------------------------------------------------------------------

_EXACT = Context(prec=MAX_PREC, rounding=ROUND_HALF_UP, Emax=MAX_EMAX, Emin=MIN_EMIN)
# The widest unscaled value Java's BigDecimal can hold, in digits; wider is refused, not built.
_MAX_UNSCALED_DIGITS = 646456993


def decimal_to_protobuf(value: Decimal, scale: int) -> Any:
    """``value`` as a ``confluent.type.Decimal`` at ``scale`` fractional digits.

    :param value: a finite decimal.
    :param scale: the scale to write it at; narrowing may only drop zeros.
    :returns: the message.
    :raises ValueError: when ``value`` cannot be written exactly at ``scale``.
    """
    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):
        raise ValueError(f"cannot convert non-finite Decimal '{value}' to confluent.type.Decimal")
    unscaled = 0
    for digit in digits:
        unscaled = unscaled * 10 + digit
    shift = exponent + scale
    if shift >= 0:
        if shift + len(digits) > _MAX_UNSCALED_DIGITS:
            raise ValueError("Scale provided is too wide for the decimal")
        unscaled *= 10 ** shift
    elif unscaled:
        if -shift > _trailing_zeros(digits):
            raise ValueError("Scale provided does not match the decimal")
        unscaled //= 10 ** -shift
    if sign:
        unscaled = -unscaled
    result = decimal_pb2.Decimal()
    result.value = unscaled_to_bytes(unscaled)
    result.precision = 1 if unscaled == 0 else len(digits) + shift
    result.scale = scale
    return result


def _trailing_zeros(digits: Tuple[int, ...]) -> int:
    count = 0
    for digit in reversed(digits):
        if digit:
            break
        count += 1
    return count


def protobuf_to_decimal(value: Any) -> Decimal:
    """The decimal a ``confluent.type.Decimal`` holds, exactly (its precision is not applied).

    :param value: the message.
    :returns: the decimal.
    """
    unscaled = int.from_bytes(value.value, byteorder="big", signed=True)
    return _EXACT.create_decimal(unscaled).scaleb(-value.scale, _EXACT)


# -- schemas ---------------------------------------------------------------------------------------


def variant_to_protobuf(value: Variant) -> Any:
    """A Variant as a ``confluent.type.Variant`` message (its own value bytes, for a value
    navigated to inside another).

    :param value: the Variant.
    :returns: the message.
    """
    return variant_pb2.Variant(metadata=value.metadata, value=value.standalone_value_bytes())


def protobuf_to_variant(value: Any) -> Variant:
    """A ``confluent.type.Variant`` message as a Variant.

    :param value: the message.
    :returns: the Variant.
    :raises VariantError: for empty or unknown-version metadata.
    """
    return Variant(value.value, value.metadata)


def resolve_named_schemas_op(schema: Schema, pool: DescriptorPool, visited: Optional[Set[str]] = None) -> SerdeOp:
    """Add the files ``schema`` references (recursively, dependencies first) to ``pool``,
    fetched from the registry in the ``serialized`` form; well-known files are skipped.

    :param schema: the schema.
    :param pool: the pool.
    :param visited: reference names already added.
    """
    if visited is None:
        visited = set()
    for ref in schema.references or []:
        if ref.name is None:
            raise ValueError("Name cannot be None")
        if _is_builtin(ref.name) or ref.name in visited:
            continue
        visited.add(ref.name)
        if ref.subject is None or ref.version is None:
            raise ValueError("Subject or version cannot be None")
        referenced = yield from registry_call("get_version", ref.subject, ref.version, True, "serialized")
        referenced = yield from serialized_form_op(referenced)
        if referenced.schema.schema_str is None:
            raise ValueError("Schema string cannot be None")
        yield from resolve_named_schemas_op(referenced.schema, pool, visited)
        _add_file(pool, repair_registry_file(_str_to_proto(ref.name, referenced.schema.schema_str)))
    return None


def _add_file(pool: DescriptorPool, proto: descriptor_pb2.FileDescriptorProto) -> None:
    try:
        pool.AddSerializedFile(proto.SerializeToString())
    except (TypeError, ValueError) as exc:
        raise wrap_error(exc, None, f"building the Protobuf schema {proto.name!r} (package {proto.package!r})") from exc


def _message_at(file: FileDescriptor, indexes: List[int]) -> Descriptor:
    """The message type at ``indexes`` in ``file``.

    :raises ~confluent_kafka.serialization.SerializationError: for an index the file does not have.
    """
    if not indexes:
        raise SerializationError("the payload names no message type (empty message indexes)")
    messages = list(file.message_types_by_name.values())
    where = "schema has {} top-level message(s)"
    desc: Optional[Descriptor] = None
    for index in indexes:
        if index < 0 or index >= len(messages):
            raise SerializationError(f"message index {index} out of range, " + where.format(len(messages)))
        desc = messages[index]
        messages = list(desc.nested_types)
        where = "message has {} nested message(s)"
    assert desc is not None
    return desc


class ProtobufSteps(SerdeBase):
    """What Protobuf serializers and deserializers share: schemas rebuilt in descriptor pools,
    cached."""

    _parsed_schemas: ParsedSchemaCache

    def _reader_schema_op(self, subject: str, fmt: Optional[str] = None) -> SerdeOp:
        found = yield from super()._reader_schema_op(subject, fmt)
        if found is not None and fmt == "serialized":
            found = yield from serialized_form_op(found)
        return found

    def _parsed_op(self, schema: Schema) -> SerdeOp:
        found = self._parsed_schemas.get_parsed_schema(schema)
        if found is not None:
            return found
        pool = DescriptorPool()
        _init_pool(pool)
        yield from resolve_named_schemas_op(schema, pool)
        if schema.schema_str is None:
            raise ValueError("Schema string cannot be None")
        proto = repair_registry_file(_str_to_proto("default", schema.schema_str))
        _add_file(pool, proto)
        parsed = (proto, pool)
        self._parsed_schemas.set(schema, parsed)
        return parsed

    def _deprecated_format(self, conf: Dict[str, Any]) -> None:
        deprecated = conf.pop("use.deprecated.format")
        if not isinstance(deprecated, bool):
            raise ValueError("use.deprecated.format must be a boolean value")
        if deprecated:
            raise ValueError("use.deprecated.format is no longer supported")


def _message_class(msg_type: Any, role: str) -> Any:
    descriptor = getattr(msg_type, "DESCRIPTOR", None)
    if not isinstance(descriptor, Descriptor):
        raise AttributeError(f"the {role} needs a Protobuf message class (a class with a message DESCRIPTOR), "
                             f"not {msg_type!r}")
    return descriptor


class ProtobufSerializerSteps(ProtobufSteps):
    """The steps of a Protobuf serializer."""

    _default_conf: Dict[str, Any] = serializer_defaults({
        "skip.known.types": True, "reference.subject.name.strategy": reference_subject_name_strategy,
        "use.deprecated.format": False})

    _msg_class: Any
    _index_array: List[int]
    _schema_id: Optional[SchemaId]
    _skip_known_types: bool
    _ref_reference_subject_func: Callable[..., Optional[str]]
    _registry: Any

    def _format_keys(self, conf: Dict[str, Any]) -> None:
        skip = conf.pop("skip.known.types")
        if not isinstance(skip, bool):
            raise ValueError("skip.known.types must be a boolean value")
        self._skip_known_types = skip
        self._deprecated_format(conf)
        strategy = conf.pop("reference.subject.name.strategy")
        if not callable(strategy):
            raise ValueError("reference.subject.name.strategy must be callable")
        self._ref_reference_subject_func = strategy

    def _init_op(self, msg_type: Any, conf: Optional[Dict[str, Any]]) -> SerdeOp:
        yield from ()  # (no registry call: run as the other formats' first steps are)
        self._conf = SerdeConfig(self._default_conf, conf, serializer=True, format_keys=self._format_keys,
                                 associated=self._new_associated_strategy)
        self._schema_id = None
        self._known_subjects = set()
        self._known_lock = threading.Lock()
        self._parsed_schemas = ParsedSchemaCache()
        descriptor = _message_class(msg_type, "ProtobufSerializer")
        self._msg_class = msg_type
        self._index_array = _create_index_array(descriptor)
        self._schema = Schema(_schema_to_str(descriptor.file), schema_type=PROTOBUF_TYPE)

    def _resolve_dependencies_op(self, ctx: SerializationContext, file_desc: FileDescriptor) -> SerdeOp:
        """Register (or look up) the files ``file_desc`` imports, dependencies first, each under
        the subject ``reference.subject.name.strategy`` names.

        :returns: the references, one per imported file.
        """
        refs: List[SchemaReference] = []
        for dep in file_desc.dependencies:
            if self._skip_known_types and _is_builtin(dep.name):
                continue
            dep_refs = yield from self._resolve_dependencies_op(ctx, dep)
            subject = self._ref_reference_subject_func(ctx, dep)
            schema = Schema(_schema_to_str(dep), references=dep_refs, schema_type=PROTOBUF_TYPE)
            if self._conf.auto_register:
                yield from registry_call("register_schema", subject, schema,
                                         normalize_schemas=self._conf.normalize_schemas)
            found = yield from registry_call("lookup_schema", subject, schema,
                                             normalize_schemas=self._conf.normalize_schemas)
            refs.append(SchemaReference(dep.name, subject, found.version))
        return refs

    def _serialize_steps(self, message: Any, ctx: Optional[SerializationContext]) -> SerdeOp:
        if message is None:
            return None
        if not isinstance(message, self._msg_class):
            raise ValueError(f"{_where(ctx)}message must be of type {self._msg_class} not {type(message)}")
        full_name = message.DESCRIPTOR.full_name
        subject = (yield from self._subject_op(ctx, full_name, self._registry is not None)) if ctx else None
        latest = (yield from self._reader_schema_op(subject, "serialized")) if subject is not None else None
        schema_id = self._schema_id
        if latest is not None:
            schema_id = SchemaId(PROTOBUF_TYPE, latest.schema_id, latest.guid, self._index_array)
            self._schema_id = schema_id
        elif subject is not None and subject not in self._known_subjects and ctx is not None:
            assert self._schema is not None
            references = yield from self._resolve_dependencies_op(ctx, message.DESCRIPTOR.file)
            schema = Schema(self._schema.schema_str, self._schema.schema_type, references)
            schema_id = yield from self._register_op(subject, schema, PROTOBUF_TYPE, self._index_array,
                                                     keep_schema=True)
        if latest is not None and ctx is not None and subject is not None:
            proto, pool = yield from self._parsed_op(latest.schema)
            desc = pool.FindFileByName(proto.name).message_types_by_name[message.DESCRIPTOR.name]

            def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, msg: Any) -> Any:
                return transform(rule_ctx, desc, msg, field_transform)

            if self._validation_enabled(ValidationRulesExecution.BEFORE_DOMAIN_RULES):
                self._validate_inline_rules(desc, message)
            message = self._execute_rules(ctx, subject, RuleMode.WRITE, None, latest.schema, message, None,
                                          field_transformer)
            if self._validation_enabled(ValidationRulesExecution.AFTER_DOMAIN_RULES):
                self._validate_inline_rules(desc, message)
        elif self._validation_enabled():
            # No domain rules run here, so before and after are the same point.
            self._validate_inline_rules(message.DESCRIPTOR, message)
        if schema_id is None:
            raise SerializationError(f"{_where(ctx)}no schema id to frame {full_name} with: a SerializationContext "
                                     "is needed to find the subject")
        payload = message.SerializeToString()
        framing = SchemaId(PROTOBUF_TYPE, schema_id.id, None, self._index_array)
        framing.guid = schema_id.guid
        return self._write_framed(ctx, subject, latest, payload, framing)

    def _validate_inline_rules(self, desc: Descriptor, message: Any) -> None:
        self._raise_validation_violations(validate_message(
            self._conf.validation_executor, desc, message, self._conf.validation_fail_fast))


class ProtobufDeserializerSteps(ProtobufSteps):
    """The steps of a Protobuf deserializer."""

    _default_conf: Dict[str, Any] = deserializer_defaults({"use.deprecated.format": False})

    _msg_class: Any
    _registry: Any

    def _init_op(self, message_type: Any, conf: Optional[Dict[str, Any]]) -> SerdeOp:
        yield from ()  # (no registry call: run as the other formats' first steps are)
        self._parsed_schemas = ParsedSchemaCache()
        self._conf = SerdeConfig(self._default_conf, conf, serializer=False, format_keys=self._deserializer_keys,
                                 associated=self._new_associated_strategy)
        self._msg_class = message_factory.GetMessageClass(_message_class(message_type, "ProtobufDeserializer"))

    def _deserializer_keys(self, conf: Dict[str, Any]) -> None:
        self._deprecated_format(conf)
        # Upstream's Protobuf deserializer ignores keys it does not know (its other serdes
        # refuse them); kept, so configurations that work there work here.
        conf.clear()

    def _deserialize_steps(self, data: Optional[bytes], ctx: Optional[SerializationContext]) -> SerdeOp:
        if data is None:
            return None
        has_client = self._registry is not None
        subject = (yield from self._subject_op(ctx, None, has_client)) if ctx else None
        latest = (yield from self._reader_schema_op(subject, "serialized")) if subject is not None and has_client \
            else None

        schema_id = SchemaId(PROTOBUF_TYPE)
        try:
            payload = self._conf.schema_id_framing(data, ctx, schema_id)
        except Exception as exc:  # noqa: BLE001 - named with where it happened
            raise framing_error(exc, ctx, data) from exc

        writer_name: Optional[str] = None
        writer_raw: Optional[Schema] = None
        writer_desc: Any = None
        if has_client:
            writer_raw = yield from writer_schema_op(schema_id, subject, "serialized", ctx)
            proto, pool = yield from self._parsed_op(writer_raw)
            try:
                writer_desc = _message_at(pool.FindFileByName(proto.name), schema_id.message_indexes or [])
            except SerializationError as exc:
                which = f"id {schema_id.id}" if schema_id.id is not None else f"guid {schema_id.guid}"
                raise SerializationError(f"{_where(ctx)}{exc} (writer schema {which}, message indexes "
                                         f"{schema_id.message_indexes})") from exc
            writer_name = writer_desc.full_name
            if subject is None and ctx:
                subject = yield from self._subject_op(ctx, writer_name, has_client)
                if subject is not None:
                    latest = yield from self._reader_schema_op(subject, "serialized")

        payload = self._read_encoding_rules(ctx, subject, writer_raw, payload, data)
        migrations: List[Any] = []
        reader_raw = writer_raw
        reader_file: Any = None
        if latest is not None and subject is not None and writer_raw is not None:
            migrations = yield from self._migrations_op(subject, writer_raw, latest, None)
            reader_raw = latest.schema
            reader_proto, reader_pool = yield from self._parsed_op(latest.schema)
            reader_file = reader_pool.FindFileByName(reader_proto.name)
        elif writer_raw is not None:
            reader_file = pool.FindFileByName(proto.name)
        reader_desc: Any = None
        if reader_file is not None:
            reader_desc = reader_file.message_types_by_name.get(writer_desc.name, _message_at(reader_file, [0]))

        if isinstance(payload, bytes):
            payload = io.BytesIO(payload)
        which = ("" if schema_id.id is None and schema_id.guid is None else
                 f" (schema id {schema_id.id})" if schema_id.id is not None else f" (schema guid {schema_id.guid})")
        written = f" written as {writer_name}" if writer_name else ""
        if migrations and ctx is not None and subject is not None:
            # Migration rules work on the record as JSON data, read with the writer's schema;
            # the result is read into the reader's message type.
            written_msg = message_factory.GetMessageClass(writer_desc)()
            try:
                written_msg.ParseFromString(payload.read())
            except DecodeError as exc:
                raise SerializationError(f"{_where(ctx)}decoding {writer_name}{which} failed: {exc}") from exc
            record = json_format.MessageToDict(written_msg, True)
            record = self._execute_migrations(ctx, subject, migrations, record)
            msg = json_format.ParseDict(record, message_factory.GetMessageClass(reader_desc)())
        else:
            msg = self._msg_class()
            try:
                msg.ParseFromString(payload.read())
            except DecodeError as exc:
                raise SerializationError(f"{_where(ctx)}decoding {msg.DESCRIPTOR.full_name}{written}{which} failed: "
                                         f"{exc}") from exc
        if ctx is not None and subject is not None:
            def field_transformer(rule_ctx: RuleContext, field_transform: FieldTransform, message: Any) -> Any:
                return transform(rule_ctx, reader_desc, message, field_transform)

            msg = self._execute_rules(ctx, subject, RuleMode.READ, None, reader_raw, msg, None, field_transformer, data)
        return msg


# -- data-contract rules: walking a message for field-level rules ---------------------------------

_INT32_TYPES = frozenset((FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_UINT32,
                          FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_SFIXED32))
_INT64_TYPES = frozenset((FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_UINT64,
                          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64))


def get_type(fd: FieldDescriptor) -> FieldType:
    """The :class:`FieldType` of a Protobuf field.

    :param fd: the field.
    :returns: MAP, RECORD, ENUM, STRING, BYTES, INT, LONG, FLOAT, DOUBLE or BOOLEAN.
    """
    if is_map_field(fd):
        return FieldType.MAP
    kind = fd.type
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return FieldType.RECORD
    if kind in _INT32_TYPES:
        return FieldType.INT
    if kind in _INT64_TYPES:
        return FieldType.LONG
    return {FieldDescriptor.TYPE_ENUM: FieldType.ENUM, FieldDescriptor.TYPE_STRING: FieldType.STRING,
            FieldDescriptor.TYPE_BYTES: FieldType.BYTES, FieldDescriptor.TYPE_FLOAT: FieldType.FLOAT,
            FieldDescriptor.TYPE_DOUBLE: FieldType.DOUBLE, FieldDescriptor.TYPE_BOOL: FieldType.BOOLEAN,
            }.get(kind, FieldType.NULL)


def transform(ctx: RuleContext, descriptor: Descriptor, message: Any, field_transform: FieldTransform) -> Any:
    """Walk ``message`` (a Protobuf message, or a field's list/dict value) applying
    ``field_transform`` to each scalar field whose tags meet the rule's (all when the rule
    names no tags). Fields are matched by number to ``descriptor``, the registered schema's
    message (which carries the ``(confluent.field_meta)`` tags); messages change in place.

    :param ctx: the rule context.
    :param descriptor: the schema's descriptor for ``message``.
    :param message: the value.
    :param field_transform: the rule's field transform.
    :returns: the value, transformed.
    """
    if message is None or descriptor is None:
        return message
    if isinstance(message, list):
        return [transform(ctx, descriptor, item, field_transform) for item in message]
    if isinstance(message, dict):
        return {key: transform(ctx, descriptor, value, field_transform) for key, value in message.items()}
    if isinstance(message, Message):
        for fd in message.DESCRIPTOR.fields:
            schema_fd = descriptor.fields_by_number.get(fd.number)
            if schema_fd is not None:
                _transform_field(ctx, fd, schema_fd, descriptor, message, field_transform)
        return message
    field_ctx = ctx.current_field()
    if field_ctx is not None:
        tags = ctx.rule.tags
        if not tags or not _disjoint(set(tags), field_ctx.tags):
            return field_transform(ctx, field_ctx, message)
    return message


def _child_descriptor(schema_fd: FieldDescriptor, desc: Descriptor) -> Descriptor:
    # What a field's value is walked with: its message type (a map's value type), else the
    # containing message's, so that the walk reaches the leaf and applies the transform.
    if schema_fd.type != FieldDescriptor.TYPE_MESSAGE:
        return desc
    if is_map_field(schema_fd):
        value_fd = schema_fd.message_type.fields_by_name["value"]
        return value_fd.message_type if value_fd.type == FieldDescriptor.TYPE_MESSAGE else desc
    return schema_fd.message_type


def _transform_field(ctx: RuleContext, fd: FieldDescriptor, schema_fd: FieldDescriptor, desc: Descriptor,
                     message: Message, field_transform: FieldTransform) -> None:
    try:
        ctx.enter_field(message, schema_fd.full_name, schema_fd.name, get_type(fd), get_inline_tags(schema_fd), fd)
        if fd.has_presence and not message.HasField(fd.name):
            return  # an unset field has no value to transform
        value = getattr(message, fd.name)
        if is_map_field(fd):
            value = {key: value[key] for key in value}
        elif _is_repeated(fd):
            value = list(value)
        result = transform(ctx, _child_descriptor(schema_fd, desc), value, field_transform)
        if _keeps_field_result(ctx, result):
            _set_field(fd, message, result)
    finally:
        ctx.exit_field()


def _set_field(fd: FieldDescriptor, message: Message, value: Any) -> None:
    if isinstance(value, list):
        message.ClearField(fd.name)
        getattr(message, fd.name).extend(value)
    elif isinstance(value, dict):
        current = getattr(message, fd.name)
        value_fd = fd.message_type.fields_by_name["value"]
        if value_fd.type == FieldDescriptor.TYPE_MESSAGE:
            for key, item in value.items():
                current[key].CopyFrom(item)
        else:
            message.ClearField(fd.name)
            getattr(message, fd.name).update(value)
    elif isinstance(value, Message):
        getattr(message, fd.name).CopyFrom(value)
    else:
        setattr(message, fd.name, value)


# -- inline validation rules --------------------------------------------------------------------


def validate_message(executor: Optional[ValidationRuleExecutor], descriptor: Optional[Descriptor], message: Any,
                     fail_fast: bool = False) -> List[ValidationRuleError]:
    """Evaluate the inline rules of ``descriptor`` (the ``rules`` of its
    ``(confluent.message_meta)`` and its fields' ``(confluent.field_meta)``) against
    ``message``, without changing it: a message's rules with ``this`` bound to the message, a
    field's with ``this`` bound to its value (a repeated or map field's whole list or map; not
    when a field with presence is unset), through nested messages, repeated messages and map
    values.

    ``message``'s own class drives the walk (which fields exist and are set); each of its fields
    is paired by number with the schema's, which gives the rules and the name in the path. When
    the two descriptors differ in a field's name, type or cardinality, or the schema has fields
    the class lacks, rules see the message re-read through the schema.

    :param executor: evaluates each rule; None validates nothing.
    :param descriptor: the registered schema's message.
    :param message: the message.
    :param fail_fast: stop at the first failure.
    :returns: every failure, located (``addr.zip``, ``items[3]``, ``labels["k"]``).
    :raises ~confluent_kafka.serialization.SerializationError: when the message cannot be read through the schema.
    """
    found: List[ValidationRuleError] = []
    if executor is None or descriptor is None or message is None:
        return found
    view = None
    if _needs_view(descriptor, message.DESCRIPTOR):
        view = message_factory.GetMessageClass(descriptor)()
        try:
            view.ParseFromString(message.SerializeToString())
        except Exception as exc:  # noqa: BLE001 - any failure to read it back is the same problem
            raise SerializationError(
                f"Could not read message {descriptor.full_name} through the registered schema: {exc}") from exc
    _validate(executor, descriptor, message, view, "", fail_fast, found)
    return found


_VIEW_NEEDED: Dict[Tuple[Descriptor, Descriptor], bool] = {}


def _needs_view(schema: Descriptor, runtime: Descriptor) -> bool:
    if schema is runtime:
        return False
    key = (schema, runtime)
    needed = _VIEW_NEEDED.get(key)
    if needed is None:
        needed = _VIEW_NEEDED[key] = not _same_shape(schema, runtime, set())
    return needed


def _same_shape(schema: Descriptor, runtime: Descriptor, seen: Set[Tuple[str, str]]) -> bool:
    """Whether every field of ``schema`` exists in ``runtime`` (by number) under the same name,
    type and cardinality, down through message fields."""
    pair = (schema.full_name, runtime.full_name)
    if pair in seen:
        return True
    seen.add(pair)
    for schema_fd in schema.fields:
        runtime_fd = runtime.fields_by_number.get(schema_fd.number)
        if runtime_fd is None:
            return False
        if (schema_fd.name, schema_fd.type, _is_repeated(schema_fd)) != \
                (runtime_fd.name, runtime_fd.type, _is_repeated(runtime_fd)):
            return False
        if runtime_fd.type == FieldDescriptor.TYPE_MESSAGE and \
                not _same_shape(schema_fd.message_type, runtime_fd.message_type, seen):
            return False
    return True


def _rules_of(options: Any, extension: Any) -> List[ValidationRule]:
    if not options.HasExtension(extension):
        return []
    return [ValidationRule(r.name, r.doc, r.expr, r.sql) for r in options.Extensions[extension].rules]


def _validate(executor: ValidationRuleExecutor, descriptor: Descriptor, message: Any, view: Any, path: str,
              fail_fast: bool, out: List[ValidationRuleError]) -> bool:
    """Walk one message (``view``: the same read through the schema, or None); returns True
    to stop (fail fast after a failure)."""
    if descriptor is None or not isinstance(message, Message):
        return False
    if evaluate_rules(executor, _rules_of(descriptor.GetOptions(), meta_pb2.message_meta), descriptor,
                      message if view is None else view, path, fail_fast, out):
        return True
    for fd in message.DESCRIPTOR.fields:
        schema_fd = descriptor.fields_by_number.get(fd.number)
        if schema_fd is None:
            continue  # the schema does not have it, so no rules on or under it
        if fd.has_presence and not message.HasField(fd.name):
            continue  # unset: its rules are skipped
        value = getattr(message, fd.name)
        view_value = None if view is None else getattr(view, schema_fd.name)
        where = f"{path}.{schema_fd.name}" if path else schema_fd.name
        if evaluate_rules(executor, _rules_of(schema_fd.GetOptions(), meta_pb2.field_meta), schema_fd,
                          value if view_value is None else view_value, where, fail_fast, out):
            return True
        if fd.type != FieldDescriptor.TYPE_MESSAGE or schema_fd.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        if _validate_children(executor, fd, schema_fd, value, view_value, where, fail_fast, out):
            return True
    return False


def _validate_children(executor: ValidationRuleExecutor, fd: FieldDescriptor, schema_fd: FieldDescriptor,
                       value: Any, view_value: Any, where: str, fail_fast: bool, out: List[ValidationRuleError]) -> bool:
    if is_map_field(fd):
        value_fd = fd.message_type.fields_by_name["value"]
        schema_value_fd = schema_fd.message_type.fields_by_name["value"]
        if value_fd.type != FieldDescriptor.TYPE_MESSAGE or schema_value_fd.type != FieldDescriptor.TYPE_MESSAGE:
            return False
        for key, item in value.items():
            item_view = view_value[key] if view_value is not None and key in view_value else None
            if _validate(executor, schema_value_fd.message_type, item, item_view, f'{where}["{key}"]', fail_fast,
                         out):
                return True
        return False
    if _is_repeated(fd):
        for i, item in enumerate(value):
            item_view = view_value[i] if view_value is not None and i < len(view_value) else None
            if _validate(executor, schema_fd.message_type, item, item_view, f"{where}[{i}]", fail_fast, out):
                return True
        return False
    return _validate(executor, schema_fd.message_type, value, view_value, where, fail_fast, out)
