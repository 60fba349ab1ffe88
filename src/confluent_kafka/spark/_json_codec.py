"""Schema Registry framed JSON (``valueFormat=json``): JSON Schema to Spark types, and decoding
and encoding a whole Arrow batch at a time in Spark tasks.

Types: an ``object`` with ``properties`` is a struct (every field nullable: a JSON object may
leave any key out), an ``object`` with only ``additionalProperties`` a map<string, ...>, an
``array`` an array, ``integer`` a bigint (``int``/``smallint``/``tinyint`` with the
``connect.type`` annotations ``int32``/``int16``/``int8`` that Confluent's JSON converter
writes), ``number`` a double (``float`` with ``connect.type: float32``), ``string`` a string
(``format: date-time`` a timestamp, ``format: date`` a date, ``contentEncoding: base64`` or
``connect.type: bytes`` binary), ``boolean`` a boolean. A union with null (``type: [T,
"null"]``, or ``oneOf``/``anyOf`` with a ``null`` branch) is T, nullable. Anything else (no
type, other unions, a ``$ref`` that recurses, ``object`` with neither) is a string holding the
value's JSON text. ``$ref`` to ``#/...`` (``definitions``, ``$defs``) and to referenced
schemas is followed.

Decoding: the framing of every value is checked on the Arrow buffers, the payloads are copied
into one buffer of JSON lines (numpy, no Python call per row) and pyarrow's JSON reader parses
them in one call into the column's Arrow type. Columns it cannot build (maps, binary, JSON text
fields), and batches where it fails, are decoded with ``json.loads`` per record instead, which
also names the records at fault. No JSON Schema validation is done on reads (as Spark's
``from_json``); a value whose JSON does not fit the column's type is malformed.
"""

from __future__ import annotations

import base64
import datetime
import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from . import _framing
from ._avro_types import list_converter, map_converter, record_converter, spark_arrow_type
from ._registry import ResolvedSchema
from ._schema import pyarrow, through_structs


class JsonSchemaError(ValueError):
    """A JSON Schema or a Spark type that do not fit each other; the message names the field."""


# -- registry -----------------------------------------------------------------------------------

def registered_json(schema: Any, registry: Any, what: str) -> Tuple[str, Tuple[Tuple[str, str], ...]]:
    """The text of the JSON :class:`~confluent_kafka.schema_registry.Schema` ``schema`` and the
    texts of the schemas it references (recursively), by reference name.

    :raises ValueError: when a text is not JSON.
    """
    if schema.schema_str is None:
        raise ValueError(f"{what} has no schema text")
    refs: Dict[str, str] = {}

    def collect(s: Any) -> None:
        for ref in s.references or []:
            if ref.name in refs:
                continue
            found = registry.get_version(ref.subject, ref.version)
            refs[ref.name] = found.schema.schema_str or "true"
            collect(found.schema)

    collect(schema)
    for name, text in [("", schema.schema_str), *refs.items()]:
        try:
            json.loads(text)
        except ValueError as exc:
            raise ValueError(f"{what}{' reference ' + name if name else ''} is not JSON: {exc}") from None
    return schema.schema_str, tuple(sorted(refs.items()))


# -- JSON Schema -> a tree of kinds ----------------------------------------------------------------

@dataclass
class Node:
    """What a JSON Schema decodes to: ``kind`` (struct, array, map, string, text (the value's
    JSON text), long, int, short, byte, double, float, boolean, timestamp, date, binary, null)
    and its parts."""

    kind: str
    fields: List[Tuple[str, "Node"]] = field(default_factory=list)
    item: Optional["Node"] = None
    required: Set[str] = field(default_factory=set)
    closed: bool = False


_TEXT = Node("text")


