"""Schema Registry framed Protobuf (``valueFormat=protobuf``): message descriptors to Spark types,
and decoding and encoding a whole Arrow batch at a time in Spark tasks.

The reader schema is fetched in the registry's ``serialized`` form (a base64
``FileDescriptorProto``, with its imports fetched the same way) and built into a private
descriptor pool, as :mod:`confluent_kafka.schema_registry.protobuf` does; the column holds one
message type of that file (``<field>ProtobufMessage``, default the file's first message).

Types, as Spark's ``from_protobuf``: a message is a struct (every field nullable), ``repeated``
an array, a map field a map, an enum its value's name (a string), ``int32``/``sint32``/
``sfixed32`` an int, ``int64``/``sint64``/``sfixed64`` and ``uint32``/``fixed32`` a bigint,
``uint64``/``fixed64`` a decimal(20, 0) (exact), ``float``/``double``/``bool``/``string``/
``bytes`` float/double/boolean/string/binary; ``google.protobuf.Timestamp`` a timestamp and the
wrapper types (``google.protobuf.Int64Value``, ...) their nullable value. A message field that
is not set, and a field with presence (``optional``, a ``oneof`` member) that is not set, is
null; other scalars that are not set read as their default value (0, "", false), as in
Protobuf. Recursive messages are refused when the query is planned, naming the field.

Decoding a batch: the framing and the message indexes of every value are checked; records
written with another schema id are accepted when that schema's message at their indexes has
the reader's full name (Protobuf's own rules then make old and new fields meet by number).
All payloads of a batch are parsed in one call, as the items of a ``repeated`` field of a
wrapper message (the wire form of such a field is each item's tag, length and bytes), and
the columns are then built field by field, not record by record. A batch that fails to parse
is parsed again record by record, to find the records at fault.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _framing
from ._avro_types import spark_arrow_type
from ._registry import RegistryOptions, ResolvedSchema
from ._schema import pyarrow, through_structs

_WRAPPERS = {"google.protobuf." + n for n in ("DoubleValue", "FloatValue", "Int64Value", "UInt64Value",
                                              "Int32Value", "UInt32Value", "BoolValue", "StringValue",
                                              "BytesValue")}
_TIMESTAMP = "google.protobuf.Timestamp"


class ProtobufSchemaError(ValueError):
    """A Protobuf schema or a Spark type that do not fit each other; the message names the field."""


# -- registry and descriptors ---------------------------------------------------------------------

def _pool(main: str, refs: Tuple[Tuple[str, str], ...]) -> Tuple[Any, Any]:
    """A descriptor pool holding the well-known files, ``refs`` and ``main`` (base64
    ``FileDescriptorProto`` s); returns the pool and the main file's descriptor."""
    from google.protobuf.descriptor_pool import DescriptorPool  # type: ignore[import-untyped,unused-ignore]

    from ..schema_registry.common.protobuf import _add_file, _init_pool, _str_to_proto
    from ..schema_registry.common.protobuf import repair_registry_file as _repaired

    pool = DescriptorPool()
    _init_pool(pool)
    for name, text in refs:
        _add_file(pool, _repaired(_str_to_proto(name, text)))
    _add_file(pool, _repaired(_str_to_proto("default", main)))
    return pool, pool.FindFileByName("default")


def _pick(file: Any, message: Optional[str], what: str) -> Any:
    """The message type ``message`` (full or simple name) of ``file``, else its first one."""
    tops = list(file.message_types_by_name.values())
    if not tops:
        raise ValueError(f"{what} defines no message type")
    if message is None:
        return tops[0]

    def every(descs: List[Any]) -> Any:
        for d in descs:
            yield d
            yield from every(list(d.nested_types))

    for d in every(tops):
        if message in (d.full_name, d.name):
            return d
    raise ValueError(f"{what} has no message type {message!r} (it has "
                     f"{', '.join(d.full_name for d in every(tops))})")


