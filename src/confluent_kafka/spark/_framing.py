"""Confluent's schema id framing of Kafka values, checked on a whole Arrow column at once.

A value names the schema it was written with in one of the ways the library's serializers
write and its ``dual_schema_id_deserializer`` reads:

* a prefix of the value: magic byte 0 and the 4-byte big-endian schema id (the classic
  framing), or magic byte 1 and the 16-byte schema guid;
* a record header, ``__value_schema_id`` (``__key_schema_id`` for keys), holding one of those
  two prefixes; the value is then the encoded record alone. A header wins over a prefix.

For Protobuf the message indexes follow the id (in the value, or in the header). The checks of
prefixes run on the Arrow buffers with numpy: no bytes object per row.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from ._registry import RegistryOptions, ResolvedSchema, client
from ._schema import pyarrow, pyarrow_compute

MAGIC = 0
MAGIC_GUID = 1
HEADER = 5  # magic byte + 4-byte schema id
GUID_HEADER = 17  # magic byte + 16-byte schema guid

#: What ``<field>SchemaIdSerializer`` (writes) and ``<field>SchemaIdDeserializer`` (reads) accept.
SERIALIZERS = ("prefix", "header")
DESERIALIZERS = ("dual", "prefix")

#: A schema as a record names it: its id, or its guid (text).
Ref = Union[int, str]


def header_name(field_name: str) -> str:
    """The header carrying the schema id of the ``key`` or ``value``."""
    return f"__{field_name}_schema_id"


def describe(ref: Ref) -> str:
    """``schema id 7`` or ``schema guid 0f3...``."""
    return f"schema guid {ref}" if isinstance(ref, str) else f"schema id {ref}"


def fetch(registry: Any, ref: Ref, fmt: Optional[str] = None) -> Any:
    """The registry's :class:`~confluent_kafka.schema_registry.Schema` that ``ref`` names, fetched
    as the deserializers fetch a writer schema (``writer_schema_op``).

    :raises SchemaRegistryError: as the registry answers (see :func:`not_held` for a 404).
    """
    from ..schema_registry.common.serde import SchemaId, run_sync, writer_schema_op

    named = SchemaId("", guid=ref) if isinstance(ref, str) else SchemaId("", ref)
    return run_sync(writer_schema_op(named, None, fmt, None), registry)


def not_held(exc: Exception, ref: Ref) -> str:
    """Why the records naming ``ref`` are not read: the registry does not hold it (``exc``, its 404).

    :raises Exception: ``exc`` itself, when it is not a 404.
    """
    if getattr(exc, "http_status_code", None) != 404:
        raise exc
    return f"names {describe(ref)}, which the Schema Registry does not hold ({exc.__cause__ or exc})"


class SchemaIds:
    """Which schema ids a column's records may carry: ids the registry holds, of ``kind``;
    looked up once per id."""

    def __init__(self, registry: RegistryOptions, kind: str, registry_client: Any = None) -> None:
        self.registry = registry
        self.kind = kind
        self._client = registry_client
        self._seen: Dict[Any, Optional[str]] = {}

    def registry_client(self) -> Any:
        """The process's registry client."""
        return self._client if self._client is not None else client(self.registry)

    def error(self, schema_id: "Ref", fmt: Optional[str] = None) -> Optional[str]:
        """Why records with ``schema_id`` (an id, or a guid) cannot be read, or None."""
        if schema_id in self._seen:
            return self._seen[schema_id]
        from ..schema_registry import SchemaRegistryError

        why: Optional[str] = None
        try:
            schema = fetch(self.registry_client(), schema_id, fmt)
            kind = (schema.schema_type or "AVRO").upper()
            if kind != self.kind:
                why = f"names {describe(schema_id)}, a {kind} schema, not {self.kind}"
        except SchemaRegistryError as exc:
            why = not_held(exc, schema_id)
        self._seen[schema_id] = why
        return why


class ColumnDecoderBase:
    """What the JSON and Protobuf decoders of one column (key or value) share: the column's
    read plan, and the schema ids of ``kind`` its records may name."""

    kind = ""
    read_plan: Any  # the codec's ``read_plan(resolved)``

    def __init__(self, resolved: ResolvedSchema, registry: RegistryOptions, registry_client: Any = None) -> None:
        self.resolved = resolved
        self.field = resolved.field
        self.plan = self.read_plan(resolved)
        self.ids = SchemaIds(registry, self.kind, registry_client)

    def decode(self, column: Any, headers: Any = None) -> Tuple[Any, Dict[int, str]]:
        """Decode the binary Arrow array ``column``; with ``headers`` (the batch's headers
        column) a ``__<field>_schema_id`` header names a record's schema first.

        :returns: the Arrow array of the column's Spark type (null where the value is null or
            could not be decoded) and ``{row: why}`` for the rows that could not be decoded.
        """
        raise NotImplementedError