class _Resolver:
    def __init__(self, root: Any, refs: Dict[str, Any]) -> None:
        self.root = root
        self.refs = refs

    def _pointer(self, doc: Any, pointer: str) -> Any:
        for part in [p for p in pointer.lstrip("/").split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(doc, list) and part.isdigit() and int(part) < len(doc):
                doc = doc[int(part)]
            elif isinstance(doc, dict) and part in doc:
                doc = doc[part]
            else:
                return None
        return doc

    def deref(self, schema: Any) -> Tuple[Any, Optional[str]]:
        """``schema`` with ``$ref`` followed (None where it leads nowhere), and the ref."""
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(ref, str):
            return schema, None
        doc_name, _, pointer = ref.partition("#")
        doc = self.root if not doc_name else self.refs.get(doc_name)
        return (None if doc is None else self._pointer(doc, pointer)), ref


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null" and len(schema) <= 2


def _node(r: _Resolver, schema: Any, seen: Tuple[str, ...]) -> Node:
    if schema is True or schema == {} or not isinstance(schema, dict):
        return _TEXT if schema is not False else Node("null")
    schema, ref = r.deref(schema)
    if ref is not None:
        if schema is None or ref in seen:
            return _TEXT
        seen = seen + (ref,)
        if not isinstance(schema, dict):
            return _TEXT
    for union in ("oneOf", "anyOf"):
        if union in schema and "type" not in schema and "properties" not in schema:
            branches = [b for b in schema[union] if not _is_null(b)]
            return _node(r, branches[0], seen) if len(branches) == 1 else _TEXT
    if "allOf" in schema and "type" not in schema and "properties" not in schema:
        return _node(r, schema["allOf"][0], seen) if len(schema["allOf"]) == 1 else _TEXT
    t = schema.get("type")
    if isinstance(t, list):
        rest = [x for x in t if x != "null"]
        if set(rest) == {"integer", "number"}:
            t = "number"
        elif len(rest) == 1:
            t = rest[0]
        else:
            return Node("null") if not rest else _TEXT
    if t is None:
        if "properties" in schema:
            t = "object"
        elif "items" in schema:
            t = "array"
        else:
            values = schema.get("enum", [schema["const"]] if "const" in schema else None)
            return Node("string") if values and all(isinstance(v, str) for v in values) else _TEXT
    connect = schema.get("connect.type")
    if t == "object":
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        if isinstance(props, dict) and props:
            return Node("struct", [(str(k), _node(r, v, seen)) for k, v in props.items()],
                        required=set(schema.get("required") or []), closed=extra is False)
        if isinstance(extra, dict) and extra:
            return Node("map", item=_node(r, extra, seen))
        return _TEXT
    if t == "array":
        items = schema.get("items")
        return Node("array", item=_node(r, items, seen) if isinstance(items, dict) else _TEXT)
    if t == "string":
        fmt = schema.get("format")
        if fmt == "date-time":
            return Node("timestamp")
        if fmt == "date":
            return Node("date")
        if schema.get("contentEncoding") == "base64" or connect == "bytes":
            return Node("binary")
        return Node("string")
    if t == "integer":
        return Node({"int8": "byte", "int16": "short", "int32": "int"}.get(connect, "long"))
    if t == "number":
        return Node("float" if connect == "float32" else "double")
    if t in ("boolean", "null"):
        return Node(t)
    return _TEXT


def schema_node(resolved: ResolvedSchema) -> Node:
    """The :class:`Node` of the JSON Schema of ``resolved``."""
    refs = {name: json.loads(text) for name, text in resolved.references}
    root = json.loads(resolved.schema)
    return _node(_Resolver(root, refs), root, ("#",))


def spark_type(node: Node) -> Any:
    """The Spark type of ``node``."""
    from pyspark.sql import types as T

    if node.kind == "struct":
        return T.StructType([T.StructField(n, spark_type(c), True) for n, c in node.fields])
    if node.kind == "array":
        assert node.item is not None
        return T.ArrayType(spark_type(node.item), True)
    if node.kind == "map":
        assert node.item is not None
        return T.MapType(T.StringType(), spark_type(node.item), True)
    return {"string": T.StringType, "text": T.StringType, "long": T.LongType, "int": T.IntegerType,
            "short": T.ShortType, "byte": T.ByteType, "double": T.DoubleType, "float": T.FloatType,
            "boolean": T.BooleanType, "timestamp": T.TimestampType, "date": T.DateType,
            "binary": T.BinaryType, "null": T.NullType}[node.kind]()


def _fast(node: Node) -> bool:
    """Whether pyarrow's JSON reader can build ``node`` (no maps, binary or JSON text)."""
    if node.kind in ("map", "binary", "text"):
        return False
    if node.kind == "struct":
        return all(_fast(c) for _, c in node.fields)
    if node.kind == "array":
        assert node.item is not None
        return _fast(node.item)
    return True


def _raw_type(node: Node) -> Any:
    """The Arrow type pyarrow's JSON reader builds ``node`` into (dates as strings)."""
    pa = pyarrow()
    if node.kind == "struct":
        return pa.struct([pa.field(n, _raw_type(c)) for n, c in node.fields])
    if node.kind == "array":
        assert node.item is not None
        return pa.list_(pa.field("element", _raw_type(node.item)))
    if node.kind == "date":
        return pa.string()
    return spark_arrow_type(spark_type(node))


# -- decoding -------------------------------------------------------------------------------------

class _Bad(ValueError):
    pass


_RANGES = {"byte": 1 << 7, "short": 1 << 15, "int": 1 << 31, "long": 1 << 63}


def _converter(node: Node, path: str) -> Callable[[Any], Any]:
    """A function turning ``json.loads`` output into the Python value Arrow builds ``node``
    from; raises ``_Bad`` naming ``path`` for a value of another JSON type."""
    kind = node.kind

    def bad(v: Any) -> _Bad:
        return _Bad(f"{path or 'the value'} is {json.dumps(v)[:80]}, not {'an' if kind[0] in 'aeiou' else 'a'} "
                    f"{kind}")

    if kind == "struct":
        parts = [(n, _converter(c, f"{path}.{n}" if path else n)) for n, c in node.fields]

        def struct(v: Any) -> Any:
            if v is None:
                return None
            if not isinstance(v, dict):
                raise bad(v)
            return {n: c(v.get(n)) for n, c in parts}

        return struct
    if kind in ("array", "map"):
        assert node.item is not None
        each = _converter(node.item, f"{path}[]" if kind == "array" else f"{path}{{}}")
        want = list if kind == "array" else dict

        def many(v: Any) -> Any:
            if v is None:
                return None
            if not isinstance(v, want):
                raise bad(v)
            if isinstance(v, dict):
                return {k: each(x) for k, x in v.items()}
            return [each(x) for x in v]

        return many
    if kind == "text":
        return lambda v: v if v is None or isinstance(v, str) else json.dumps(v, separators=(",", ":"))
    if kind in _RANGES:
        limit = _RANGES[kind]

        def integer(v: Any) -> Any:
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, int) or not -limit <= v < limit:
                raise bad(v)
            return v

        return integer

    def scalar(v: Any) -> Any:
        if v is None:
            return None
        try:
            if kind in ("double", "float"):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise bad(v)
                return float(v)
            if kind == "boolean":
                if not isinstance(v, bool):
                    raise bad(v)
                return v
            if not isinstance(v, str) or kind == "null":
                raise bad(v)
            if kind == "timestamp":
                t = datetime.datetime.fromisoformat(v)
                return t if t.tzinfo is not None else t.replace(tzinfo=datetime.timezone.utc)
            if kind == "date":
                return datetime.date.fromisoformat(v)
            if kind == "binary":
                return base64.b64decode(v, validate=True)
            return v
        except (ValueError, TypeError) as exc:
            if isinstance(exc, _Bad):
                raise
            raise _Bad(f"{path or 'the value'} is {json.dumps(v)[:80]}, not a {kind}: {exc}") from None

    return scalar


