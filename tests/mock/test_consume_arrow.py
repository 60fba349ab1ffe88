"""Consumer.consume_arrow: consumed messages as Arrow columns (the mock cluster)."""

from __future__ import annotations

import pickle
import time
from typing import Any, Callable, List

import pytest

from confluent_kafka import (OFFSET_BEGINNING, TIMESTAMP_CREATE_TIME, ArrowBatch, Consumer, KafkaError,
                             KafkaException, TopicPartition)

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.mock

SCHEMA = pa.schema([
    pa.field("key", pa.binary()),
    pa.field("value", pa.binary()),
    pa.field("topic", pa.string(), nullable=False),
    pa.field("partition", pa.int32(), nullable=False),
    pa.field("offset", pa.int64(), nullable=False),
    pa.field("timestamp", pa.timestamp("ms", tz="UTC")),
    pa.field("timestamp_type", pa.int32(), nullable=False),
    pa.field("headers", pa.list_(pa.field("item", pa.struct([pa.field("key", pa.string(), nullable=False),
                                                             pa.field("value", pa.binary())]),
                                          nullable=False))),
])


def read_rows(c: Consumer, count: int, rounds: int = 30) -> List[dict]:
    rows: List[dict] = []
    for _ in range(rounds):
        if len(rows) >= count:
            break
        rows += c.consume_arrow(count - len(rows), 1.0).to_pyarrow().to_pylist()
    return rows


@pytest.fixture
def filled(mock_cluster: Any, unique_topic: str, make_producer: Callable) -> str:
    """Two partitions with six messages: keys, a null value, headers with a null value."""
    mock_cluster.create_topic(unique_topic, partitions=2)
    p = make_producer()
    for i in range(6):
        p.produce(unique_topic, value=None if i == 3 else b"v%d" % i, key=None if i == 0 else b"k%d" % i,
                  partition=i % 2, timestamp=1_000 + i,
                  headers=[("h", b"x"), ("n", None)] if i % 2 else None)
    assert p.flush(30) == 0
    return unique_topic


def test_rows_match_consume(filled: str, make_consumer: Callable) -> None:
    parts = [TopicPartition(filled, i, OFFSET_BEGINNING) for i in range(2)]
    a = make_consumer()
    a.assign(parts)
    batch = a.consume_arrow(100, 5.0)
    assert isinstance(batch, ArrowBatch)
    rb = batch.to_pyarrow()
    assert rb.schema == SCHEMA
    assert batch.column_names == tuple(SCHEMA.names)
    rows = rb.to_pylist()
    rows += read_rows(a, 6 - len(rows))
    b = make_consumer()
    b.assign(parts)
    msgs = []
    while len(msgs) < 6:
        msgs += [m for m in b.consume(6, 1.0) if m.error() is None]
    want = sorted((m.partition(), m.offset(), m.key(), m.value(), m.topic(), m.timestamp(),
                   [{"key": k, "value": v} for k, v in m.headers()] if m.headers() else None) for m in msgs)
    got = sorted((r["partition"], r["offset"], r["key"], r["value"], r["topic"],
                  (r["timestamp_type"], round(r["timestamp"].timestamp() * 1000)), r["headers"]) for r in rows)
    assert got == want
    assert all(r["timestamp_type"] == TIMESTAMP_CREATE_TIME for r in rows)


def test_exports_outlive_the_batch_and_repeat(filled: str, make_consumer: Callable) -> None:
    c = make_consumer()
    c.assign([TopicPartition(filled, 0, OFFSET_BEGINNING)])
    batch = c.consume_arrow(3, 5.0)
    first, second = pa.record_batch(batch), batch.to_pyarrow()
    n = len(batch)
    assert n == batch.num_rows == first.num_rows
    del batch
    c.close()
    assert first.equals(second)
    assert first.column("value").to_pylist()[:1] == [b"v0"]
    # children moved out and released after their parent
    values = pa.record_batch(first).column(1)
    del first, second
    assert values.to_pylist()[0] == b"v0"