def registered_protobuf(schema: Any, registry: Any, what: str,
                        message: Optional[str]) -> Tuple[str, Tuple[Tuple[str, str], ...], str]:
    """The base64 ``FileDescriptorProto`` of the Protobuf ``schema`` (in the registry's
    ``serialized`` form), its imported files (fetched the same way, dependencies first) and
    the full name of the column's message type.

    :raises ValueError: when the schema does not build or has no such message.
    """
    from ..schema_registry.common.protobuf import _is_builtin

    if schema.schema_str is None:
        raise ValueError(f"{what} has no schema text")
    refs: Dict[str, str] = {}

    def collect(s: Any) -> None:
        for ref in s.references or []:
            if _is_builtin(ref.name) or ref.name in refs:
                continue
            found = registry.get_version(ref.subject, ref.version, fmt="serialized")
            text = registry.get_schema(int(found.schema_id), fmt="serialized")  # (see _registry)
            collect(text)
            refs[ref.name] = text.schema_str or ""

    collect(schema)
    ordered = tuple(refs.items())
    try:
        _, file = _pool(schema.schema_str, ordered)
    except Exception as exc:  # noqa: BLE001 - named with the schema
        raise ValueError(f"{what} does not build as a Protobuf file: {exc}") from None
    desc = _pick(file, message, what)
    _node(desc, desc.name, ())  # refuses recursive messages now, on the driver
    return schema.schema_str, ordered, desc.full_name


_descriptors: Dict[Tuple[str, Tuple[Tuple[str, str], ...], str], Any] = {}
_lock = threading.Lock()


def descriptor(resolved: ResolvedSchema) -> Any:
    """The message descriptor of ``resolved`` (built once per process)."""
    key = (resolved.schema, resolved.references, str(resolved.message))
    with _lock:
        found = _descriptors.get(key)
        if found is None:
            pool, file = _pool(resolved.schema, resolved.references)
            found = _pick(file, resolved.message, "the schema")
            _descriptors[key] = found
    return found


# -- descriptor -> Spark --------------------------------------------------------------------------

def _scalar_type(fd: Any) -> Any:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]
    from pyspark.sql import types as T

    t = fd.type
    if t in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32):
        return T.IntegerType()
    if t in (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64, F.TYPE_UINT32, F.TYPE_FIXED32):
        return T.LongType()
    if t in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return T.DecimalType(20, 0)
    return {F.TYPE_DOUBLE: T.DoubleType, F.TYPE_FLOAT: T.FloatType, F.TYPE_BOOL: T.BooleanType,
            F.TYPE_STRING: T.StringType, F.TYPE_BYTES: T.BinaryType, F.TYPE_ENUM: T.StringType}[t]()


def _is_map(fd: Any) -> bool:
    from ..schema_registry.common.protobuf import is_map_field

    return is_map_field(fd)


def _repeated(fd: Any) -> bool:
    from ..schema_registry.common.protobuf import _is_repeated

    return _is_repeated(fd)


def _node(desc: Any, path: str, seen: Tuple[str, ...]) -> Any:
    """The Spark type of the message ``desc`` (a struct, or a timestamp / scalar for the
    well-known types)."""
    from pyspark.sql import types as T

    if desc.full_name == _TIMESTAMP:
        return T.TimestampType()
    if desc.full_name in _WRAPPERS:
        return _scalar_type(desc.fields_by_name["value"])
    if desc.full_name in seen:
        raise ProtobufSchemaError(f"{path}: the message {desc.full_name!r} contains itself; recursive messages "
                                  f"have no Spark type")
    seen = seen + (desc.full_name,)
    fields = []
    for fd in desc.fields:
        fields.append(T.StructField(fd.name, _field_type(fd, f"{path}.{fd.name}", seen), True))
    return T.StructType(fields)


def _field_type(fd: Any, path: str, seen: Tuple[str, ...]) -> Any:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]
    from pyspark.sql import types as T

    if _is_map(fd):
        entry = fd.message_type
        return T.MapType(_single_type(entry.fields_by_name["key"], path, seen),
                         _single_type(entry.fields_by_name["value"], f"{path}{{}}", seen), True)
    single = _single_type(fd, path, seen)
    if _repeated(fd):
        return T.ArrayType(single, fd.type == F.TYPE_MESSAGE)
    return single


def _single_type(fd: Any, path: str, seen: Tuple[str, ...]) -> Any:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    if fd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP):
        return _node(fd.message_type, path, seen)
    return _scalar_type(fd)


@dataclass
class ProtobufPlan:
    """How a Protobuf column is read: its Spark type and the Arrow type Spark takes."""

    spark_type: Any
    arrow_type: Any