@dataclass
class JsonPlan:
    """How a JSON column is read: its Spark type, the Arrow type Spark takes, and the way in."""

    spark_type: Any
    arrow_type: Any
    raw_type: Any  # what pyarrow's JSON reader builds, or None when it cannot
    convert: Callable[[Any], Any]


def read_plan(resolved: ResolvedSchema) -> JsonPlan:
    """The :class:`JsonPlan` of the JSON Schema of ``resolved``."""
    node = schema_node(resolved)
    st = spark_type(node)
    return JsonPlan(st, spark_arrow_type(st), _raw_type(node) if _fast(node) else None, _converter(node, ""))


_PREFIX = b'{"v":'
_SUFFIX = b"}\n"


def json_lines(data: Any, starts: Any, lengths: Any, skip: int = _framing.HEADER) -> bytes:
    """The payloads ``data[starts + skip : starts + lengths]`` as JSON lines ``{"v":<payload>}``,
    line breaks inside a payload turned into spaces (JSON allows them only as whitespace)."""
    import numpy as np

    n = len(starts)
    sizes = lengths - skip
    total = int(sizes.sum())
    extra = len(_PREFIX) + len(_SUFFIX)
    out_starts = np.zeros(n, np.int64)
    if n > 1:
        out_starts[1:] = np.cumsum(sizes[:-1] + extra)
    out = np.empty(total + extra * n, np.uint8)
    if total:
        within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        src = np.repeat(starts + skip, sizes) + within
        payload = data[src]
        payload[(payload == 10) | (payload == 13)] = 32
        out[np.repeat(out_starts + len(_PREFIX), sizes) + within] = payload
    prefix = np.frombuffer(_PREFIX, np.uint8)
    out[(out_starts[:, None] + np.arange(len(_PREFIX))).ravel()] = np.tile(prefix, n)
    end = out_starts + len(_PREFIX) + sizes
    out[end] = _SUFFIX[0]
    out[end + 1] = _SUFFIX[1]
    framed: bytes = out.tobytes()  # typed even where numpy is missing and mypy sees Any
    return framed