def does_not_fit(resolved: Any, exc: Exception) -> ValueError:
    """The error of a write whose column does not fit the schema ``resolved`` (``exc`` says where)."""
    return ValueError(f"the {resolved.field} column does not fit {resolved.describe()}: {exc}")


def row_not_written(resolved: Any, row: int, what: str, exc: Exception) -> Exception:
    """The error of a write for ``row`` of a batch, whose value ``what`` (``does not encode as ...``)."""
    from ..serialization import SerializationError

    return SerializationError(f"the {resolved.field} of row {row} of this batch {what}: {exc}")


def framed_rows(resolved: Any, header: bytes, values: Iterable[Any], encode: Callable[[Any], bytes], what: str) -> Any:
    """The binary Arrow array of ``header + encode(value)`` for each of ``values`` (null for None).

    :raises SerializationError: naming the row whose value ``encode`` refuses with ValueError or
        TypeError; ``what`` says what it did not do (``cannot be written as JSON``).
    """
    out: List[Optional[bytes]] = []
    for row, v in enumerate(values):
        if v is None:
            out.append(None)
            continue
        try:
            out.append(header + encode(v))
        except (ValueError, TypeError) as exc:
            raise row_not_written(resolved, row, what, exc) from exc
    pa = pyarrow()
    return pa.array(out, pa.binary())


@dataclass
class Framed:
    """How every value of one binary column names its schema.

    ``ok``: the rows whose schema is named (bool array); ``ids``: per row a key of the schema
    (the id itself, or a negative key of a guid: :meth:`ref` turns a key into the id or guid);
    ``starts`` and ``lengths``: where each value's bytes are in ``data`` (the column's data
    buffer as uint8); ``body``: where each value's encoded record starts (after any prefix);
    ``bad``: ``{row: why}`` for the non-null rows whose schema is not named. ``header_rest``:
    for rows named by a header, the header's bytes after the id (Protobuf's message indexes).
    """

    ok: Any
    ids: Any
    starts: Any
    lengths: Any
    data: Any
    bad: Dict[int, str]
    body: Any = None
    guids: Tuple[str, ...] = ()
    header_rest: Dict[int, bytes] = field(default_factory=dict)

    def ref(self, key: int) -> Ref:
        """The schema id or guid of the key ``key`` of :attr:`ids`."""
        key = int(key)
        return key if key >= 0 else self.guids[-key - 1]

    def prefix_size(self) -> Optional[int]:
        """The size of the prefix of every value when they all have the same, else None."""
        import numpy as np

        if not len(self.starts):
            return None
        sizes = np.unique((self.body - self.starts)[self.ok])
        return int(sizes[0]) if len(sizes) == 1 and bool(self.ok.all()) else None


def binary(column: Any) -> Any:
    """``column`` as an Arrow binary array (a string column is cast)."""
    pa = pyarrow()
    return column if column.type == pa.binary() else column.cast(pa.binary())


_NOT_FRAMED = ("not the Schema Registry framing (magic byte 0x00 and a 4-byte schema id, or 0x01 and a "
               "16-byte schema guid, nor a {header} header): it was not written by a Schema Registry serializer")


def _header_values(headers: Any, name: str, n: int) -> Dict[int, bytes]:
    """``{row: value}`` of the first header ``name`` with a value of each row of the Arrow list
    column ``headers`` (list<struct<key, value>>)."""
    import numpy as np

    pa = pyarrow()
    pc = pyarrow_compute()
    if headers is None or headers.null_count == len(headers):
        return {}
    flat = headers.flatten()
    if not len(flat):
        return {}
    keys, values = flat.field("key"), flat.field("value")
    hit = pc.and_(pc.equal(keys, pa.scalar(name)), pc.is_valid(values))
    hit = hit.fill_null(False).to_numpy(zero_copy_only=False)
    if not hit.any():
        return {}
    parents = pc.list_parent_indices(headers).to_numpy(zero_copy_only=False)
    where = np.nonzero(hit)[0]
    rows, first = np.unique(parents[where], return_index=True)
    chosen = values.take(pa.array(where[first])).to_pylist()
    return {int(r): bytes(v) for r, v in zip(rows.tolist(), chosen)}