def read_plan(resolved: ResolvedSchema) -> ProtobufPlan:
    """The :class:`ProtobufPlan` of ``resolved``."""
    desc = descriptor(resolved)
    st = _node(desc, resolved.field, ())
    return ProtobufPlan(st, spark_arrow_type(st))


# -- messages -> Arrow, a field at a time -----------------------------------------------------------

Column = Callable[[List[Any]], Any]  # a list of messages (None for null) -> an Arrow array


def _enum_names(fd: Any) -> Dict[int, str]:
    return {v.number: v.name for v in fd.enum_type.values}


def _scalar_values(fd: Any) -> Callable[[List[Any]], List[Any]]:
    """Turns a list of a scalar field's Python values (None for null) into what Arrow takes."""
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    if fd.type == F.TYPE_ENUM:
        names = _enum_names(fd)
        return lambda vs: [None if v is None else names.get(v, str(v)) for v in vs]
    return lambda vs: vs


def _message_column(desc: Any, dtype: Any) -> Column:
    """Builds the Arrow array of Spark type ``dtype`` from messages of type ``desc``."""
    pa = pyarrow()
    arrow = spark_arrow_type(dtype)
    if desc.full_name == _TIMESTAMP:
        def stamps(ms: List[Any]) -> Any:
            micros = [None if m is None else m.seconds * 1_000_000 + m.nanos // 1000 for m in ms]
            return pa.array(micros, pa.int64()).cast(arrow)

        return stamps
    if desc.full_name in _WRAPPERS:
        fix = _scalar_values(desc.fields_by_name["value"])
        return lambda ms: pa.array(fix([None if m is None else m.value for m in ms]), arrow)
    parts = [(fd.name, _field_column(fd, f.dataType), f) for fd, f in zip(desc.fields, dtype.fields)]

    def struct(ms: List[Any]) -> Any:
        children = [column(ms) for _, column, _ in parts]
        mask = pa.array([m is None for m in ms], pa.bool_())
        return pa.StructArray.from_arrays(children, fields=list(arrow), mask=mask)

    return struct


def _offsets(ms: List[Any], name: str) -> Tuple[Any, List[Any]]:
    """List offsets of the repeated field ``name`` of ``ms`` (null for a null message) and its
    items, flattened."""
    pa = pyarrow()
    offsets: List[Optional[int]] = [0]
    items: List[Any] = []
    for m in ms:
        if m is None:
            offsets.append(None)
            continue
        items.extend(getattr(m, name))
        offsets.append(len(items))
    if offsets[-1] is None:  # the last offset must end the last list
        offsets[-1] = len(items)
    return pa.array(offsets, pa.int32()), items


def _field_column(fd: Any, dtype: Any) -> Column:
    """Builds the Arrow array of field ``fd`` (Spark type ``dtype``) from a list of messages."""
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    pa = pyarrow()
    name = fd.name
    arrow = spark_arrow_type(dtype)
    is_message = fd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP)
    if _is_map(fd):
        entry = fd.message_type
        key_fd, value_fd = entry.fields_by_name["key"], entry.fields_by_name["value"]
        value_is_message = value_fd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP)
        value_column = _message_column(value_fd.message_type, dtype.valueType) if value_is_message else None
        fix = _scalar_values(value_fd)

        def maps(ms: List[Any]) -> Any:
            offsets: List[Optional[int]] = [0]
            keys: List[Any] = []
            values: List[Any] = []
            for m in ms:
                if m is None:
                    offsets.append(None)
                    continue
                field = getattr(m, name)
                for k in field:
                    keys.append(k)
                    values.append(field[k])
                offsets.append(len(keys))
            if offsets[-1] is None:
                offsets[-1] = len(keys)
            items = value_column(values) if value_column is not None else \
                pa.array(fix(values), spark_arrow_type(dtype.valueType))
            return pa.MapArray.from_arrays(pa.array(offsets, pa.int32()),
                                           pa.array(keys, spark_arrow_type(dtype.keyType)), items).cast(arrow)

        return maps
    if _repeated(fd):
        element = _message_column(fd.message_type, dtype.elementType) if is_message else None
        fix = _scalar_values(fd)
        element_type = spark_arrow_type(dtype.elementType)

        def lists(ms: List[Any]) -> Any:
            offsets, items = _offsets(ms, name)
            values = element(items) if element is not None else pa.array(fix(items), element_type)
            return pa.ListArray.from_arrays(offsets, values).cast(arrow)

        return lists
    if is_message:
        inner = _message_column(fd.message_type, dtype)
        return lambda ms: inner([getattr(m, name) if m is not None and m.HasField(name) else None for m in ms])
    fix = _scalar_values(fd)
    if fd.has_presence:
        return lambda ms: pa.array(fix([getattr(m, name) if m is not None and m.HasField(name) else None
                                        for m in ms]), arrow)
    return lambda ms: pa.array(fix([None if m is None else getattr(m, name) for m in ms]), arrow)