def object_lines(data: Any, starts: Any, lengths: Any) -> bytes:
    """The values ``data[starts : starts + lengths]``, which lie one after the other (as in an
    Arrow binary array), as JSON lines: each 5-byte framing becomes four spaces and a line
    break, so each payload starts a line; line breaks inside a payload become spaces. One copy
    of the buffer, no gather (pyarrow's JSON reader skips the blank first line)."""
    import numpy as np

    first = int(starts[0])
    buf = data[first:int(starts[-1] + lengths[-1])].copy()
    buf[(buf == 10) | (buf == 13)] = 32
    rel = starts - first
    buf[(rel[:, None] + np.arange(_framing.HEADER - 1)).ravel()] = 32
    buf[rel + _framing.HEADER - 1] = 10
    text: bytes = buf.tobytes()
    return text


class ColumnDecoder(_framing.ColumnDecoderBase):
    """Decodes one column (key or value) of framed JSON into the planned Spark type."""

    kind = "JSON"
    read_plan = staticmethod(read_plan)

    def _fast(self, text: bytes, count: int, objects: bool = False) -> Optional[Any]:
        """pyarrow's JSON reader over ``text``: lines ``{"v": <payload>}``, or with ``objects``
        the payloads themselves (JSON objects of the planned struct)."""
        pa = pyarrow()
        pj = importlib.import_module("pyarrow.json")
        raw = self.plan.raw_type
        schema = pa.schema(list(raw)) if objects else pa.schema([pa.field("v", raw)])
        try:
            table = pj.read_json(
                pa.BufferReader(text),
                read_options=pj.ReadOptions(use_threads=False, block_size=max(1 << 20, len(text) + 1)),
                parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
        if table.num_rows != count:
            return None
        if objects:
            column = pa.StructArray.from_arrays([c.combine_chunks() for c in table.columns], fields=list(raw))
        else:
            column = table.column("v").combine_chunks()
        return column if column.type == self.plan.arrow_type else column.cast(self.plan.arrow_type)

    def decode(self, column: Any, headers: Any = None) -> Tuple[Any, Dict[int, str]]:
        """As :meth:`ColumnDecoderBase.decode`; pyarrow's JSON reader parses the column where it can."""
        import numpy as np

        pa = pyarrow()
        column = _framing.binary(column)
        framed = _framing.check(column, headers, self.field)
        bad = framed.bad
        ok = framed.ok
        for schema_id in np.unique(framed.ids[ok]).tolist():
            why = self.ids.error(framed.ref(schema_id))
            if why is not None:
                rows = np.nonzero(ok & (framed.ids == schema_id))[0]
                for i in rows.tolist():
                    bad[i] = why
                ok = ok.copy()
                ok[rows] = False
        rows = np.nonzero(ok)[0]
        n = len(column)
        if self.plan.raw_type is not None and len(rows):
            parsed = None
            if (len(rows) == n and pa.types.is_struct(self.plan.raw_type) and self.plan.raw_type.num_fields
                    and framed.prefix_size() == _framing.HEADER
                    and bool((framed.lengths > _framing.HEADER).all())
                    and bool((framed.data[framed.starts + _framing.HEADER] == ord("{")).all())):
                # every value a framed JSON object: the buffer as it is, framings turned into line breaks
                parsed = self._fast(object_lines(framed.data, framed.starts, framed.lengths), n, objects=True)
                if parsed is not None:
                    return parsed, bad
            body = framed.body[rows]
            text = json_lines(framed.data, body, framed.starts[rows] + framed.lengths[rows] - body, 0)
            parsed = self._fast(text, len(rows))
            if parsed is not None:
                if len(rows) == n:
                    return parsed, bad
                # back into place: null for the rows not read
                where = np.full(n, -1, np.int64)
                where[rows] = np.arange(len(rows))
                index = pa.array(where, mask=where < 0)
                return parsed.take(index), bad
        values: List[Any] = [None] * n
        convert = self.plan.convert
        data = framed.data
        for i in rows.tolist():
            start, end = int(framed.body[i]), int(framed.starts[i] + framed.lengths[i])
            try:
                values[i] = convert(json.loads(data[start:end].tobytes()))
            except _Bad as exc:
                bad[i] = f"does not fit the column's type: {exc}"
            except ValueError as exc:
                bad[i] = f"is not JSON: {exc}"
        return pa.array(values, type=self.plan.arrow_type), bad


# -- Spark -> JSON Schema (writes) ----------------------------------------------------------------

def spark_to_json_schema(dtype: Any, nullable: bool = False) -> Dict[str, Any]:
    """The JSON Schema of the Spark type ``dtype``: structs as closed objects whose non-nullable
    fields are required, nullable values as ``oneOf`` with null, and the ``connect.type``
    annotations of Confluent's JSON converter for the narrow numbers and bytes.

    :raises JsonSchemaError: for a type with no JSON form (maps with non-string keys, intervals).
    """
    from pyspark.sql import types as T

    base: Dict[str, Any]
    if isinstance(dtype, T.NullType):
        return {"type": "null"}
    if isinstance(dtype, T.StructType):
        base = {"type": "object", "properties": {f.name: spark_to_json_schema(f.dataType, f.nullable)
                                                 for f in dtype.fields},
                "additionalProperties": False}
        required = [f.name for f in dtype.fields if not f.nullable]
        if required:
            base["required"] = required
    elif isinstance(dtype, T.ArrayType):
        base = {"type": "array", "items": spark_to_json_schema(dtype.elementType, dtype.containsNull)}
    elif isinstance(dtype, T.MapType):
        if not isinstance(dtype.keyType, T.StringType):
            raise JsonSchemaError(f"map keys are {dtype.keyType.simpleString()}; JSON object keys are strings")
        base = {"type": "object", "additionalProperties": spark_to_json_schema(dtype.valueType,
                                                                               dtype.valueContainsNull)}
    elif isinstance(dtype, (T.TimestampType, T.TimestampNTZType)):
        base = {"type": "string", "format": "date-time"}
    elif isinstance(dtype, T.DateType):
        base = {"type": "string", "format": "date"}
    elif isinstance(dtype, T.BinaryType):
        base = {"type": "string", "contentEncoding": "base64", "connect.type": "bytes"}
    elif isinstance(dtype, T.ByteType):
        base = {"type": "integer", "connect.type": "int8"}
    elif isinstance(dtype, T.ShortType):
        base = {"type": "integer", "connect.type": "int16"}
    elif isinstance(dtype, T.IntegerType):
        base = {"type": "integer", "connect.type": "int32"}
    elif isinstance(dtype, T.LongType):
        base = {"type": "integer"}
    elif isinstance(dtype, T.FloatType):
        base = {"type": "number", "connect.type": "float32"}
    elif isinstance(dtype, (T.DoubleType, T.DecimalType)):
        base = {"type": "number"}
    elif isinstance(dtype, T.StringType):
        base = {"type": "string"}
    elif isinstance(dtype, T.BooleanType):
        base = {"type": "boolean"}
    else:
        raise JsonSchemaError(f"the Spark type {dtype.simpleString()} has no JSON form")
    return {"oneOf": [{"type": "null"}, base]} if nullable else base


_FITS = {
    "long": ("ByteType", "ShortType", "IntegerType", "LongType"),
    "int": ("ByteType", "ShortType", "IntegerType"),
    "short": ("ByteType", "ShortType"),
    "byte": ("ByteType",),
    "double": ("ByteType", "ShortType", "IntegerType", "LongType", "FloatType", "DoubleType", "DecimalType"),
    "float": ("ByteType", "ShortType", "IntegerType", "FloatType"),
    "string": ("StringType",),
    "timestamp": ("TimestampType", "TimestampNTZType"),
    "date": ("DateType",),
    "binary": ("BinaryType",),
    "boolean": ("BooleanType",),
    "null": ("NullType",),
}


def _check(node: Node, dtype: Any, path: str) -> None:
    from pyspark.sql import types as T

    def mismatch() -> JsonSchemaError:
        return JsonSchemaError(f"{path}: the column is {dtype.simpleString()}, the JSON schema has "
                               f"{'an object' if node.kind == 'struct' else node.kind} there")

    if node.kind == "text":
        return
    if node.kind == "struct":
        if not isinstance(dtype, T.StructType):
            raise mismatch()
        props = dict(node.fields)
        for f in dtype.fields:
            if f.name in props:
                _check(props[f.name], f.dataType, f"{path}.{f.name}")
            elif node.closed:
                raise JsonSchemaError(f"{path}.{f.name}: the JSON schema's object has no property {f.name!r} "
                                      f"and allows no other (it has {', '.join(props)})")
        missing = sorted(node.required - set(dtype.fieldNames()))
        if missing:
            raise JsonSchemaError(f"{path}: the column has no field {missing[0]!r}, which the JSON schema requires")
        return
    if node.kind == "array":
        if not isinstance(dtype, T.ArrayType):
            raise mismatch()
        assert node.item is not None
        _check(node.item, dtype.elementType, f"{path}[]")
        return
    if node.kind == "map":
        if not isinstance(dtype, T.MapType) or not isinstance(dtype.keyType, T.StringType):
            raise mismatch()
        assert node.item is not None
        _check(node.item, dtype.valueType, f"{path}{{}}")
        return
    if type(dtype).__name__ not in _FITS[node.kind]:
        raise mismatch()


def check_writable(resolved: ResolvedSchema, dtype: Any) -> None:
    """Refuse, before any task runs, a column that does not fit its JSON Schema.

    :raises ValueError: naming the field that does not fit.
    """
    try:
        _check(schema_node(resolved), dtype, resolved.field)
    except JsonSchemaError as exc:
        raise _framing.does_not_fit(resolved, exc) from None


# -- encoding -------------------------------------------------------------------------------------

def _arrow_ready(column: Any, dtype: Any) -> Any:
    """``column`` (of Spark type ``dtype``) with its timestamps, dates and decimals turned into
    ISO text and floats by Arrow, through structs (not inside arrays and maps, which
    :func:`_to_json_value` converts in Python): no Python datetime per value."""
    from pyspark.sql import types as T

    pa, pc = pyarrow(), importlib.import_module("pyarrow.compute")

    def leaf(col: Any, t: Any) -> Any:
        if isinstance(t, T.TimestampType):
            return pc.strftime(col, format="%Y-%m-%dT%H:%M:%SZ")
        if isinstance(t, T.TimestampNTZType):
            return pc.strftime(col, format="%Y-%m-%dT%H:%M:%S")
        if isinstance(t, T.DateType):
            return col.cast(pa.string())
        if isinstance(t, T.DecimalType):
            return col.cast(pa.float64())
        return col

    return through_structs(column, dtype, leaf)


def _to_json_value(dtype: Any, arrow_done: bool = False) -> Optional[Callable[[Any], Any]]:
    """A converter of the Python values of a column of ``dtype`` into JSON data (None when
    they are JSON data already); ``arrow_done``: timestamps, dates and decimals were already
    converted by :func:`_arrow_ready` (true through structs from the top)."""
    from pyspark.sql import types as T

    if isinstance(dtype, T.StructType):
        parts = [(f.name, _to_json_value(f.dataType, arrow_done)) for f in dtype.fields]
        return record_converter({n: c for n, c in parts if c is not None})
    if isinstance(dtype, T.ArrayType):
        return list_converter(_to_json_value(dtype.elementType))
    if isinstance(dtype, T.MapType):
        return map_converter(_to_json_value(dtype.valueType))
    if isinstance(dtype, T.BinaryType):
        return lambda v: None if v is None else base64.b64encode(v).decode("ascii")
    if arrow_done:
        return None
    if isinstance(dtype, (T.TimestampType, T.TimestampNTZType)):
        def stamp(v: Any) -> Any:
            if v is None:
                return None
            text = v.isoformat(timespec="microseconds")
            return text[:-6] + "Z" if text.endswith("+00:00") else text

        return stamp
    if isinstance(dtype, T.DateType):
        return lambda v: None if v is None else v.isoformat()
    if isinstance(dtype, T.DecimalType):
        return lambda v: None if v is None else float(v)
    return None


class ColumnEncoder:
    """Encodes one Arrow column (key or value) as framed JSON text with a registered schema id."""

    def __init__(self, resolved: ResolvedSchema, spark_type: Any, writing: Any = None) -> None:
        self.resolved = resolved
        self.header, self.id_header = _framing.framing(resolved, writing)
        self.spark_type = spark_type
        self.convert = _to_json_value(spark_type, arrow_done=True)

    def encode(self, column: Any) -> Any:
        """The framed JSON of every value of ``column`` (null stays null)."""
        from ._avro_codec import _rows

        convert = self.convert
        dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
        return _framing.framed_rows(self.resolved, self.header, _rows(_arrow_ready(column, self.spark_type)),
                                    lambda v: dumps(v if convert is None else convert(v)).encode(),
                                    "cannot be written as JSON")


__all__ = ["ColumnDecoder", "ColumnEncoder", "JsonSchemaError", "check_writable", "read_plan",
           "registered_json", "spark_to_json_schema"]