def check(column: Any, headers: Any = None, field_name: str = "value") -> Framed:
    """Check how each value of the binary Arrow array ``column`` names its schema (see
    :class:`Framed`); with ``headers`` (the batch's headers column: the dual deserializer) a
    ``__<field>_schema_id`` header names it first."""
    import numpy as np

    n = len(column)
    offsets = np.frombuffer(column.buffers()[1], dtype=np.int32, count=n + 1, offset=4 * column.offset)
    data_buf = column.buffers()[2]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    valid = np.ones(n, bool) if column.null_count == 0 else column.is_valid().to_numpy(zero_copy_only=False)
    starts, lengths = offsets[:-1].astype(np.int64), np.diff(offsets).astype(np.int64)
    first = np.full(n, 255, np.uint8)
    some = valid & (lengths > 0)
    first[some] = data[starts[some]]
    classic = valid & (lengths >= HEADER) & (first == MAGIC)
    guid = valid & (lengths >= GUID_HEADER) & (first == MAGIC_GUID)
    ok = classic | guid
    body = starts + np.where(guid, GUID_HEADER, HEADER)
    from_header = _header_values(headers, header_name(field_name), n) if headers is not None else {}
    hdr = np.zeros(n, bool)
    if from_header:
        hdr[list(from_header)] = True
        hdr &= valid
        ok = ok & ~hdr
        classic &= ~hdr
        guid &= ~hdr
    bad: Dict[int, str] = {}
    not_framed = _NOT_FRAMED.format(header=header_name(field_name))
    for i in np.nonzero(valid & ~ok & ~hdr)[0].tolist():
        length, magic = int(lengths[i]), int(first[i])
        if length and magic in (MAGIC, MAGIC_GUID):
            need = HEADER if magic == MAGIC else GUID_HEADER
            bad[i] = f"is {length} byte(s) long, shorter than the {need}-byte Schema Registry framing"
        else:
            bad[i] = (f"starts with byte 0x{magic:02x}, " if length else "is empty, ") + not_framed
    ids = np.zeros(n, np.int64)
    s = starts[classic]
    ids[classic] = ((data[s + 1].astype(np.int64) << 24) | (data[s + 2].astype(np.int64) << 16)
                    | (data[s + 3].astype(np.int64) << 8) | data[s + 4].astype(np.int64))
    guids: Dict[str, int] = {}

    def guid_key(raw: bytes) -> int:
        text = str(uuid.UUID(bytes=raw))
        return guids.setdefault(text, -(len(guids) + 1))

    guid_rows = np.nonzero(guid)[0]
    if len(guid_rows):  # the distinct guids, each turned into text once
        raw = data[(starts[guid_rows] + 1)[:, None] + np.arange(GUID_HEADER - 1)]
        distinct, inverse = np.unique(raw, axis=0, return_inverse=True)
        keys = np.array([guid_key(row.tobytes()) for row in distinct], np.int64)
        ids[guid_rows] = keys[inverse.reshape(-1)]
    rest: Dict[int, bytes] = {}
    for i in np.nonzero(hdr)[0].tolist():
        value = from_header[i]
        magic = value[0] if value else -1
        size = HEADER if magic == MAGIC else GUID_HEADER if magic == MAGIC_GUID else 0
        if not size or len(value) < size:
            bad[i] = (f"has a {header_name(field_name)} header of {len(value)} byte(s) that names no schema (it "
                      f"must be 0x00 and a 4-byte schema id, or 0x01 and a 16-byte schema guid)")
            continue
        ids[i] = int.from_bytes(value[1:HEADER], "big") if magic == MAGIC else guid_key(value[1:GUID_HEADER])
        body[i] = starts[i]
        ok[i] = True
        rest[i] = value[size:]
    order = sorted(guids, key=lambda g: -guids[g])
    return Framed(ok, ids, starts, lengths, data, bad, body, tuple(order), rest)


def payloads(column: Any, framed: Framed, rows: Any) -> Any:
    """The encoded records (the values without their prefix) of ``rows`` of ``column``, as a
    binary Arrow array."""
    import numpy as np

    pa, pc = pyarrow(), pyarrow_compute()
    skip = np.unique(framed.body[rows] - framed.starts[rows])
    whole = len(rows) == len(column)
    if len(skip) == 1:
        # (an explicit stop: pyarrow 26 miscomputes the sizes without one)
        return pc.binary_slice(column if whole else column.take(pa.array(rows)), int(skip[0]), 2**31 - 1)
    begin = framed.body[rows]
    sizes = framed.starts[rows] + framed.lengths[rows] - begin
    offsets = np.zeros(len(rows) + 1, np.int32)
    np.cumsum(sizes, out=offsets[1:])
    total = int(sizes.sum())
    within = np.arange(total, dtype=np.int64) - np.repeat(offsets[:-1].astype(np.int64), sizes)
    data = framed.data[np.repeat(begin, sizes) + within] if total else np.zeros(0, np.uint8)
    return pa.Array.from_buffers(pa.binary(), len(rows), [None, pa.py_buffer(offsets), pa.py_buffer(data.tobytes())])


