"""Decode and encode Schema Registry framed Avro a whole Arrow batch at a time, in Spark tasks.

Decoding a batch: the framing of every value is checked and its schema id read; the values of
each writer schema are then decoded by fastavro in one call, as one block of an in-memory Avro
container (no Python call per record), into the planned reader schema, and built into an Arrow
column of the planned Spark type. A block that fails to decode is decoded again record by
record, to find the records at fault. Encoding is the way back: the column's Arrow values are
encoded by fastavro one record at a time (Avro gives no record boundaries otherwise) and framed
with the schema id.

What a record that cannot be decoded (no framing, an unknown schema id, bytes that do not
decode) does is the read's ``mode``: FAILFAST fails the task naming the record's topic,
partition and offset; PERMISSIVE reads the column as null; DROPMALFORMED drops the row. A
registry that cannot be reached fails the task in every mode: that is no fault of a record.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..serialization import SerializationError
from ._avro_types import (
    Avro,
    AvroSchemaError,
    _kind,
    list_converter,
    map_converter,
    read_plan,
    record_converter,
    strip_logical_types,
)
from ._registry import RegistryOptions, ResolvedSchema, client, self_contained
from ._schema import pyarrow, pyarrow_compute

MAGIC = 0
HEADER = 5  # magic byte + 4-byte schema id


class MalformedRecordError(SerializationError):
    """A Kafka record whose key or value cannot be decoded (FAILFAST mode)."""


def _varint(n: int) -> bytes:
    """Avro's zig-zag variable-length encoding of ``n``."""
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n & ~0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _container_header(schema_json: str, sync: bytes) -> bytes:
    """The header of an Avro object container holding data of ``schema_json``, uncompressed."""
    meta = {b"avro.schema": schema_json.encode(), b"avro.codec": b"null"}
    out = bytearray(b"Obj\x01")
    out += _varint(len(meta))
    for k, v in meta.items():
        out += _varint(len(k)) + k + _varint(len(v)) + v
    out += _varint(0) + sync
    return bytes(out)


@dataclass
class _Writer:
    """A writer schema as fastavro reads it: parsed (logical types stripped), and the container
    header that declares it; or why its records cannot be read."""

    parsed: Any = None
    header: bytes = b""
    same_as_reader: bool = False
    error: Optional[str] = None