# -- decoding -------------------------------------------------------------------------------------

def batch_bytes(data: Any, starts: Any, lengths: Any) -> bytes:
    """The payloads ``data[starts : starts + lengths]`` as the wire form of a ``repeated``
    message field number 1: each one's tag (``0x0a``), length (a varint) and bytes."""
    import numpy as np

    n = len(starts)
    sizes = np.asarray(lengths, np.int64)
    k = np.ones(n, np.int64)
    for limit in (1 << 7, 1 << 14, 1 << 21, 1 << 28):
        k += sizes >= limit
    out_sizes = 1 + k + sizes
    out_starts = np.zeros(n, np.int64)
    if n > 1:
        out_starts[1:] = np.cumsum(out_sizes[:-1])
    out = np.empty(int(out_sizes.sum()), np.uint8)
    out[out_starts] = 0x0A
    for j in range(5):
        rows = k > j
        byte = (sizes[rows] >> (7 * j)) & 0x7F
        more = k[rows] > j + 1
        out[out_starts[rows] + 1 + j] = (byte | (more * 0x80)).astype(np.uint8)
    total = int(sizes.sum())
    if total:
        within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        out[np.repeat(out_starts + 1 + k, sizes) + within] = data[np.repeat(np.asarray(starts, np.int64), sizes)
                                                                  + within]
    framed: bytes = out.tobytes()  # typed even where numpy is missing and mypy sees Any
    return framed