def test_empty_batch_has_the_schema(unique_topic: str, mock_cluster: Any, make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    c = make_consumer({"enable.partition.eof": True})
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    batch = c.consume_arrow(10, 0.5)  # only an end-of-partition event arrives: not a row
    assert len(batch) == 0
    assert batch.to_pyarrow().schema == SCHEMA
    assert repr(batch) == "<ArrowBatch rows=0 headers=0>"


def test_error_after_data_is_raised_by_the_next_call(mock_cluster: Any, unique_topic: str,
                                                     make_producer: Callable, make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    assert p.produce_batch(unique_topic, [b"%d" % i for i in range(10)]) == 10
    assert p.flush(30) == 0
    c = make_consumer()
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    rows = len(c.consume_arrow(4, 5.0))
    mock_cluster.push_request_errors(1, [KafkaError.TOPIC_AUTHORIZATION_FAILED] * 3)  # Fetch
    assert p.produce_batch(unique_topic, [b"late"]) == 1
    assert p.flush(30) == 0
    raised = None
    for _ in range(10):
        try:
            rows += len(c.consume_arrow(100, 1.0))
        except KafkaException as e:
            raised = e.args[0]
            break
    assert rows == 10  # every message before the error was returned first
    assert raised is not None and raised.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED


def test_messages_fetched_when_a_callback_raises_are_not_lost(mock_cluster: Any, unique_topic: str,
                                                              make_producer: Callable,
                                                              make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    assert p.produce_batch(unique_topic, [b"%d" % i for i in range(200)]) == 200
    assert p.flush(30) == 0

    class Boom(Exception):
        pass

    fired = []

    def stats_cb(_: str) -> None:
        if not fired:
            fired.append(1)
            raise Boom()

    c = make_consumer({"statistics.interval.ms": 50}, stats_cb=stats_cb)
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    values: List[bytes] = []
    for _ in range(60):
        try:
            values += c.consume_arrow(7, 0.2).to_pyarrow().column("value").to_pylist()
        except Boom:
            pass
        if len(values) == 200:
            break
    assert fired
    assert values == [b"%d" % i for i in range(200)]
    # the plain API sees what consume_arrow left behind, and the reverse: nothing is repeated
    assert c.consume(1, 0.2) == []


def test_rows_kept_after_a_raise_keep_their_headers(mock_cluster: Any, unique_topic: str,
                                                   make_producer: Callable, make_consumer: Callable) -> None:
    """Records fetched by the call a callback raised in wait as Messages; the next batch built
    from them has their headers (and none when headers=False)."""
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    assert p.produce_batch(unique_topic, [b"%d" % i for i in range(200)],
                           headers=[[("i", b"%d" % i)] for i in range(200)]) == 200
    assert p.flush(30) == 0

    class Boom(Exception):
        pass

    armed: List[int] = []

    def stats_cb(_: str) -> None:
        if armed == [1]:
            armed.append(2)
            raise Boom()

    c = make_consumer({"statistics.interval.ms": 20}, stats_cb=stats_cb)
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    time.sleep(1.0)  # all 200 fetched at once, statistics events queued behind them
    rows: List[Any] = []
    for _ in range(100):
        try:
            rows += c.consume_arrow(7, 0.2).to_pyarrow().to_pylist()
        except Boom:
            # the first statistics event after arming raised in the middle of a batch: what
            # that call fetched is kept; read one row of it without headers, the rest with
            rows += c.consume_arrow(1, 0, headers=False).to_pyarrow().to_pylist()
        if len(rows) >= 190 and not armed:
            armed.append(1)
        if len(rows) == 200:
            break
    assert armed == [1, 2], "the callback never raised"
    assert [r["value"] for r in rows] == [b"%d" % i for i in range(200)]
    no_headers = [i for i, r in enumerate(rows) if r["headers"] is None]
    assert len(no_headers) == 1
    assert all(r["headers"] == [{"key": "i", "value": b"%d" % i}]
               for i, r in enumerate(rows) if i not in no_headers)


def test_without_headers_the_column_is_null_and_the_rest_equal(filled: str, make_consumer: Callable) -> None:
    parts = [TopicPartition(filled, i, OFFSET_BEGINNING) for i in range(2)]
    rows = {}
    for flag in (True, False):
        c = make_consumer()
        c.assign(parts)
        got: List[Any] = []
        for _ in range(30):
            got += c.consume_arrow(100, 1.0, headers=flag).to_pyarrow().to_pylist()
            if len(got) == 6:
                break
        rows[flag] = sorted(got, key=lambda r: (r["partition"], r["offset"]))
    assert sum(r["headers"] is not None for r in rows[True]) == 3
    assert all(r["headers"] is None for r in rows[False])
    assert [{**r, "headers": None} for r in rows[True]] == rows[False]
    with pytest.raises(TypeError, match="headers must be True or False"):
        make_consumer().consume_arrow(1, 0, headers=1)


@pytest.mark.parametrize("num,exc", [(0, ValueError), (-1, ValueError), (2_000_000, ValueError),
                                     (2 ** 80, ValueError), ("5", TypeError), (1.5, TypeError)])
def test_bad_num_messages(make_consumer: Callable, num: object, exc: type) -> None:
    with pytest.raises(exc, match="num_messages"):
        make_consumer().consume_arrow(num, 0)


def test_closed_consumer_and_type_misuse(make_consumer: Callable) -> None:
    c = make_consumer()
    batch = c.consume_arrow(1, 0)
    with pytest.raises(TypeError, match="consume_arrow"):
        ArrowBatch()
    with pytest.raises(TypeError, match="pickled"):
        pickle.dumps(batch)
    with pytest.raises(TypeError):
        c.consume_arrow(1, "soon")
    c.close()
    with pytest.raises(RuntimeError, match="closed"):
        c.consume_arrow(1, 0)