class ColumnDecoder:
    """Decodes one column (key or value) of framed Avro into the planned reader schema."""

    def __init__(self, resolved: ResolvedSchema, registry: RegistryOptions,
                 registry_client: Any = None) -> None:
        from fastavro import parse_schema

        self.resolved = resolved
        self.registry = registry
        self.field = resolved.field
        reader = json.loads(resolved.schema)
        self.plan = read_plan(reader)
        self._reader_stripped = json.dumps(strip_logical_types(reader), sort_keys=True)
        self.reader_parsed = parse_schema(strip_logical_types(reader))
        self._client = registry_client
        self._sync = os.urandom(16)
        self._writers: Dict[Union[int, str], _Writer] = {}
        # Values of named types tagged with their names: only needed (and only paid for) where
        # a union becomes a member struct.
        self._tags: Dict[str, Any] = {"return_named_type": True, "return_named_type_override": True} \
            if self.plan.convert is not None else {}

    # -- writer schemas ---------------------------------------------------------------------------

    def _registry(self) -> Any:
        return self._client if self._client is not None else client(self.registry)

    def writer(self, schema_id: Union[int, str]) -> _Writer:
        """The writer schema ``schema_id`` (an id, or a guid), fetched once (a 404 is remembered
        as an error)."""
        found = self._writers.get(schema_id)
        if found is not None:
            return found
        from fastavro import parse_schema

        from ..schema_registry import SchemaRegistryError
        from ._framing import describe, fetch, not_held

        which = describe(schema_id)
        try:
            registry = self._registry()
            text = self_contained(fetch(registry, schema_id), registry, which)
            stripped = strip_logical_types(json.loads(text))
            same = json.dumps(stripped, sort_keys=True) == self._reader_stripped
            found = _Writer(parse_schema(stripped), _container_header(json.dumps(stripped), self._sync), same)
        except SchemaRegistryError as exc:
            found = _Writer(error=not_held(exc, schema_id))
        except (ValueError, TypeError, KeyError) as exc:
            found = _Writer(error=f"names {which}, which cannot be read as Avro: {exc}")
        self._writers[schema_id] = found
        return found

    # -- decoding ---------------------------------------------------------------------------------

    def _read_block(self, w: _Writer, payloads: Any) -> List[Any]:
        """Every value of the binary Arrow array ``payloads`` (no nulls), decoded in one call."""
        import numpy as np
        from fastavro import reader

        offsets = np.frombuffer(payloads.buffers()[1], dtype=np.int32, count=len(payloads) + 1,
                                offset=4 * payloads.offset)
        first, last = int(offsets[0]), int(offsets[-1])
        data = payloads.buffers()[2][first:last].to_pybytes() if last > first else b""
        block = w.header + _varint(len(payloads)) + _varint(len(data)) + data + self._sync
        return list(reader(io.BytesIO(block), reader_schema=None if w.same_as_reader else self.reader_parsed,
                           **self._tags))

    def _read_one(self, w: _Writer, payload: bytes) -> Any:
        from fastavro import schemaless_reader

        return schemaless_reader(io.BytesIO(payload), w.parsed, None if w.same_as_reader else self.reader_parsed,
                                 **self._tags)

    def decode(self, column: Any, headers: Any = None) -> Tuple[Any, Dict[int, str]]:
        """Decode the binary Arrow array ``column``; with ``headers`` (the batch's headers
        column) a ``__<field>_schema_id`` header names a record's schema first.

        :returns: the Arrow array of the column's Spark type (null where the value is null or
            could not be decoded) and ``{row: why}`` for the rows that could not be decoded.
        :raises SchemaRegistryError: when the registry fails for another reason than a schema
            it does not hold.
        """
        import numpy as np

        from . import _framing

        pa = pyarrow()
        column = _framing.binary(column)
        n = len(column)
        framed = _framing.check(column, headers, self.field)
        bad = framed.bad
        ok = framed.ok
        decoded: List[Any] = [None] * n
        everything = bool(ok.all())
        for key in np.unique(framed.ids[ok]).tolist():
            ref = framed.ref(key)
            w = self.writer(ref)
            rows = np.nonzero(ok & (framed.ids == key))[0]
            if w.error is not None:
                for i in rows.tolist():
                    bad[i] = w.error
                continue
            whole = everything and len(rows) == n
            payloads = _framing.payloads(column, framed, rows)
            try:
                records = self._read_block(w, payloads)
                if len(records) != len(rows):
                    raise ValueError("record count")
            except Exception:  # noqa: BLE001 - find the records at fault one by one
                records = []
                for i, p in zip(rows.tolist(), payloads.to_pylist()):
                    try:
                        records.append(self._read_one(w, p))
                    except Exception as exc:  # noqa: BLE001 - the record is malformed
                        records.append(None)
                        into = "" if w.same_as_reader else f" into the reader {self.resolved.describe()}"
                        bad[i] = f"does not decode with its writer {_framing.describe(ref)}{into}: {exc}"
            if whole:
                decoded = records
            else:
                for i, rec in zip(rows.tolist(), records):
                    decoded[i] = rec
        convert = self.plan.convert
        if convert is not None:
            decoded = [None if v is None else convert(v) for v in decoded]
        raw = pa.array(decoded, type=self.plan.raw_type)
        if raw.type != self.plan.arrow_type:
            raw = raw.cast(self.plan.arrow_type)
        return raw, bad