class ColumnDecoder(_framing.ColumnDecoderBase):
    """Decodes one column (key or value) of framed Protobuf into the planned Spark type."""

    kind = "PROTOBUF"
    read_plan = staticmethod(read_plan)

    def __init__(self, resolved: ResolvedSchema, registry: RegistryOptions, registry_client: Any = None) -> None:
        from google.protobuf import descriptor_pb2, message_factory  # type: ignore[import-untyped,unused-ignore]

        super().__init__(resolved, registry, registry_client)
        self.desc = descriptor(resolved)
        self.message_class = message_factory.GetMessageClass(self.desc)
        # The wrapper: message Batch { repeated <the message> items = 1; }, in the same pool.
        pool = self.desc.file.pool
        package = "confluent_kafka_spark_batch." + "".join(c if c.isalnum() else "_" for c in self.desc.full_name)
        try:
            wrapper = pool.FindMessageTypeByName(f"{package}.Batch")
        except KeyError:
            file = descriptor_pb2.FileDescriptorProto(name=f"{package}.proto", package=package, syntax="proto3",
                                                      dependency=[self.desc.file.name])
            msg = file.message_type.add(name="Batch")
            msg.field.add(name="items", number=1, label=descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED,
                          type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE, type_name="." + self.desc.full_name)
            pool.AddSerializedFile(file.SerializeToString())
            wrapper = pool.FindMessageTypeByName(f"{package}.Batch")
        self.batch_class = message_factory.GetMessageClass(wrapper)
        self.column = _message_column(self.desc, self.plan.spark_type)
        self._writers: Dict[Tuple[Any, Tuple[int, ...]], Optional[str]] = {}
        from ..schema_registry.common.protobuf import _create_index_array

        self._own = (resolved.schema_id, tuple(_create_index_array(self.desc)))

    def _writer_error(self, schema_id: "_framing.Ref", indexes: Tuple[int, ...]) -> Optional[str]:
        """Why records of ``schema_id`` with message ``indexes`` cannot be read into the column's
        message type, or None."""
        key = (schema_id, indexes)
        if key == self._own:
            return None
        if key in self._writers:
            return self._writers[key]
        why = self.ids.error(schema_id, "serialized")
        if why is None:
            from ..schema_registry.common.protobuf import _message_at

            registry = self.ids.registry_client()
            which = _framing.describe(schema_id)
            try:
                schema = _framing.fetch(registry, schema_id, "serialized")
                text, refs, _ = registered_protobuf(schema, registry, which, None)
                _, file = _pool(text, refs)
                written = _message_at(file, list(indexes)).full_name
                if written != self.desc.full_name:
                    why = (f"was written as {written} ({which}, message indexes {list(indexes)}), "
                           f"not as the read's {self.desc.full_name} (the option "
                           f"{self.field}ProtobufMessage picks the message type)")
            except (ValueError, KeyError) as exc:
                why = f"names {which} with message indexes {list(indexes)}, which cannot be read: {exc}"
        self._writers[key] = why
        return why

    def decode(self, column: Any, headers: Any = None) -> Tuple[Any, Dict[int, str]]:
        """As :meth:`ColumnDecoderBase.decode`; a header names the message indexes too."""
        import numpy as np
        from google.protobuf.message import DecodeError  # type: ignore[import-untyped,unused-ignore]

        pa = pyarrow()
        column = _framing.binary(column)
        framed = _framing.check(column, headers, self.field)
        bad = framed.bad
        n = len(column)
        ok = framed.ok.copy()
        data, starts, lengths = framed.data, framed.starts, framed.lengths
        # The message indexes: almost always one 0 byte (the file's first message).
        body = framed.body
        payload_starts = body + 1
        in_header = np.zeros(n, bool)
        in_header[list(framed.header_rest)] = True
        simple = ok & ~in_header & (starts + lengths > body)
        simple[simple] = data[body[simple]] == 0
        indexes: Dict[int, Tuple[int, ...]] = {}
        for i, rest in framed.header_rest.items():  # named by a header: the indexes are there too
            try:
                found, _ = _framing.read_indexes(rest, 0, len(rest))
            except ValueError as exc:
                bad[i] = f"has no valid Protobuf message indexes after the schema id of its header: {exc}"
                ok[i] = False
                continue
            indexes[i] = tuple(found)
            payload_starts[i] = body[i]
        for i in np.nonzero(ok & ~simple & ~in_header)[0].tolist():
            try:
                found, pos = _framing.read_indexes(data, int(body[i]), int(starts[i] + lengths[i]))
            except ValueError as exc:
                bad[i] = f"has no valid Protobuf message indexes after the schema id: {exc}"
                ok[i] = False
                continue
            indexes[i] = tuple(found)
            payload_starts[i] = pos
        groups: Dict[Tuple[Any, Tuple[int, ...]], List[int]] = {}
        for schema_id in np.unique(framed.ids[ok]).tolist():
            rows = np.nonzero(ok & (framed.ids == schema_id))[0]
            ref = framed.ref(schema_id)
            plain = rows[simple[rows]]
            if len(plain):
                groups[(ref, (0,))] = plain.tolist()
            for i in rows[~simple[rows]].tolist():
                groups.setdefault((ref, indexes[i]), []).append(i)
        for key, rows_of in groups.items():
            why = self._writer_error(*key)
            if why is not None:
                for i in rows_of:
                    bad[i] = why
                ok[rows_of] = False
        rows = np.nonzero(ok)[0]
        messages: List[Any] = [None] * n
        if len(rows):
            sizes = starts[rows] + lengths[rows] - payload_starts[rows]
            batch = self.batch_class()
            try:
                batch.ParseFromString(batch_bytes(data, payload_starts[rows], sizes))
                parsed = list(batch.items)
                if len(parsed) != len(rows):
                    raise DecodeError("record count")
                for i, m in zip(rows.tolist(), parsed):
                    messages[i] = m
            except DecodeError:
                for i, start, size in zip(rows.tolist(), payload_starts[rows].tolist(), sizes.tolist()):
                    m = self.message_class()
                    try:
                        m.ParseFromString(data[start:start + size].tobytes())
                        messages[i] = m
                    except DecodeError as exc:
                        bad[i] = f"does not decode as {self.desc.full_name}: {exc}"
        return self.column(messages), bad


# -- Spark -> Protobuf (writes) -------------------------------------------------------------------

def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p) or "Field"


