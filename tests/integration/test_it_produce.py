"""Every produce option round-trips through a real broker (tansu), read back with assign()."""

from __future__ import annotations

import time
from typing import Callable

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, KafkaError, KafkaException, Producer

pytestmark = pytest.mark.integration


def test_values_and_keys(unique_topic: str, make_producer: Callable, reports: Callable,
                         read_back: Callable) -> None:
    dr = reports()
    p = make_producer(on_delivery=dr)
    cases = [
        (b"bytes value", b"bytes key"),
        ("str value \u2603", "str key \u00e9"),
        (None, b"key only"),
        (b"value only", None),
        (None, None),
        (b"", b""),
        (bytearray(b"\x00\x01\xff"), memoryview(b"mv")),
    ]
    for value, key in cases:
        p.produce(unique_topic, value, key, partition=0)
    assert p.flush(60) == 0
    assert dr.errors == [None] * len(cases)

    def as_bytes(x: object) -> object:
        if x is None:
            return None
        return x.encode() if isinstance(x, str) else bytes(x)  # type: ignore[arg-type]

    expected = [(as_bytes(v), as_bytes(k)) for v, k in cases]
    assert [(m.value(), m.key()) for m in dr.messages] == expected
    for m in dr.messages:
        assert m.topic() == unique_topic and m.partition() == 0
        assert isinstance(m.latency(), float) and 0 <= m.latency() < 60
    got = read_back(unique_topic, 0, len(cases))
    assert [(m.value(), m.key()) for m in got] == expected
    assert [m.offset() for m in got] == [m.offset() for m in dr.messages]
    assert [m.offset() for m in got] == list(range(got[0].offset(), got[0].offset() + len(cases)))


def test_order_and_offsets(unique_topic: str, make_producer: Callable, reports: Callable,
                           read_back: Callable) -> None:
    dr = reports()
    p = make_producer({"linger.ms": 5}, on_delivery=dr)
    n = 2000
    for i in range(n):
        p.produce(unique_topic, f"m{i:05d}".encode(), partition=0)
        if i % 500 == 0:
            p.poll(0)
    assert p.flush(60) == 0
    assert dr.errors == [None] * n
    offsets = [m.offset() for m in dr.messages]
    assert offsets == list(range(offsets[0], offsets[0] + n))
    got = read_back(unique_topic, 0, n)
    assert [m.value() for m in got] == [f"m{i:05d}".encode() for i in range(n)]
    assert [m.offset() for m in got] == offsets


def test_explicit_partitions(unique_topic: str, make_producer: Callable, reports: Callable,
                             read_back: Callable, partition_count: Callable) -> None:
    n = partition_count(unique_topic)
    assert n >= 2
    dr = reports()
    p = make_producer(on_delivery=dr)
    for part in range(n):
        for j in range(3):
            p.produce(unique_topic, f"p{part}-{j}".encode(), partition=part)
    assert p.flush(60) == 0
    assert dr.errors == [None] * (3 * n)
    for part in range(n):
        got = read_back(unique_topic, part, 3)
        assert [m.value() for m in got] == [f"p{part}-{j}".encode() for j in range(3)]
        assert {m.partition() for m in got} == {part}


def test_unknown_partition_is_reported(unique_topic: str, make_producer: Callable,
                                       reports: Callable, partition_count: Callable) -> None:
    n = partition_count(unique_topic)
    dr = reports()
    p = make_producer({"message.timeout.ms": 10000}, on_delivery=dr)
    try:
        p.produce(unique_topic, b"nowhere", partition=n + 5)
    except KafkaException as e:
        # The producer had the topic's metadata already (it may arrive before this call, as
        # the client fetches it on its own): librdkafka then refuses the message at once, with
        # the same error, and no report follows.
        assert e.args[0].code() == KafkaError._UNKNOWN_PARTITION
        assert p.flush(30) == 0 and len(dr) == 0
        return
    assert p.flush(30) == 0
    assert len(dr) == 1
    assert dr.errors[0] is not None
    assert dr.errors[0].code() == KafkaError._UNKNOWN_PARTITION


def test_headers_list_and_dict(unique_topic: str, make_producer: Callable,
                               read_back: Callable) -> None:
    p = make_producer()
    as_list = [("a", b"1"), ("a", b"2"), ("empty", b""), ("none", None), ("text", "t\u00e9")]
    as_dict = {"x": b"10", "y": None, "z": "zed"}
    p.produce(unique_topic, b"list", headers=as_list, partition=0)
    p.produce(unique_topic, b"dict", headers=as_dict, partition=0)
    p.produce(unique_topic, b"no headers", partition=0)
    assert p.flush(60) == 0
    got = read_back(unique_topic, 0, 3)
    assert got[0].headers() == [("a", b"1"), ("a", b"2"), ("empty", b""), ("none", None),
                                ("text", "t\u00e9".encode())]
    assert got[1].headers() == [("x", b"10"), ("y", None), ("z", b"zed")]
    assert got[2].headers() is None


