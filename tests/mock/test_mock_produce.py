"""Produce round trips and delivery reports against the librdkafka mock cluster."""

from __future__ import annotations

import time
from typing import Any, Callable, List

import pytest

from confluent_kafka import (
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    KafkaError,
    Message,
    Producer,
    consistent,
    fnv1a,
    murmur2,
)
from confluent_kafka.admin import BrokerMetadata, ClusterMetadata, PartitionMetadata, TopicMetadata

pytestmark = pytest.mark.mock

# librdkafka's mock broker hard-codes this LogAppendTime in every produce response.
MOCK_LOG_APPEND_TIME = 1234


def test_round_trip_in_order(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                             reports: Callable, read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer(on_delivery=dr)
    n = 200
    for i in range(n):
        p.produce(unique_topic, value=f"value-{i}".encode(), key=f"key-{i}".encode(),
                  headers=[("seq", str(i).encode())])
    assert p.flush(30) == 0
    assert len(dr) == n
    assert dr.errors == [None] * n
    assert [m.offset() for m in dr.messages] == list(range(n))
    assert {m.partition() for m in dr.messages} == {0}

    got = read_back(unique_topic, 0, n)
    assert [m.value() for m in got] == [f"value-{i}".encode() for i in range(n)]
    assert [m.key() for m in got] == [f"key-{i}".encode() for i in range(n)]
    assert [m.offset() for m in got] == list(range(n))
    assert [m.headers() for m in got] == [[("seq", str(i).encode())] for i in range(n)]
    assert all(m.topic() == unique_topic and m.partition() == 0 for m in got)


def test_delivery_report_fields(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                                reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=2)
    dr = reports()
    p = make_producer()
    ts = 1_700_000_123_456
    headers = [("a", b"1"), ("b", None), ("a", b"2")]
    t0 = time.monotonic()
    p.produce(unique_topic, value=b"the value", key=b"the key", partition=1, timestamp=ts,
              headers=headers, on_delivery=dr)
    dr.wait(p, 1)
    elapsed = time.monotonic() - t0
    err, msg = dr.calls[0]
    assert err is None
    assert msg.error() is None
    assert msg.topic() == unique_topic
    assert msg.partition() == 1
    assert msg.offset() == 0
    assert msg.key() == b"the key"
    assert msg.value() == b"the value"
    assert msg.headers() == headers
    # The mock broker answers every produce with LogAppendTime=1234, and librdkafka
    # reports what the broker said; the create time is checked on the consumer side.
    assert msg.timestamp() == (TIMESTAMP_LOG_APPEND_TIME, MOCK_LOG_APPEND_TIME)
    latency = msg.latency()
    assert isinstance(latency, float)
    assert 0.0 <= latency <= elapsed + 0.5
    assert len(msg) == len(b"the value")


def test_timestamps_read_back(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                              read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    before = int(time.time() * 1000)
    p.produce(unique_topic, b"now")
    p.produce(unique_topic, b"explicit", timestamp=1_600_000_000_001)
    assert p.flush(30) == 0
    after = int(time.time() * 1000)
    now, explicit = read_back(unique_topic, 0, 2)
    ts_type, ts = now.timestamp()
    assert ts_type == TIMESTAMP_CREATE_TIME
    assert before - 1000 <= ts <= after + 1000
    assert explicit.timestamp() == (TIMESTAMP_CREATE_TIME, 1_600_000_000_001)


def test_str_and_none_payloads(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                               reports: Callable, read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer(on_delivery=dr)
    p.produce(unique_topic, "h\u00e9llo", "cl\u00e9")
    p.produce(unique_topic, None, None)
    p.produce(unique_topic, b"", b"")
    p.produce(unique_topic, bytearray(b"ba"), memoryview(b"mv"))
    assert p.flush(30) == 0
    assert dr.errors == [None] * 4
    expected = [("h\u00e9llo".encode(), "cl\u00e9".encode()), (None, None), (b"", b""),
                (b"ba", b"mv")]
    assert [(m.value(), m.key()) for m in dr.messages] == expected
    got = read_back(unique_topic, 0, 4)
    assert [(m.value(), m.key()) for m in got] == expected


def test_dict_headers_round_trip(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                                 read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    p.produce(unique_topic, b"v", headers={"x": b"1", "y": "two", "z": None})
    assert p.flush(30) == 0
    (m,) = read_back(unique_topic, 0, 1)
    assert m.headers() == [("x", b"1"), ("y", b"two"), ("z", None)]


@pytest.mark.parametrize("partitioner,fn", [("murmur2", murmur2), ("murmur2_random", murmur2),
                                            ("consistent", consistent), ("fnv1a", fnv1a)])
def test_module_partitioners_agree_with_librdkafka(mock_cluster: Any, unique_topic: str,
                                                   make_producer: Callable, reports: Callable,
                                                   partitioner: str, fn: Any) -> None:
    mock_cluster.create_topic(unique_topic, partitions=5)
    dr = reports()
    p = make_producer(partitioner=partitioner, on_delivery=dr)
    keys = [f"user-{i}".encode() for i in range(60)]
    for k in keys:
        p.produce(unique_topic, b"v", k)
    assert p.flush(30) == 0
    assert dr.errors == [None] * len(keys)
    got = {m.key(): m.partition() for m in dr.messages}
    assert got == {k: fn(k, 5) for k in keys}
    assert len(set(got.values())) > 1


def test_on_delivery_and_callback_are_aliases(unique_topic: str, make_producer: Callable,
                                              reports: Callable) -> None:
    a, b = reports(), reports()
    p = make_producer()
    p.produce(unique_topic, b"a", on_delivery=a)
    p.produce(unique_topic, b"b", callback=b)
    assert p.flush(30) == 0
    assert [m.value() for m in a.messages] == [b"a"]
    assert [m.value() for m in b.messages] == [b"b"]


def test_delivery_report_only_error_skips_successes(unique_topic: str, make_producer: Callable,
                                                    reports: Callable) -> None:
    dr = reports()
    p = make_producer({"delivery.report.only.error": True}, on_delivery=dr)
    for i in range(10):
        p.produce(unique_topic, str(i).encode())
    assert p.flush(30) == 0
    assert dr.calls == []


def test_len_counts_outstanding_messages(unique_topic: str, make_producer: Callable) -> None:
    p = make_producer({"linger.ms": 60000})
    for i in range(7):
        p.produce(unique_topic, b"x")
    assert len(p) == 7
    p.purge()
    assert p.flush(10) == 0
    assert len(p) == 0


def test_large_message(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                       read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    payload = bytes(range(256)) * 4096  # 1 MiB
    p = make_producer({"message.max.bytes": 2_000_000})
    p.produce(unique_topic, payload)
    assert p.flush(30) == 0
    (m,) = read_back(unique_topic, 0, 1, **{"fetch.max.bytes": 5_000_000,
                                            "max.partition.fetch.bytes": 5_000_000})
    assert m.value() == payload


def test_too_large_message_is_rejected(unique_topic: str, make_producer: Callable) -> None:
    p = make_producer({"message.max.bytes": 1000})
    from confluent_kafka import KafkaException

    with pytest.raises(KafkaException) as info:
        p.produce(unique_topic, b"x" * 5000)
    assert info.value.args[0].code() == KafkaError.MSG_SIZE_TOO_LARGE
    assert len(p) == 0


def test_list_topics(mock_cluster: Any, unique_topic: str, make_producer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=3)
    p = make_producer()
    md = p.list_topics(timeout=10)
    assert isinstance(md, ClusterMetadata)
    assert len(md.brokers) == 3
    for bid, b in md.brokers.items():
        assert isinstance(b, BrokerMetadata)
        assert b.id == bid
        assert b.host in ("127.0.0.1", "localhost")
        assert 0 < b.port < 65536
        assert str(b) == f"{b.host}:{b.port}/{b.id}"
    # The answering broker: a known node, or the bootstrap connection (id -1).
    assert md.orig_broker_name
    if md.orig_broker_id == -1:
        assert md.orig_broker_name.endswith("/bootstrap")
    else:
        assert md.orig_broker_id in md.brokers
    assert md.cluster_id  # the mock reports a generated cluster id
    assert unique_topic in md.topics
    t = md.topics[unique_topic]
    assert isinstance(t, TopicMetadata)
    assert t.topic == unique_topic
    assert t.error is None
    assert sorted(t.partitions) == [0, 1, 2]
    for pid, part in t.partitions.items():
        assert isinstance(part, PartitionMetadata)
        assert part.id == pid
        assert part.leader in md.brokers
        assert part.leader in part.replicas
        assert set(part.isrs) <= set(part.replicas)
        assert part.error is None


def test_list_topics_single_topic(mock_cluster: Any, unique_topic: str,
                                  make_producer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=2)
    mock_cluster.create_topic(unique_topic + "-other", partitions=1)
    p = make_producer()
    md = p.list_topics(unique_topic, timeout=10)
    assert list(md.topics) == [unique_topic]
    assert len(md.topics[unique_topic].partitions) == 2


def test_list_topics_timeout_without_broker(make_producer: Callable) -> None:
    from confluent_kafka import KafkaException

    p = make_producer({"bootstrap.servers": "127.0.0.1:1"})
    t0 = time.monotonic()
    with pytest.raises(KafkaException) as info:
        p.list_topics(timeout=1)
    assert info.value.args[0].code() in (KafkaError._TRANSPORT, KafkaError._TIMED_OUT)
    assert time.monotonic() - t0 < 10


def test_messages_survive_a_delivery_callback_that_keeps_them(
        mock_cluster: Any, unique_topic: str, make_producer: Callable) -> None:
    kept: List[Message] = []
    p = make_producer(on_delivery=lambda err, msg: kept.append(msg))
    for i in range(100):
        p.produce(unique_topic, str(i).encode() * 100)
    assert p.flush(30) == 0
    p.close()
    assert sorted(int(m.value()[: len(m.value()) // 100]) for m in kept) == list(range(100))


def test_produce_after_flush_keeps_working(unique_topic: str, make_producer: Callable,
                                           reports: Callable) -> None:
    dr = reports()
    p: Producer = make_producer(on_delivery=dr)
    for round_ in range(3):
        p.produce(unique_topic, str(round_).encode(), partition=0)
        assert p.flush(30) == 0
    assert [m.offset() for m in dr.messages] == [0, 1, 2]
