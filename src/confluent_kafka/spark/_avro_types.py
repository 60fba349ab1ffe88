"""Avro schemas and Spark types, both ways, and the Arrow types that carry them.

Reading maps an Avro schema to the Spark type Spark's own ``from_avro`` gives it (the same table
as Spark's Avro documentation): records become structs, enums strings, fixed and bytes binary,
``decimal`` a decimal, ``date`` a date, ``timestamp-*`` a timestamp, ``local-timestamp-*`` a
timestamp without time zone, a union with null a nullable type, ``[int, long]`` a long,
``[float, double]`` a double, and any other union a struct with one nullable field per branch
(``member0``, ``member1``, ...). Writing maps a Spark type back to an Avro schema, as Spark's
``to_avro`` does, except that a nullable field becomes ``["null", T]`` with default null (the
order Schema Registry compatibility checks like best).

Decoding hands fastavro schemas whose date, time, timestamp and uuid logical types are removed,
so values come back as the plain ints and strings Arrow takes without a Python object per value
(:func:`strip_logical_types`); :func:`raw_arrow_type` is the Arrow type those plain values are
built into, cast afterwards to :func:`spark_arrow_type`, the type Spark expects.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from ._schema import pyarrow

Avro = Any  # a schema as JSON data: a type name, a dict, or a list (a union)

PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
NAMED = ("record", "enum", "fixed")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_DECIMAL_PRECISION = 38  # Spark's DecimalType limit

# Logical types decoded by Arrow from their plain values instead of by fastavro.
_STRIPPED = {"date", "time-millis", "time-micros", "timestamp-millis", "timestamp-micros",
             "local-timestamp-millis", "local-timestamp-micros", "uuid"}


class AvroSchemaError(ValueError):
    """An Avro schema that cannot be mapped to Spark (or a Spark type that cannot be mapped to
    Avro); the message names the field."""


def _types() -> Any:
    from pyspark.sql import types

    return types


def _kind(schema: Avro) -> str:
    """The Avro type name of ``schema``: a primitive, record, enum, fixed, array, map or union,
    or the name of a named type defined elsewhere."""
    if isinstance(schema, list):
        return "union"
    if isinstance(schema, dict):
        t = schema.get("type")
        return _kind(t) if isinstance(t, (dict, list)) else str(t)
    return str(schema)


def _fullname(schema: Dict[str, Any], namespace: Optional[str]) -> str:
    name = str(schema["name"])
    if "." in name:
        return name
    ns = schema.get("namespace", namespace)
    return f"{ns}.{name}" if ns else name


def _lookup(name: str, namespace: Optional[str], names: Dict[str, Any]) -> Any:
    if name in names:
        return names[name]
    if namespace and f"{namespace}.{name}" in names:
        return names[f"{namespace}.{name}"]
    return None


class _Walker:
    """One walk over an Avro schema, resolving named types (defined earlier in the schema)."""

    def __init__(self) -> None:
        self.names: Dict[str, Tuple[Dict[str, Any], Optional[str]]] = {}

    def resolve(self, schema: Avro, namespace: Optional[str], path: str) -> Tuple[Avro, Optional[str]]:
        """``schema`` with a named reference replaced by its definition, and its namespace."""
        if isinstance(schema, dict):
            t = schema.get("type")
            # {"type": {...}} / {"type": [...]} / {"type": "SomeName"}: the inner type.
            if isinstance(t, (dict, list)) or (isinstance(t, str) and t not in PRIMITIVES and t not in NAMED
                                               and t not in ("array", "map")):
                return self.resolve(t, namespace, path)
        if isinstance(schema, dict) and schema.get("type") in NAMED:
            full = _fullname(schema, namespace)
            self.names.setdefault(full, (schema, namespace))
            return schema, full.rpartition(".")[0] or None
        if isinstance(schema, str) and schema not in PRIMITIVES:
            found = _lookup(schema, namespace, self.names)
            if found is None:
                raise AvroSchemaError(f"{path}: the type {schema!r} is not defined before its use")
            definition, def_namespace = found
            full = _fullname(definition, def_namespace)
            return definition, full.rpartition(".")[0] or None
        return schema, namespace


def _logical(schema: Avro) -> Optional[str]:
    return schema.get("logicalType") if isinstance(schema, dict) else None


def _nonnull(branches: List[Avro]) -> List[Avro]:
    return [b for b in branches if _kind(b) != "null"]


# -- Avro -> Spark ---------------------------------------------------------------------------------

def avro_to_spark(schema: Avro) -> Any:
    """The Spark ``DataType`` of values decoded with ``schema`` (Avro JSON data or text).

    :param schema: the Avro schema.
    :returns: a ``pyspark.sql.types.DataType``; its nullability is that of a top-level union
        with null (:func:`avro_nullable`).
    :raises AvroSchemaError: for a recursive record, a decimal wider than 38 digits, a union
        whose branches decode to values that cannot be told apart, or an invalid schema.
    """
    if isinstance(schema, str) and schema.strip()[:1] in ("{", "["):
        schema = json.loads(schema)
    return _to_spark(_Walker(), schema, None, "value", set())[0]


def avro_nullable(schema: Avro) -> bool:
    """Whether values of ``schema`` may be null (null itself, or a union with null)."""
    if isinstance(schema, str) and schema.strip()[:1] in ("{", "["):
        schema = json.loads(schema)
    kind = _kind(schema)
    if kind == "union":
        branches = schema if isinstance(schema, list) else schema["type"]
        return any(_kind(b) == "null" for b in branches)
    return kind == "null"


def _union_members(walker: _Walker, branches: List[Avro], namespace: Optional[str], path: str) -> List[str]:
    """The Python kind of each branch after decoding, refusing unions whose branches share one
    (fastavro returns a bare value there, and which branch it came from would be lost)."""
    kinds: List[str] = []
    named = 0
    for b in branches:
        resolved, _ = walker.resolve(b, namespace, path)
        kind = _kind(resolved)
        named += kind in NAMED
        kinds.append({"boolean": "bool", "int": "int", "long": "int", "float": "float", "double": "float",
                      "bytes": "bytes", "fixed": "bytes", "string": "str", "enum": "str", "record": "dict",
                      "map": "dict", "array": "list"}.get(kind, kind))
    for i, k in enumerate(kinds):
        same = [j for j, other in enumerate(kinds) if other == k]
        if len(same) > 1:
            resolved = [_kind(walker.resolve(branches[j], namespace, path)[0]) for j in same]
            if named < 2 or any(r not in NAMED for r in resolved):
                raise AvroSchemaError(
                    f"{path}: the union {json.dumps(branches)} has branches ({', '.join(resolved)}) whose decoded "
                    f"values cannot be told apart, so its Spark struct (member0, member1, ...) cannot be filled")
    return kinds


def _to_spark(walker: _Walker, schema: Avro, namespace: Optional[str], path: str,
              seen: Set[str]) -> Tuple[Any, bool]:
    """``(DataType, nullable)`` of ``schema``."""
    T = _types()
    schema, namespace = walker.resolve(schema, namespace, path)
    kind = _kind(schema)
    logical = _logical(schema)
    if kind == "union":
        branches = schema if isinstance(schema, list) else schema["type"]
        if not isinstance(branches, list) or not branches:
            raise AvroSchemaError(f"{path}: an empty union")
        rest = _nonnull(branches)
        nullable = len(rest) < len(branches)
        if not rest:
            return T.NullType(), True
        if len(rest) == 1:
            return _to_spark(walker, rest[0], namespace, path, seen)[0], nullable
        kinds = {_kind(walker.resolve(b, namespace, path)[0]) for b in rest}
        if kinds == {"int", "long"} and not any(_logical(b) for b in rest):
            return T.LongType(), nullable
        if kinds == {"float", "double"}:
            return T.DoubleType(), nullable
        _union_members(walker, rest, namespace, path)
        fields = [T.StructField(f"member{i}", _to_spark(walker, b, namespace, f"{path}.member{i}", seen)[0], True)
                  for i, b in enumerate(rest)]
        return T.StructType(fields), nullable
    if kind == "null":
        return T.NullType(), True
    if kind == "boolean":
        return T.BooleanType(), False
    if kind == "int":
        return (T.DateType() if logical == "date" else T.IntegerType()), False
    if kind == "long":
        if logical in ("timestamp-millis", "timestamp-micros"):
            return T.TimestampType(), False
        if logical in ("local-timestamp-millis", "local-timestamp-micros"):
            return T.TimestampNTZType(), False
        return T.LongType(), False
    if kind == "float":
        return T.FloatType(), False
    if kind == "double":
        return T.DoubleType(), False
    if kind in ("bytes", "fixed"):
        if logical == "decimal":
            return _decimal(schema, path), False
        return T.BinaryType(), False
    if kind in ("string", "enum"):
        return T.StringType(), False
    if kind == "array":
        element, nullable = _to_spark(walker, schema["items"], namespace, f"{path}[]", seen)
        return T.ArrayType(element, nullable), False
    if kind == "map":
        value, nullable = _to_spark(walker, schema["values"], namespace, f"{path}{{}}", seen)
        return T.MapType(T.StringType(), value, nullable), False
    if kind == "record":
        full = _fullname(schema, namespace)
        if full in seen:
            raise AvroSchemaError(f"{path}: the record {full!r} contains itself; recursive records have no "
                                  f"Spark type")
        fields = []
        for f in schema.get("fields", []):
            name = f["name"]
            dtype, nullable = _to_spark(walker, f["type"], namespace, f"{path}.{name}", seen | {full})
            fields.append(T.StructField(name, dtype, nullable))
        return T.StructType(fields), False
    raise AvroSchemaError(f"{path}: unknown Avro type {kind!r}")


def _decimal(schema: Dict[str, Any], path: str) -> Any:
    precision, scale = schema.get("precision"), schema.get("scale", 0)
    if not isinstance(precision, int) or not isinstance(scale, int) or not 0 <= scale <= precision:
        raise AvroSchemaError(f"{path}: decimal with precision {precision!r} and scale {scale!r} is not valid")
    if precision > MAX_DECIMAL_PRECISION:
        raise AvroSchemaError(f"{path}: decimal({precision}, {scale}) is wider than Spark's 38 digits")
    return _types().DecimalType(precision, scale)


# -- Spark -> Arrow --------------------------------------------------------------------------------

def spark_arrow_type(dtype: Any) -> Any:
    """The Arrow type Spark uses for ``dtype`` in Arrow batches (timestamps in microseconds,
    UTC for ``timestamp``), as ``pyspark.sql.pandas.types.to_arrow_type`` makes it."""
    pa, T = pyarrow(), _types()
    if isinstance(dtype, T.StructType):
        return pa.struct([pa.field(f.name, spark_arrow_type(f.dataType), f.nullable) for f in dtype.fields])
    if isinstance(dtype, T.ArrayType):
        return pa.list_(pa.field("element", spark_arrow_type(dtype.elementType), dtype.containsNull))
    if isinstance(dtype, T.MapType):
        return pa.map_(pa.field("key", spark_arrow_type(dtype.keyType), False),
                       pa.field("value", spark_arrow_type(dtype.valueType), dtype.valueContainsNull))
    simple = {
        T.NullType: pa.null(), T.BooleanType: pa.bool_(), T.ByteType: pa.int8(), T.ShortType: pa.int16(),
        T.IntegerType: pa.int32(), T.LongType: pa.int64(), T.FloatType: pa.float32(),
        T.DoubleType: pa.float64(), T.StringType: pa.string(), T.BinaryType: pa.binary(),
        T.DateType: pa.date32(), T.TimestampType: pa.timestamp("us", tz="UTC"),
        T.TimestampNTZType: pa.timestamp("us"),
    }
    for cls, arrow in simple.items():
        if type(dtype) is cls:
            return arrow
    if isinstance(dtype, T.DecimalType):
        return pa.decimal128(dtype.precision, dtype.scale)
    raise AvroSchemaError(f"the Spark type {dtype.simpleString()} has no Arrow form here")


# -- decoding plan ---------------------------------------------------------------------------------

def strip_logical_types(schema: Avro) -> Avro:
    """``schema`` without the logical types Arrow converts itself (date, time, timestamp,
    local-timestamp, uuid): fastavro then returns their plain ints and strings. Decimals keep
    theirs. The encoding of a value is the same either way."""
    if isinstance(schema, list):
        return [strip_logical_types(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: Dict[str, Any] = {}
    for key, value in schema.items():
        if key == "logicalType" and value in _STRIPPED:
            continue
        if key in ("type", "items", "values"):
            out[key] = strip_logical_types(value)
        elif key == "fields" and isinstance(value, list):
            out[key] = [{**f, "type": strip_logical_types(f.get("type"))} for f in value]
        else:
            out[key] = value
    return out


Converter = Callable[[Any], Any]


def list_converter(item: Optional[Converter]) -> Optional[Converter]:
    """A converter of lists applying ``item`` to each element (None when ``item`` is None)."""
    if item is None:
        return None
    convert = item

    def each(v: Any) -> Any:
        return None if v is None else [convert(x) for x in v]

    return each


def map_converter(value: Optional[Converter]) -> Optional[Converter]:
    """A converter of dicts applying ``value`` to each value (None when ``value`` is None)."""
    if value is None:
        return None
    convert = value

    def each(v: Any) -> Any:
        return None if v is None else {k: convert(x) for k, x in v.items()}

    return each


def record_converter(fields: Dict[str, Converter]) -> Optional[Converter]:
    """A converter of record dicts applying each of ``fields`` to its field (None when empty)."""
    if not fields:
        return None
    items = list(fields.items())

    def each(v: Any) -> Any:
        if v is None:
            return None
        out = dict(v)
        for k, c in items:
            out[k] = c(v.get(k))
        return out

    return each


@dataclass
class ReadPlan:
    """How decoded values of one Avro reader schema become an Arrow column Spark takes.

    ``raw_type``: the Arrow type fastavro's plain values (logical types stripped) are built into;
    ``arrow_type``: the Spark Arrow type, cast to when it differs; ``convert``: a function
    rewriting decoded values before Arrow sees them (only for unions that become member
    structs), else None.
    """

    spark_type: Any
    nullable: bool
    raw_type: Any
    arrow_type: Any
    convert: Optional[Converter]


def read_plan(schema: Avro) -> ReadPlan:
    """The :class:`ReadPlan` of the reader schema ``schema`` (JSON data or text).

    :raises AvroSchemaError: as :func:`avro_to_spark`.
    """
    if isinstance(schema, str) and schema.strip()[:1] in ("{", "["):
        schema = json.loads(schema)
    walker = _Walker()
    spark_type, nullable = _to_spark(walker, schema, None, "value", set())
    raw, convert = _raw(_Walker(), schema, None, spark_type)
    return ReadPlan(spark_type, nullable, raw, spark_arrow_type(spark_type), convert)


def _raw(walker: _Walker, schema: Avro, namespace: Optional[str], dtype: Any) -> Tuple[Any, Optional[Converter]]:
    """Arrow type of plain decoded values of ``schema`` (whose Spark type is ``dtype``), and a
    converter of the values, or None when they need none."""
    pa, T = pyarrow(), _types()
    schema, namespace = walker.resolve(schema, namespace, "value")
    kind = _kind(schema)
    if kind == "union":
        branches = _nonnull(schema if isinstance(schema, list) else schema["type"])
        if not branches:
            return pa.null(), None
        if len(branches) == 1:
            return _raw(walker, branches[0], namespace, dtype)
        if not isinstance(dtype, T.StructType):  # [int, long] or [float, double]
            return spark_arrow_type(dtype), None
        members = [_raw(walker, b, namespace, f.dataType) for b, f in zip(branches, dtype.fields)]
        raw = pa.struct([pa.field(f.name, t, True) for f, (t, _) in zip(dtype.fields, members)])
        return raw, _union_converter(walker, branches, namespace, [c for _, c in members])
    if kind == "long" and _logical(schema) in ("timestamp-millis", "local-timestamp-millis"):
        return pa.timestamp("ms", tz="UTC" if _logical(schema) == "timestamp-millis" else None), None
    if kind == "array":
        item_t, item_c = _raw(walker, schema["items"], namespace, dtype.elementType)
        return pa.list_(pa.field("element", item_t, dtype.containsNull)), list_converter(item_c)
    if kind == "map":
        value_t, value_c = _raw(walker, schema["values"], namespace, dtype.valueType)
        return pa.map_(pa.field("key", pa.string(), False),
                       pa.field("value", value_t, dtype.valueContainsNull)), map_converter(value_c)
    if kind == "record":
        fields: List[Any] = []
        convs: Dict[str, Converter] = {}
        for f, sf in zip(schema.get("fields", []), dtype.fields):
            t, c = _raw(walker, f["type"], namespace, sf.dataType)
            fields.append(pa.field(sf.name, t, sf.nullable))
            if c is not None:
                convs[sf.name] = c
        return pa.struct(fields), record_converter(convs)
    return spark_arrow_type(dtype), None


def _union_converter(walker: _Walker, branches: List[Avro], namespace: Optional[str],
                     convs: List[Optional[Converter]]) -> Converter:
    """Puts a decoded union value into the member field of its branch. fastavro tags a value of
    a named type with its name when the union has more than one named type
    (``return_named_type_override``); other values are placed by their Python type."""
    by_name: Dict[str, int] = {}
    by_kind: Dict[type, int] = {}
    kinds = {"boolean": (bool,), "int": (int,), "long": (int,), "float": (float, int), "double": (float, int),
             "bytes": (bytes,), "fixed": (bytes,), "string": (str,), "enum": (str,), "record": (dict,),
             "map": (dict,), "array": (list,)}
    for i, b in enumerate(branches):
        resolved, ns = walker.resolve(b, namespace, "value")
        kind = _kind(resolved)
        if kind in NAMED:
            full = _fullname(resolved, ns)
            by_name[full] = i
            by_name.setdefault(str(resolved["name"]).rpartition(".")[2], i)
        for t in kinds.get(kind, ()):
            by_kind.setdefault(t, i)
    names = [f"member{i}" for i in range(len(branches))]

    def convert(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
            idx = by_name.get(value[0])
            if idx is None:
                idx = by_name.get(value[0].rpartition(".")[2])
            value = value[1]
        else:
            idx = by_kind.get(bool if isinstance(value, bool) else type(value))
        if idx is None:
            raise ValueError(f"a decoded union value of type {type(value).__name__} fits none of its branches")
        c = convs[idx]
        out = dict.fromkeys(names)
        out[names[idx]] = value if c is None else c(value)
        return out

    return convert


# -- Spark -> Avro (writes) ------------------------------------------------------------------------

TOP_RECORD = "topLevelRecord"


def spark_to_avro(dtype: Any, nullable: bool = False, name: str = TOP_RECORD,
                  namespace: Optional[str] = None) -> Avro:
    """The Avro schema Spark's ``to_avro`` would derive for ``dtype``, with nullable types as
    ``["null", T]`` (record fields then default to null). Nested records are named after their
    field, in the namespace of the enclosing record's full name.

    :param dtype: the Spark type.
    :param nullable: whether the value itself may be null.
    :param name: the name of a record.
    :param namespace: the namespace of a record.
    :returns: the Avro schema as JSON data.
    :raises AvroSchemaError: for a type with no Avro form (intervals, maps with non-string keys,
        names that are not Avro names).
    """
    T = _types()
    if isinstance(dtype, T.NullType):
        return "null"
    if isinstance(dtype, T.StructType):
        if not _NAME.fullmatch(name):
            raise AvroSchemaError(f"{name!r} is not an Avro name (letters, digits and _, not first a digit)")
        full = f"{namespace}.{name}" if namespace else name
        fields = []
        for f in dtype.fields:
            if not _NAME.fullmatch(f.name):
                raise AvroSchemaError(f"field {f.name!r} of {full} is not an Avro name (letters, digits and _)")
            ftype = spark_to_avro(f.dataType, f.nullable, f.name, full)
            field: Dict[str, Any] = {"name": f.name, "type": ftype}
            if f.nullable and not isinstance(f.dataType, T.NullType):
                field["default"] = None
            fields.append(field)
        base: Avro = {"type": "record", "name": name, **({"namespace": namespace} if namespace else {}),
                      "fields": fields}
    elif isinstance(dtype, T.ArrayType):
        base = {"type": "array", "items": spark_to_avro(dtype.elementType, dtype.containsNull, name, namespace)}
    elif isinstance(dtype, T.MapType):
        if not isinstance(dtype.keyType, T.StringType):
            raise AvroSchemaError(f"map keys of {name!r} are {dtype.keyType.simpleString()}; Avro maps need strings")
        base = {"type": "map", "values": spark_to_avro(dtype.valueType, dtype.valueContainsNull, name, namespace)}
    elif isinstance(dtype, T.DecimalType):
        base = {"type": "bytes", "logicalType": "decimal", "precision": dtype.precision, "scale": dtype.scale}
    elif isinstance(dtype, T.DateType):
        base = {"type": "int", "logicalType": "date"}
    elif isinstance(dtype, T.TimestampNTZType):
        base = {"type": "long", "logicalType": "local-timestamp-micros"}
    elif isinstance(dtype, T.TimestampType):
        base = {"type": "long", "logicalType": "timestamp-micros"}
    else:
        simple = {T.BooleanType: "boolean", T.ByteType: "int", T.ShortType: "int", T.IntegerType: "int",
                  T.LongType: "long", T.FloatType: "float", T.DoubleType: "double", T.StringType: "string",
                  T.BinaryType: "bytes"}
        found = next((a for cls, a in simple.items() if isinstance(dtype, cls)), None)
        if found is None:
            raise AvroSchemaError(f"{name!r}: the Spark type {dtype.simpleString()} has no Avro form")
        base = found
    return ["null", base] if nullable else base
