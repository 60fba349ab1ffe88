"""Consumed headers are exactly what was produced, record by record.

The consumer reads "no header" from a record's own bytes when it can (message.c,
cfl_record_headerless) and asks librdkafka otherwise. These records mix both kinds around every
length at which the value's length prefix changes size, with empty, null and large values, keys
or none, compressed or not, and read them through every consuming call.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

import pytest

from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition

pytestmark = pytest.mark.mock

Headers = Optional[List[Tuple[str, bytes]]]

# Value lengths either side of each step of the varint length prefix (1 to 4 bytes).
LENGTHS = [1, 2, 63, 64, 65, 127, 128, 8191, 8192, 8193, 100_000, 1_048_500]


def records() -> List[Tuple[Optional[bytes], Optional[bytes], Headers]]:
    out: List[Tuple[Optional[bytes], Optional[bytes], Headers]] = []
    for i, n in enumerate(LENGTHS):
        # Values end in 0x00: a header count read one byte too early would say "no header".
        value = bytes([i % 251]) * (n - 1) + b"\x00"
        for key in (None, b"k" * (i + 1)):
            out.append((key, value, None))
            out.append((key, value, [("h", b"\x00"), ("empty", b"")]))
    out += [(None, b"", None), (None, b"", [("on-empty", b"1")]),
            (b"key", None, None), (b"key", None, [("on-null", b"2")]),
            (None, None, None), (None, None, [("both-null", b"3")])]
    return out


def expected_headers(h: Headers) -> Headers:
    return h if h else None


@pytest.mark.parametrize("compression", ["none", "lz4"])
@pytest.mark.parametrize("call", ["poll", "consume", "consume_arrow"])
def test_every_record_keeps_its_headers(call: str, compression: str, mock_cluster,
                                        unique_topic: str, make_producer: Callable[..., Producer],
                                        make_consumer: Callable[..., Consumer]) -> None:
    mock_cluster.create_topic(unique_topic, 1, 1)
    want = records()
    p = make_producer({"compression.type": compression, "linger.ms": 50,
                       "message.max.bytes": 2_000_000})
    for key, value, headers in want:
        p.produce(unique_topic, value, key, partition=0, headers=headers)
    assert p.flush(30) == 0

    c = make_consumer({"fetch.message.max.bytes": 2_000_000})
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    got: List[Tuple[Optional[bytes], Optional[bytes], Headers]] = []
    for _ in range(200):
        if len(got) >= len(want):
            break
        if call == "poll":
            m = c.poll(0.5)
            batch = [] if m is None else [m]
        elif call == "consume":
            batch = c.consume(7, 0.5)
        else:
            table = c.consume_arrow(7, 0.5).to_pyarrow()
            got += [(row["key"], row["value"],
                     [(h["key"], h["value"]) for h in row["headers"]] if row["headers"] else None)
                    for row in table.to_pylist()]
            continue
        for m in batch:
            assert m.error() is None, m.error()
            got.append((m.key(), m.value(), m.headers()))
    assert len(got) == len(want)
    for i, ((key, value, headers), (gkey, gvalue, gheaders)) in enumerate(zip(want, got)):
        assert (gkey, gvalue) == (key, value), i
        assert gheaders == expected_headers(headers), (i, len(value or b""), key)
