"""Producer.produce_batch against the mock cluster."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, KafkaError

pytestmark = pytest.mark.mock


def test_batch_round_trip(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                          reports: Callable, read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer()
    msgs = [{"value": f"v{i}".encode(), "key": f"k{i}".encode()} for i in range(50)]
    assert p.produce_batch(unique_topic, msgs, on_delivery=dr) == 50
    assert all("_error" not in m for m in msgs)
    assert p.flush(30) == 0
    assert dr.errors == [None] * 50
    assert [m.value() for m in dr.messages] == [f"v{i}".encode() for i in range(50)]
    assert [m.offset() for m in dr.messages] == list(range(50))
    got = read_back(unique_topic, 0, 50)
    assert [(m.key(), m.value()) for m in got] == [(d["key"], d["value"]) for d in msgs]


def test_batch_callback_keyword_alias_and_default(unique_topic: str, make_producer: Callable,
                                                  reports: Callable) -> None:
    default, batch_cb = reports(), reports()
    p = make_producer(on_delivery=default)
    assert p.produce_batch(unique_topic, [{"value": b"a"}], callback=batch_cb) == 1
    assert p.produce_batch(unique_topic, [{"value": b"b"}]) == 1
    assert p.flush(30) == 0
    assert [m.value() for m in batch_cb.messages] == [b"a"]
    assert [m.value() for m in default.messages] == [b"b"]


def test_per_message_callback_overrides_batch_callback(unique_topic: str, make_producer: Callable,
                                                       reports: Callable) -> None:
    batch_cb, own = reports(), reports()
    p = make_producer()
    msgs = [{"value": b"1"}, {"value": b"2", "callback": own}, {"value": b"3", "on_delivery": own}]
    assert p.produce_batch(unique_topic, msgs, on_delivery=batch_cb) == 3
    assert p.flush(30) == 0
    assert [m.value() for m in batch_cb.messages] == [b"1"]
    assert sorted(m.value() for m in own.messages) == [b"2", b"3"]


def test_batch_partitions(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                          reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=3)
    dr = reports()
    p = make_producer(on_delivery=dr)
    # Batch-level partition, overridden per message.
    msgs = [{"value": b"a"}, {"value": b"b", "partition": 0}, {"value": b"c"}]
    assert p.produce_batch(unique_topic, msgs, partition=2) == 3
    assert p.flush(30) == 0
    assert {m.value(): m.partition() for m in dr.messages} == {b"a": 2, b"b": 0, b"c": 2}


def test_batch_headers_and_timestamp(mock_cluster: Any, unique_topic: str,
                                     make_producer: Callable, reports: Callable,
                                     read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer(on_delivery=dr)
    msgs = [
        {"value": b"h", "headers": [("a", b"1"), ("b", None)], "timestamp": 1_600_000_000_000},
        {"value": b"d", "headers": {"c": b"3"}},
    ]
    assert p.produce_batch(unique_topic, msgs) == 2
    assert p.flush(30) == 0
    got = read_back(unique_topic, 0, 2)
    assert got[0].headers() == [("a", b"1"), ("b", None)]
    assert got[0].timestamp() == (TIMESTAMP_CREATE_TIME, 1_600_000_000_000)
    assert got[1].headers() == [("c", b"3")]


def test_batch_queue_full_marks_failed_messages(unique_topic: str, make_producer: Callable,
                                                reports: Callable) -> None:
    dr = reports()
    p = make_producer({"linger.ms": 60000, "queue.buffering.max.messages": 3}, on_delivery=dr)
    msgs = [{"value": str(i).encode()} for i in range(5)]
    assert p.produce_batch(unique_topic, msgs) == 3
    assert [("_error" in m) for m in msgs] == [False, False, False, True, True]
    for m in msgs[3:]:
        assert isinstance(m["_error"], KafkaError)
        assert m["_error"].code() == KafkaError._QUEUE_FULL
    assert p.flush(30) == 0
    # Only the enqueued messages get delivery reports.
    assert sorted(m.value() for m in dr.messages) == [b"0", b"1", b"2"]
    assert dr.errors == [None] * 3


def test_batch_unknown_partition_marks_only_that_message(mock_cluster: Any, unique_topic: str,
                                                         make_producer: Callable,
                                                         reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=2)
    dr = reports()
    p = make_producer(on_delivery=dr)
    p.produce(unique_topic, b"learn the partition count", partition=0)
    assert p.flush(30) == 0
    msgs = [{"value": b"ok", "partition": 1}, {"value": b"bad", "partition": 99},
            {"value": b"ok2", "partition": 0}]
    assert p.produce_batch(unique_topic, msgs) == 2
    assert "_error" not in msgs[0] and "_error" not in msgs[2]
    assert msgs[1]["_error"].code() == KafkaError._UNKNOWN_PARTITION
    assert p.flush(30) == 0
    assert sorted(m.value() for m in dr.messages[1:]) == [b"ok", b"ok2"]


def test_batch_accepts_str_and_none(mock_cluster: Any, unique_topic: str,
                                    make_producer: Callable, read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    msgs = [{"value": "t\u00ebxt", "key": "k"}, {"value": None}, {}]
    assert p.produce_batch(unique_topic, msgs) == 3
    assert p.flush(30) == 0
    got = read_back(unique_topic, 0, 3)
    assert [(m.value(), m.key()) for m in got] == [("t\u00ebxt".encode(), b"k"), (None, None),
                                                    (None, None)]