class BatchDecoder:
    """Replaces the binary key and value columns of Spark-layout batches by their decoded
    columns, applying the read's ``mode`` to records that do not decode."""

    def __init__(self, registry: RegistryOptions, resolved: Dict[str, ResolvedSchema],
                 registry_client: Any = None, keep_headers: bool = True) -> None:
        self.mode = registry.mode
        self.columns = {name: ColumnDecoder(r, registry, registry_client) for name, r in resolved.items()}
        self.setup(registry, keep_headers)

    def setup(self, registry: RegistryOptions, keep_headers: bool) -> None:
        """Which columns look for their schema id in the headers (the dual deserializer), and
        whether the headers column stays (``includeHeaders``) or was only read for that."""
        self.dual = {f.field for f in registry.fields() if f.id_deserializer == "dual"}
        self.keep_headers = keep_headers

    def output_schema(self, schema: Any) -> Any:
        """``schema`` (Spark's Kafka layout in Arrow) with the decoded columns' types."""
        pa = pyarrow()
        fields = [pa.field(f.name, self.columns[f.name].plan.arrow_type, True) if f.name in self.columns else f
                  for f in schema if self.keep_headers or f.name != "headers"]
        return pa.schema(fields)

    def __call__(self, batch: Any) -> Any:
        """The decoded batch (rows dropped with DROPMALFORMED).

        :raises MalformedRecordError: for the first record that does not decode, with FAILFAST.
        """
        pa = pyarrow()
        arrays = list(batch.columns)
        names = batch.schema.names
        all_bad: Dict[int, str] = {}
        headers = batch.column(names.index("headers")) if "headers" in names else None
        for name, decoder in self.columns.items():
            idx = names.index(name)
            arrays[idx], bad = decoder.decode(batch.column(idx), headers if name in self.dual else None)
            for row, why in bad.items():
                all_bad.setdefault(row, f"the {name} {why}")
        if headers is not None and not self.keep_headers:
            del arrays[names.index("headers")]
        out = pa.RecordBatch.from_arrays(arrays, schema=self.output_schema(batch.schema))
        if not all_bad:
            return out
        if self.mode == "FAILFAST":
            row = min(all_bad)
            topic = batch.column(names.index("topic"))[row].as_py()
            part = batch.column(names.index("partition"))[row].as_py()
            offset = batch.column(names.index("offset"))[row].as_py()
            raise MalformedRecordError(
                f"{topic}[{part}] offset {offset}: {all_bad[row]}. The read's mode is FAILFAST; set the option "
                f"mode to PERMISSIVE to read such records as null, or to DROPMALFORMED to drop them")
        if self.mode == "DROPMALFORMED":
            keep = [True] * batch.num_rows
            for row in all_bad:
                keep[row] = False
            out = out.filter(pa.array(keep, pa.bool_()))
        return out


# -- encoding ---------------------------------------------------------------------------------------