def test_timestamps(unique_topic: str, make_producer: Callable, reports: Callable,
                    read_back: Callable) -> None:
    dr = reports()
    p = make_producer(on_delivery=dr)
    explicit = 1_577_836_800_000  # 2020-01-01T00:00:00Z
    before = int(time.time() * 1000)
    p.produce(unique_topic, b"explicit", timestamp=explicit, partition=0)
    p.produce(unique_topic, b"now", partition=0)
    assert p.flush(60) == 0
    after = int(time.time() * 1000)
    # CreateTime topic: the delivery report carries the producer's timestamp.
    assert dr.messages[0].timestamp() == (TIMESTAMP_CREATE_TIME, explicit)
    assert dr.messages[1].timestamp()[0] == TIMESTAMP_CREATE_TIME
    assert before - 1000 <= dr.messages[1].timestamp()[1] <= after + 1000
    got = read_back(unique_topic, 0, 2)
    assert got[0].timestamp() == (TIMESTAMP_CREATE_TIME, explicit)
    ts_type, ts = got[1].timestamp()
    assert ts_type == TIMESTAMP_CREATE_TIME
    assert before - 1000 <= ts <= after + 1000


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_compression_codecs(unique_topic: str, make_producer: Callable, reports: Callable,
                            read_back: Callable, codec: str) -> None:
    dr = reports()
    p = make_producer({"compression.type": codec, "linger.ms": 50}, on_delivery=dr)
    payloads = [(f"record {i} " * 50).encode() for i in range(300)]
    for i, v in enumerate(payloads):
        p.produce(unique_topic, v, key=str(i).encode(), partition=0,
                  headers=[("codec", codec.encode())])
    assert p.flush(60) == 0
    assert dr.errors == [None] * len(payloads)
    got = read_back(unique_topic, 0, len(payloads))
    assert [m.value() for m in got] == payloads
    assert [m.key() for m in got] == [str(i).encode() for i in range(len(payloads))]
    assert all(m.headers() == [("codec", codec.encode())] for m in got)


@pytest.mark.parametrize("acks", ["0", "1", "all", -1])
def test_acks(unique_topic: str, make_producer: Callable, reports: Callable,
              read_back: Callable, acks: object) -> None:
    dr = reports()
    p = make_producer({"acks": acks}, on_delivery=dr)
    for i in range(50):
        p.produce(unique_topic, str(i).encode(), partition=0)
    assert p.flush(60) == 0
    assert dr.errors == [None] * 50
    if acks == "0":
        # No response from the broker, hence no offset in the report.
        assert all(m.offset() is None for m in dr.messages)
    else:
        offsets = [m.offset() for m in dr.messages]
        assert offsets == list(range(offsets[0], offsets[0] + 50))
    got = read_back(unique_topic, 0, 50)
    assert [m.value() for m in got] == [str(i).encode() for i in range(50)]


def test_idempotent_producer(unique_topic: str, make_producer: Callable, reports: Callable,
                             read_back: Callable, expect_nothing: Callable) -> None:
    dr = reports()
    p = make_producer({"enable.idempotence": True, "linger.ms": 5}, on_delivery=dr)
    n = 1000
    for i in range(n):
        p.produce(unique_topic, str(i).encode(), partition=0)
    assert p.flush(60) == 0
    assert dr.errors == [None] * n
    got = read_back(unique_topic, 0, n)
    assert [m.value() for m in got] == [str(i).encode() for i in range(n)]
    # Exactly once: nothing after the n-th message.
    expect_nothing(unique_topic, 0, start=got[-1].offset() + 1, wait=3)


def test_large_messages(unique_topic: str, make_producer: Callable, read_back: Callable) -> None:
    big = bytes(range(256)) * 4096  # 1 MiB
    p = make_producer({"message.max.bytes": 2_000_000})
    p.produce(unique_topic, big, partition=0)
    p.produce(unique_topic, b"small after big", partition=0)
    assert p.flush(60) == 0
    got = read_back(unique_topic, 0, 2, **{"fetch.max.bytes": 10_000_000,
                                           "max.partition.fetch.bytes": 10_000_000})
    assert got[0].value() == big
    assert got[1].value() == b"small after big"


def test_list_topics_returns_the_topic(unique_topic: str, kafka_bootstrap: str,
                                       make_producer: Callable) -> None:
    p: Producer = make_producer()
    p.produce(unique_topic, b"create me", partition=0)
    assert p.flush(60) == 0
    md = p.list_topics(timeout=10)
    assert unique_topic in md.topics
    t = md.topics[unique_topic]
    assert t.topic == unique_topic
    assert t.error is None
    assert len(t.partitions) >= 1
    assert md.controller_id in md.brokers
    host, port = kafka_bootstrap.rsplit(":", 1)
    assert any(b.host == host and b.port == int(port) for b in md.brokers.values())
    for pid, part in t.partitions.items():
        assert part.id == pid
        assert part.leader in md.brokers
    only = p.list_topics(unique_topic, timeout=10)
    assert list(only.topics) == [unique_topic]


def test_consumer_list_topics(unique_topic: str, make_producer: Callable,
                              make_consumer: Callable) -> None:
    p = make_producer()
    p.produce(unique_topic, b"x", partition=0)
    assert p.flush(60) == 0
    c = make_consumer()
    md = c.list_topics(unique_topic, timeout=10)
    assert unique_topic in md.topics
