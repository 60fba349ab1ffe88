"""The Arrow paths against tansu: produce_batch from Arrow columns, consume_arrow back."""

from __future__ import annotations

from typing import Callable

import pytest

from confluent_kafka import OFFSET_BEGINNING, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.integration

ROWS = 100_000
PARTITIONS = 3


def test_arrow_round_trip_across_partitions(admin: AdminClient, unique_topic: str, make_producer: Callable,
                                            make_consumer: Callable) -> None:
    admin.create_topics([NewTopic(unique_topic, PARTITIONS, 1)])[unique_topic].result(30)
    keys = pa.array([f"key-{i}" for i in range(ROWS)], type=pa.string())
    values = pa.array([b"value-%d" % i if i % 1000 else None for i in range(ROWS)], type=pa.large_binary())
    partitions = pa.array([i % PARTITIONS for i in range(ROWS)], type=pa.int32())
    header_type = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
    headers = pa.array([[{"key": "i", "value": str(i).encode()}] if i % 7 == 0 else None for i in range(ROWS)],
                       type=header_type)

    p = make_producer()
    sent = 0
    for _ in range(10_000):  # bounded: each round sends something or makes room
        if sent == ROWS:
            break
        try:
            sent += p.produce_batch(unique_topic, values.slice(sent), keys=keys.slice(sent),
                                    partition=partitions.slice(sent), headers=headers.slice(sent))
        except BufferError:
            p.poll(0.1)
    assert sent == ROWS
    assert p.flush(60) == 0

    c = make_consumer()
    c.assign([TopicPartition(unique_topic, i, OFFSET_BEGINNING) for i in range(PARTITIONS)])
    batches = []
    got = 0
    for _ in range(600):
        if got == ROWS:
            break
        rb = c.consume_arrow(10_000, 1.0).to_pyarrow()
        got += rb.num_rows
        batches.append(rb)
    assert got == ROWS
    table = pa.Table.from_batches(batches).sort_by("key")
    want = pa.table({"key": keys, "value": values, "partition": partitions, "headers": headers}).sort_by("key")
    assert table.column("key").to_pylist() == [k.encode() for k in want.column("key").to_pylist()]
    assert table.column("value").to_pylist() == want.column("value").to_pylist()
    assert table.column("partition").to_pylist() == want.column("partition").to_pylist()
    assert table.column("headers").to_pylist() == want.column("headers").to_pylist()
    # offsets are dense per partition, in order within each
    for part in range(PARTITIONS):
        offs = [o for o, q in zip(table.column("offset").to_pylist(), table.column("partition").to_pylist())
                if q == part]
        assert sorted(offs) == list(range(len(offs)))