def _write_types(dtype: Any, schema: Avro, path: str, names: Dict[str, Any]) -> Tuple[Any, Any, Optional[Callable[[Any], Any]]]:
    """``(unit_type, storage_type, convert)`` of a column of Spark type ``dtype`` written with
    the Avro schema ``schema``: the Arrow type whose timestamps have the Avro unit, the Arrow
    type of plain values fastavro writes (ints for dates and timestamps), and a converter of
    the plain values (member structs of unions), or None.

    :raises AvroSchemaError: where the column does not fit the schema, naming the field.
    """
    from pyspark.sql import types as T

    pa = pyarrow()
    schema = _deref(schema, names)
    if isinstance(schema, list) or (isinstance(schema, dict) and isinstance(schema.get("type"), list)):
        branches = schema if isinstance(schema, list) else schema["type"]
        rest = [b for b in branches if _kind(_deref(b, names)) != "null"]
        if len(rest) == 1:
            return _write_types(dtype, rest[0], path, names)
        if not rest:
            return pa.null(), pa.null(), None
        members = [f"member{i}" for i in range(len(rest))]
        if isinstance(dtype, T.StructType) and [f.name for f in dtype.fields] == members:
            parts = [_write_types(f.dataType, b, f"{path}.{f.name}", names) for f, b in zip(dtype.fields, rest)]
            tags = [_named(_deref(b, names)) for b in rest]
            convs = [c for _, _, c in parts]

            def pick(v: Any) -> Any:
                if v is None:
                    return None
                for i, m in enumerate(members):
                    x = v.get(m)
                    if x is not None:
                        c = convs[i]
                        x = x if c is None else c(x)
                        return (tags[i], x) if tags[i] else x
                return None

            return (pa.struct([pa.field(m, u) for m, (u, _, _) in zip(members, parts)]),
                    pa.struct([pa.field(m, s) for m, (_, s, _) in zip(members, parts)]), pick)
        for b in rest:  # a column of one branch's type
            try:
                return _write_types(dtype, b, path, names)
            except AvroSchemaError:
                continue
        raise AvroSchemaError(f"{path}: the column's type {dtype.simpleString()} fits no branch of the union "
                              f"{json.dumps(branches)}")
    kind, logical = _kind(schema), schema.get("logicalType") if isinstance(schema, dict) else None

    def mismatch() -> AvroSchemaError:
        want = json.dumps(schema) if not isinstance(schema, dict) or kind not in ("record",) else \
            f"record {schema.get('name')}"
        return AvroSchemaError(f"{path}: the column is {dtype.simpleString()}, the Avro schema has {want} there")

    if kind == "record":
        if not isinstance(dtype, T.StructType):
            raise mismatch()
        fields = {f["name"]: f for f in schema.get("fields", [])}
        for f in dtype.fields:
            if f.name not in fields:
                raise AvroSchemaError(f"{path}.{f.name}: the Avro record {schema.get('name')} has no field "
                                      f"{f.name!r} (it has {', '.join(fields) or 'none'})")
        given = {f.name for f in dtype.fields}
        for name, f in fields.items():
            if name not in given and "default" not in f:
                raise AvroSchemaError(f"{path}: the column has no field {name!r}, which the Avro record "
                                      f"{schema.get('name')} needs (it has no default)")
        typed = {f.name: _write_types(f.dataType, fields[f.name]["type"], f"{path}.{f.name}", names)
                 for f in dtype.fields}
        field_convs = {k: c for k, (_, _, c) in typed.items() if c is not None}
        return (pa.struct([pa.field(k, u) for k, (u, _, _) in typed.items()]),
                pa.struct([pa.field(k, s) for k, (_, s, _) in typed.items()]), record_converter(field_convs))
    if kind == "array":
        if not isinstance(dtype, T.ArrayType):
            raise mismatch()
        u, s, c = _write_types(dtype.elementType, schema["items"], f"{path}[]", names)
        return pa.list_(u), pa.list_(s), list_converter(c)
    if kind == "map":
        if not isinstance(dtype, T.MapType) or not isinstance(dtype.keyType, T.StringType):
            raise mismatch()
        u, s, c = _write_types(dtype.valueType, schema["values"], f"{path}{{}}", names)
        return pa.map_(pa.string(), u), pa.map_(pa.string(), s), map_converter(c)
    ints = (T.ByteType, T.ShortType, T.IntegerType)
    if kind == "int":
        if logical == "date":
            if not isinstance(dtype, T.DateType):
                raise mismatch()
            return pa.date32(), pa.int32(), None
        if not isinstance(dtype, ints):
            raise mismatch()
        return pa.int32(), pa.int32(), None
    if kind == "long":
        if logical in ("timestamp-millis", "timestamp-micros", "local-timestamp-millis", "local-timestamp-micros"):
            want = T.TimestampType if not logical.startswith("local") else T.TimestampNTZType
            if type(dtype) is not want:
                raise mismatch()
            unit = "ms" if logical.endswith("millis") else "us"
            return pa.timestamp(unit, tz="UTC" if want is T.TimestampType else None), pa.int64(), None
        if not isinstance(dtype, ints + (T.LongType,)):
            raise mismatch()
        return pa.int64(), pa.int64(), None
    if kind in ("float", "double"):
        allowed = (T.FloatType,) if kind == "float" else (T.FloatType, T.DoubleType)
        if not isinstance(dtype, allowed + ints + ((T.LongType,) if kind == "double" else ())):
            raise mismatch()
        t = pa.float32() if kind == "float" else pa.float64()
        return t, t, None
    if kind in ("bytes", "fixed"):
        if logical == "decimal":
            if not isinstance(dtype, T.DecimalType):
                raise mismatch()
            t = pa.decimal128(int(schema["precision"]), int(schema.get("scale", 0)))
            return t, t, None
        if not isinstance(dtype, T.BinaryType):
            raise mismatch()
        return pa.binary(), pa.binary(), None
    if kind in ("string", "enum"):
        if not isinstance(dtype, T.StringType):
            raise mismatch()
        return pa.string(), pa.string(), None
    if kind == "boolean":
        if not isinstance(dtype, T.BooleanType):
            raise mismatch()
        return pa.bool_(), pa.bool_(), None
    if kind == "null":
        if not isinstance(dtype, T.NullType):
            raise mismatch()
        return pa.null(), pa.null(), None
    raise mismatch()