def header(schema_id: int) -> bytes:
    """The framing of ``schema_id``: the magic byte and the id."""
    return bytes([MAGIC]) + schema_id.to_bytes(4, "big")


@dataclass(frozen=True)
class Writing:
    """How a write names the schema: ``serializer`` ``prefix`` (before the value) or ``header``
    (in the ``__<field>_schema_id`` header), with the schema ``id`` or ``guid``."""

    serializer: str = "prefix"
    use_guid: bool = False


def framing(resolved: Any, writing: Optional[Writing], indexes: Optional[List[int]] = None) -> Tuple[bytes, Optional[bytes]]:
    """``(prefix of each value, value of the schema id header or None)`` of a write with the
    :class:`~confluent_kafka.spark._registry.ResolvedSchema` ``resolved``; ``indexes``: the
    Protobuf message indexes."""
    from ..schema_registry.common.serde import SchemaId

    writing = writing or Writing()
    kind = {"avro": "AVRO", "json": "JSON", "protobuf": "PROTOBUF"}.get(resolved.format, "AVRO")
    sid = SchemaId(kind, resolved.schema_id, resolved.guid if writing.use_guid else None, indexes)
    named = sid.guid_to_bytes() if writing.use_guid else sid.id_to_bytes()
    return (b"", named) if writing.serializer == "header" else (named, None)


def add_headers(headers: Any, added: Any, n: int) -> Any:
    """The Arrow headers column ``headers`` (list<struct<key: string, value: binary>>, or None
    for none) with, for each ``(name, value, rows)`` of ``added``, the header ``name: value``
    appended to the rows where ``rows`` (a bool Arrow array) is true, in that order."""
    import numpy as np

    pa, pc = pyarrow(), pyarrow_compute()
    entry = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])
    if headers is None:
        old_len = np.zeros(n, np.int64)
        old = pa.array([], entry)
    else:
        old_len = pc.fill_null(pc.list_value_length(headers), 0).to_numpy(zero_copy_only=False).astype(np.int64)
        old = headers.flatten()
        entry = old.type
    extras = [pa.array([{"key": name, "value": value}], entry) for name, value, _ in added]
    masks = [pc.fill_null(rows, False).to_numpy(zero_copy_only=False).astype(np.int64) for _, _, rows in added]
    new_len = old_len + sum(masks)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(new_len, out=offsets[1:])
    # the index into [old entries..., extra 0, extra 1, ...] of every entry of the result
    index = np.empty(int(offsets[-1]), np.int64)
    old_starts = np.zeros(n, np.int64)
    if n > 1:
        old_starts[1:] = np.cumsum(old_len[:-1])
    total_old = int(old_len.sum())
    within = np.arange(total_old, dtype=np.int64) - np.repeat(old_starts, old_len)
    index[np.repeat(offsets[:-1], old_len) + within] = np.arange(total_old, dtype=np.int64)
    pos = offsets[:-1] + old_len
    for k, mask in enumerate(masks):
        rows = np.nonzero(mask)[0]
        index[pos[rows]] = len(old) + k
        pos = pos + mask
    values = pa.concat_arrays([old.cast(entry)] + extras).take(pa.array(index))
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), values,
                                    type=headers.type if headers is not None else pa.list_(pa.field("element", entry)))


def read_indexes(data: Any, pos: int, end: int) -> Tuple[List[int], int]:
    """The message indexes at ``data[pos:end]`` (zig-zag varints: a count, then the indexes;
    a count of 0 is ``[0]``) and the position after them."""

    def varint() -> int:
        nonlocal pos
        value, shift = 0, 0
        while True:
            if pos >= end or shift > 63:
                raise ValueError("the message indexes run past the end of the value")
            b = int(data[pos])
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return (value >> 1) ^ -(value & 1)

    count = varint()
    if count < 0 or count > 1000:
        raise ValueError(f"the message indexes say {count} indexes follow")
    if count == 0:
        return [0], pos
    return [varint() for _ in range(count)], pos