def spark_to_protobuf(dtype: Any, message: Optional[str] = None) -> Any:
    """A Protobuf schema (proto3, in the registry's ``serialized`` form) for a struct column of
    Spark type ``dtype``: one message (``message``, default ``topLevelRecord``) with a field per
    struct field, numbered in order; nested structs as nested messages (``<Field>Record``),
    arrays as ``repeated``, maps as map fields, timestamps as ``google.protobuf.Timestamp``,
    nullable scalars as ``optional``.

    :raises ProtobufSchemaError: for a type with no Protobuf form (not a struct at the top,
        arrays of arrays or of maps, dates, decimals, intervals).
    """
    from google.protobuf import descriptor_pb2  # type: ignore[import-untyped,unused-ignore]
    from pyspark.sql import types as T

    from ..schema_registry import Schema

    if not isinstance(dtype, T.StructType):
        raise ProtobufSchemaError(f"a protobuf column must be a struct (a message), not {dtype.simpleString()}")
    name = (message or "topLevelRecord").rpartition(".")[2]
    package = (message or "").rpartition(".")[0]
    file = descriptor_pb2.FileDescriptorProto(name="confluent_kafka_spark.proto", syntax="proto3", package=package)
    P = descriptor_pb2.FieldDescriptorProto
    uses_timestamp = [False]

    def scalar(t: Any, path: str) -> Tuple[int, str]:
        if isinstance(t, (T.TimestampType, T.TimestampNTZType)):
            uses_timestamp[0] = True
            return P.TYPE_MESSAGE, "." + _TIMESTAMP
        simple = {T.LongType: P.TYPE_INT64, T.IntegerType: P.TYPE_INT32, T.ShortType: P.TYPE_INT32,
                  T.ByteType: P.TYPE_INT32, T.FloatType: P.TYPE_FLOAT, T.DoubleType: P.TYPE_DOUBLE,
                  T.StringType: P.TYPE_STRING, T.BinaryType: P.TYPE_BYTES, T.BooleanType: P.TYPE_BOOL}
        for cls, kind in simple.items():
            if type(t) is cls:
                return kind, ""
        raise ProtobufSchemaError(f"{path}: the Spark type {t.simpleString()} has no Protobuf form here; "
                                  f"register a schema and name it with valueSchemaId")

    def fill(msg: Any, st: Any, full: str, path: str) -> None:
        for number, f in enumerate(st.fields, 1):
            fp = msg.field.add(name=f.name, number=number, label=P.LABEL_OPTIONAL)
            t = f.dataType
            fpath = f"{path}.{f.name}"
            if isinstance(t, T.ArrayType):
                fp.label = P.LABEL_REPEATED
                t = t.elementType
                if isinstance(t, (T.ArrayType, T.MapType)):
                    raise ProtobufSchemaError(f"{fpath}: arrays of {t.typeName()}s have no Protobuf form")
            elif isinstance(t, T.MapType):
                entry = msg.nested_type.add(name=_camel(f.name) + "Entry")
                entry.options.map_entry = True
                key_kind, _ = scalar(t.keyType, fpath)
                if key_kind in (P.TYPE_MESSAGE, P.TYPE_FLOAT, P.TYPE_DOUBLE, P.TYPE_BYTES):
                    raise ProtobufSchemaError(f"{fpath}: map keys of type {t.keyType.simpleString()} have no "
                                              f"Protobuf form")
                entry.field.add(name="key", number=1, label=P.LABEL_OPTIONAL, type=key_kind)
                value = entry.field.add(name="value", number=2, label=P.LABEL_OPTIONAL)
                typed(value, entry, t.valueType, f"{full}.{entry.name}", f"{fpath}{{}}", "Value")
                fp.label = P.LABEL_REPEATED
                fp.type = P.TYPE_MESSAGE
                fp.type_name = f".{full}.{entry.name}"
                continue
            elif f.nullable and not isinstance(t, (T.StructType, T.TimestampType, T.TimestampNTZType)):
                fp.proto3_optional = True
                fp.oneof_index = len(msg.oneof_decl)
                msg.oneof_decl.add(name="_" + f.name)
            typed(fp, msg, t, full, fpath, _camel(f.name) + "Record")

    def typed(fp: Any, msg: Any, t: Any, full: str, path: str, nested_name: str) -> None:
        if isinstance(t, T.StructType):
            nested = msg.nested_type.add(name=nested_name)
            fill(nested, t, f"{full}.{nested_name}", path)
            fp.type = P.TYPE_MESSAGE
            fp.type_name = f".{full}.{nested_name}"
            return
        kind, type_name = scalar(t, path)
        fp.type = kind
        if type_name:
            fp.type_name = type_name

    top = file.message_type.add(name=name)
    fill(top, dtype, f"{package}.{name}" if package else name, "value")
    if uses_timestamp[0]:
        file.dependency.append("google/protobuf/timestamp.proto")
    # (oneof declarations of proto3 optional fields must follow the real ones: there are none)
    return Schema(base64.standard_b64encode(file.SerializeToString()).decode("ascii"), "PROTOBUF")