def _named(schema: Avro) -> Optional[str]:
    if isinstance(schema, dict) and schema.get("type") in ("record", "enum", "fixed"):
        return str(schema["name"])
    return None


def _deref(schema: Avro, names: Dict[str, Any]) -> Avro:
    """``schema`` with a reference to a named type replaced by its definition; definitions met
    are recorded in ``names`` (the schema is self-contained, with full names)."""
    if isinstance(schema, dict):
        t = schema.get("type")
        if isinstance(t, (dict, list)):
            return _deref(t, names)
        if t in ("record", "enum", "fixed"):
            names.setdefault(str(schema["name"]), schema)
            return schema
        if isinstance(t, str) and t in names:
            return names[t]
        return schema
    if isinstance(schema, str) and schema in names:
        return names[schema]
    return schema


def _has_map(t: Any) -> bool:
    pa = pyarrow()
    if pa.types.is_map(t):
        return True
    if pa.types.is_struct(t):
        return any(_has_map(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _has_map(t.value_type)
    return False


def _pylist(column: Any) -> List[Any]:
    """``column.to_pylist()``, maps as dicts (asked for only where there are maps: it is far
    slower)."""
    values: List[Any] = (column.to_pylist(maps_as_pydicts="strict") if _has_map(column.type)
                         else column.to_pylist())
    return values


def _rows(column: Any) -> List[Any]:
    """The Python values of ``column`` (what the encoders encode); a struct's built a child at a
    time (far fewer Python objects than ``StructArray.to_pylist``)."""
    pa = pyarrow()
    if not pa.types.is_struct(column.type) or not column.type.num_fields:
        return _pylist(column)
    names = [column.type.field(i).name for i in range(column.type.num_fields)]
    rows: List[Any] = [dict(zip(names, vals)) for vals in zip(*(_pylist(c) for c in column.flatten()))]
    if column.null_count:
        rows = [r if ok else None for r, ok in zip(rows, column.is_valid().to_pylist())]
    return rows


class ColumnEncoder:
    """Encodes one Arrow column (key or value) with a registered Avro schema, framed with its id.

    The records go through one fastavro ``Writer`` as fields of a wrapper record whose first
    field is the 5-byte framing (a ``fixed``): the Avro encoding of a record is its fields one
    after the other, so each wrapper record is exactly ``framing + encoded value``, and the
    writer's buffer position after each record is where the next one starts. The Arrow binary
    column is then made from that buffer and those positions, with no bytes object per row.
    """

    def __init__(self, resolved: ResolvedSchema, spark_type: Any, writing: Any = None) -> None:
        from fastavro import parse_schema

        from ._framing import framing

        schema = json.loads(resolved.schema)
        self.resolved = resolved
        self.unit_type, self.storage_type, self.convert = _write_types(spark_type, schema, resolved.field, {})
        self.header, self.id_header = framing(resolved, writing)
        framing_field = [{"name": "framing", "type": {"type": "fixed", "name": "confluent_kafka_spark_Framing",
                                                      "size": len(self.header)}}] if self.header else []
        self.parsed = parse_schema({
            # names without a namespace: the value's own named types keep theirs
            "type": "record", "name": "confluent_kafka_spark_Framed", "fields": framing_field + [
                {"name": "value", "type": strip_logical_types(schema)}]})

    def _plain(self, column: Any) -> List[Any]:
        if column.type != self.unit_type:
            column = column.cast(self.unit_type)
        if column.type != self.storage_type:
            column = column.cast(self.storage_type)
        return _rows(column)

    def encode(self, column: Any) -> Any:
        """The framed Avro bytes of every value of ``column`` (null stays null).

        :raises SerializationError: for a value the schema does not accept, naming the row.
        """
        from fastavro.write import Writer

        from ._framing import row_not_written

        pa = pyarrow()
        values = self._plain(column)
        writer = Writer(io.BytesIO(), self.parsed, sync_interval=1 << 62)
        buf: Any = writer.io  # fastavro's MemoryIO: tell() and getvalue()
        ends = [0]
        header, convert = self.header, self.convert
        for row, v in enumerate(values):
            if v is not None:
                try:
                    record = {"value": v if convert is None else convert(v)}
                    if header:
                        record["framing"] = header
                    writer.write(record)
                except Exception as exc:  # noqa: BLE001 - named with the row
                    raise row_not_written(self.resolved, row, f"does not encode with {self.resolved.describe()}",
                                          exc) from exc
            ends.append(buf.tell())
        data = buf.getvalue()
        if len(data) >= 1 << 31:
            raise SerializationError("an Arrow batch of more than 2 GiB of encoded Avro; write smaller batches "
                                     "(spark.sql.execution.arrow.maxRecordsPerBatch)")
        offsets = pa.array(ends, pa.int32()).buffers()[1]
        validity = None
        nulls = column.null_count
        if nulls:
            validity = column.is_valid().buffers()[1] if column.offset == 0 else \
                pa.array(column.is_valid().to_pylist(), pa.bool_()).buffers()[1]
        return pa.Array.from_buffers(pa.binary(), len(values), [validity, offsets, pa.py_buffer(data)], nulls)


def check_writable(resolved: ResolvedSchema, spark_type: Any) -> None:
    """Refuse, before any task runs, a column that does not fit its Avro schema.

    :raises ValueError: naming the field that does not fit.
    """
    try:
        _write_types(spark_type, json.loads(resolved.schema), resolved.field, {})
    except AvroSchemaError as exc:
        from ._framing import does_not_fit

        raise does_not_fit(resolved, exc) from None


def writings(registry: Optional[RegistryOptions]) -> Dict[str, Any]:
    """How each encoded column of a write names its schema (:class:`._framing.Writing`)."""
    from ._framing import Writing

    if registry is None:
        return {}
    return {f.field: Writing(f.id_serializer, f.use_guid) for f in registry.fields()}


class BatchEncoder:
    """Replaces the key and value columns of write batches by their framed Avro bytes (and
    adds the schema id headers of columns written with the header serializer)."""

    def __init__(self, resolved: Dict[str, ResolvedSchema], spark_types: Dict[str, Any],
                 registry: Optional[RegistryOptions] = None) -> None:
        how = writings(registry)
        self.columns = {name: ColumnEncoder(r, spark_types[name], how.get(name)) for name, r in resolved.items()}

    def __call__(self, batch: Any) -> Any:
        from ._framing import add_headers, header_name

        pa = pyarrow()
        names = batch.schema.names
        arrays, fields = list(batch.columns), list(batch.schema)
        added = []
        for name, enc in self.columns.items():
            idx = names.index(name)
            arrays[idx] = enc.encode(batch.column(idx))
            fields[idx] = pa.field(name, pa.binary())
            if enc.id_header is not None:
                added.append((header_name(name), enc.id_header, arrays[idx].is_valid()))
        if added:
            idx = names.index("headers") if "headers" in names else -1
            merged = add_headers(arrays[idx] if idx >= 0 else None, added, batch.num_rows)
            if idx >= 0:
                arrays[idx], fields[idx] = merged, pa.field("headers", merged.type)
            else:
                arrays.append(merged)
                fields.append(pa.field("headers", merged.type))
        return pa.RecordBatch.from_arrays(arrays, schema=pa.schema(fields))
