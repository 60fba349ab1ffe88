"""Confluent's schema id framing of Kafka values, checked on a whole Arrow column at once.

A framed value is a zero byte, the 4-byte big-endian schema id, then the encoded record (for
Protobuf the message indexes come first). The checks run on the Arrow buffers with numpy: no
bytes object per row. The texts of the faults are those the Avro path reports too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict

from ._schema import pyarrow

MAGIC = 0
HEADER = 5  # magic byte + 4-byte schema id


@dataclass
class Framed:
    """The framing of every value of one binary column.

    ``ok``: the rows whose value is framed (bool array); ``ids``: their schema ids; ``starts``
    and ``lengths``: where each value's bytes are in ``data`` (the column's data buffer as
    uint8); ``bad``: ``{row: why}`` for the non-null rows that are not framed.
    """

    ok: Any
    ids: Any
    starts: Any
    lengths: Any
    data: Any
    bad: Dict[int, str]


def binary(column: Any) -> Any:
    """``column`` as an Arrow binary array (a string column is cast)."""
    pa = pyarrow()
    return column if column.type == pa.binary() else column.cast(pa.binary())


def check(column: Any) -> Framed:
    """Check the framing of the binary Arrow array ``column`` (see :class:`Framed`)."""
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
    ok = valid & (lengths >= HEADER) & (first == MAGIC)
    bad: Dict[int, str] = {}
    for i in np.nonzero(valid & ~ok)[0].tolist():
        length = int(lengths[i])
        bad[i] = (f"is {length} byte(s) long, shorter than the 5-byte Schema Registry framing"
                  if length < HEADER or first[i] == MAGIC else
                  f"starts with byte 0x{int(first[i]):02x}, not the Schema Registry framing (magic byte 0x00 "
                  f"and a 4-byte schema id): it was not written by a Schema Registry serializer")
    ids = np.zeros(n, np.uint32)
    s = starts[ok]
    ids[ok] = ((data[s + 1].astype(np.uint32) << 24) | (data[s + 2].astype(np.uint32) << 16)
               | (data[s + 3].astype(np.uint32) << 8) | data[s + 4].astype(np.uint32))
    return Framed(ok, ids, starts, lengths, data, bad)


def header(schema_id: int) -> bytes:
    """The framing of ``schema_id``: the magic byte and the id."""
    return bytes([MAGIC]) + schema_id.to_bytes(4, "big")