def _check(desc: Any, dtype: Any, path: str) -> None:
    """Refuse a Spark type that the message type ``desc`` cannot take."""
    from pyspark.sql import types as T

    if desc.full_name == _TIMESTAMP or desc.full_name in _WRAPPERS:
        _check_scalar(desc.fields_by_name["value"] if desc.full_name in _WRAPPERS else None, dtype, path,
                      desc.full_name)
        return
    if not isinstance(dtype, T.StructType):
        raise ProtobufSchemaError(f"{path}: the column is {dtype.simpleString()}, the Protobuf schema has the "
                                  f"message {desc.full_name} there")
    for f in dtype.fields:
        fd = desc.fields_by_name.get(f.name)
        fpath = f"{path}.{f.name}"
        if fd is None:
            raise ProtobufSchemaError(f"{fpath}: the message {desc.full_name} has no field {f.name!r} (it has "
                                      f"{', '.join(desc.fields_by_name) or 'none'})")
        t = f.dataType
        if _is_map(fd):
            if not isinstance(t, T.MapType):
                raise ProtobufSchemaError(f"{fpath}: the column is {t.simpleString()}, the Protobuf field is a map")
            entry = fd.message_type
            _check_single(entry.fields_by_name["key"], t.keyType, f"{fpath}{{key}}")
            _check_single(entry.fields_by_name["value"], t.valueType, f"{fpath}{{}}")
            continue
        if _repeated(fd):
            if not isinstance(t, T.ArrayType):
                raise ProtobufSchemaError(f"{fpath}: the column is {t.simpleString()}, the Protobuf field is "
                                          f"repeated (an array)")
            t = t.elementType
        _check_single(fd, t, fpath)


def _check_single(fd: Any, dtype: Any, path: str) -> None:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    if fd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP):
        _check(fd.message_type, dtype, path)
    else:
        _check_scalar(fd, dtype, path, None)


def _check_scalar(fd: Any, dtype: Any, path: str, message: Optional[str]) -> None:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]
    from pyspark.sql import types as T

    ints32 = (T.ByteType, T.ShortType, T.IntegerType)
    ints64 = ints32 + (T.LongType,)
    if fd is None:  # a Timestamp
        ok = isinstance(dtype, (T.TimestampType, T.TimestampNTZType))
        want = message
    else:
        t = fd.type
        allowed: Tuple[Any, ...]
        if t in (F.TYPE_INT32, F.TYPE_SINT32, F.TYPE_SFIXED32):
            allowed = ints32
        elif t in (F.TYPE_INT64, F.TYPE_SINT64, F.TYPE_SFIXED64, F.TYPE_UINT32, F.TYPE_FIXED32):
            allowed = ints64
        elif t in (F.TYPE_UINT64, F.TYPE_FIXED64):
            allowed = ints64 + (T.DecimalType,)
        elif t == F.TYPE_FLOAT:
            allowed = (T.FloatType,) + ints32
        elif t == F.TYPE_DOUBLE:
            allowed = (T.FloatType, T.DoubleType) + ints64
        elif t == F.TYPE_BOOL:
            allowed = (T.BooleanType,)
        elif t in (F.TYPE_STRING, F.TYPE_ENUM):
            allowed = (T.StringType,)
        else:
            allowed = (T.BinaryType,)
        ok = isinstance(dtype, allowed)
        want = message or (f"the enum {fd.enum_type.full_name}" if t == F.TYPE_ENUM
                           else f"a {_scalar_type(fd).simpleString()}")
    if not ok:
        raise ProtobufSchemaError(f"{path}: the column is {dtype.simpleString()}, the Protobuf schema has {want} there")


def check_writable(resolved: ResolvedSchema, dtype: Any) -> None:
    """Refuse, before any task runs, a column that does not fit its Protobuf message type.

    :raises ValueError: naming the field that does not fit.
    """
    try:
        _check(descriptor(resolved), dtype, resolved.field)
    except ProtobufSchemaError as exc:
        raise _framing.does_not_fit(resolved, exc) from None


# -- encoding -------------------------------------------------------------------------------------

def _to_message_value(desc: Any, dtype: Any) -> Callable[[Any], Any]:
    """A converter of a struct column's Python values into keyword data for ``desc``'s class."""
    if desc.full_name == _TIMESTAMP:
        def stamp(v: Any) -> Any:
            if v is None:
                return None
            if isinstance(v, int):  # microseconds (see _arrow_ready)
                return {"seconds": v // 1_000_000, "nanos": (v % 1_000_000) * 1000}
            if v.tzinfo is None:
                v = v.replace(tzinfo=datetime.timezone.utc)
            delta = v - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
            micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
            return {"seconds": micros // 1_000_000, "nanos": (micros % 1_000_000) * 1000}

        return stamp
    if desc.full_name in _WRAPPERS:
        inner = _scalar_converter(desc.fields_by_name["value"])
        return lambda v: None if v is None else {"value": inner(v)}
    parts: List[Tuple[str, Callable[[Any], Any]]] = []
    for f in dtype.fields:
        fd = desc.fields_by_name[f.name]
        parts.append((f.name, _field_converter(fd, f.dataType)))

    def struct(v: Any) -> Any:
        if v is None:
            return None
        out = {}
        for n, c in parts:
            x = v.get(n)
            if x is not None:
                out[n] = c(x)
        return out

    return struct


def _scalar_converter(fd: Any) -> Callable[[Any], Any]:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]

    if fd.type in (F.TYPE_UINT64, F.TYPE_FIXED64):
        return lambda v: int(v) if isinstance(v, decimal.Decimal) else v
    return lambda v: v


def _field_converter(fd: Any, dtype: Any) -> Callable[[Any], Any]:
    from google.protobuf.descriptor import FieldDescriptor as F  # type: ignore[import-untyped,unused-ignore]
    from pyspark.sql import types as T

    def single(sfd: Any, t: Any) -> Callable[[Any], Any]:
        if sfd.type in (F.TYPE_MESSAGE, F.TYPE_GROUP):
            return _to_message_value(sfd.message_type, t)
        return _scalar_converter(sfd)

    if _is_map(fd):
        entry = fd.message_type
        value = single(entry.fields_by_name["value"], dtype.valueType)
        return lambda v: {k: value(x) for k, x in (v.items() if isinstance(v, dict) else v) if x is not None}
    if _repeated(fd) and isinstance(dtype, T.ArrayType):
        each = single(fd, dtype.elementType)
        return lambda v: [each(x) for x in v if x is not None]
    return single(fd, dtype)


def _arrow_ready(column: Any, dtype: Any) -> Any:
    """``column`` with its timestamps as int64 microseconds, through structs: no Python datetime
    per value (timestamps inside arrays and maps stay datetimes)."""
    from pyspark.sql import types as T

    def leaf(col: Any, t: Any) -> Any:
        return col.cast(pyarrow().int64()) if isinstance(t, (T.TimestampType, T.TimestampNTZType)) else col

    return through_structs(column, dtype, leaf)


class ColumnEncoder:
    """Encodes one Arrow struct column (key or value) as framed Protobuf: the schema id, the
    message indexes, the message."""

    def __init__(self, resolved: ResolvedSchema, spark_type: Any, writing: Any = None) -> None:
        from google.protobuf import message_factory  # type: ignore[import-untyped,unused-ignore]

        from ..schema_registry.common.protobuf import _create_index_array

        self.resolved = resolved
        desc = descriptor(resolved)
        self.message_class = message_factory.GetMessageClass(desc)
        self.header, self.id_header = _framing.framing(resolved, writing, _create_index_array(desc))
        self.spark_type = spark_type
        self.convert = _to_message_value(desc, spark_type)

    def encode(self, column: Any) -> Any:
        """The framed Protobuf bytes of every value of ``column`` (null stays null).

        :raises SerializationError: for a value the message type does not accept, naming the row.
        """
        from ._avro_codec import _rows

        convert, cls = self.convert, self.message_class
        return _framing.framed_rows(self.resolved, self.header, _rows(_arrow_ready(column, self.spark_type)),
                                    lambda v: cls(**convert(v)).SerializeToString(),
                                    f"does not encode as {cls.DESCRIPTOR.full_name}")
