"""Consumer on tansu: isolation levels, consume-transform-produce in transactions, iteration with
consumer_timeout_ms, error events, list_topics, group metadata."""

from __future__ import annotations

import time
import uuid
from typing import Callable, List

import pytest

from confluent_kafka import (OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Message,
                             Producer, TopicPartition)
from confluent_kafka.admin import ClusterMetadata
from consumer_helpers import batch, expect_quiet, flat, produce_values, read_messages, tps

pytestmark = pytest.mark.integration

PARTS = [0, 1, 2, 3]


def _group() -> str:
    return f"misc-{uuid.uuid4().hex[:12]}"


def _txn_producer(bootstrap: str) -> Producer:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"ctx-{uuid.uuid4().hex}"})
    p.init_transactions(30)
    return p


def test_isolation_levels_and_open_transaction(kafka_bootstrap: str, unique_topic: str,
                                               make_consumer: Callable[..., Consumer]) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"before-0", b"before-1"]})
    p = _txn_producer(kafka_bootstrap)
    try:
        p.begin_transaction()
        for i in range(5):
            p.produce(unique_topic, f"txn-{i}".encode(), partition=0)
        assert p.flush(30) == 0  # written, not committed

        committed = make_consumer({"group.id": _group(), "isolation.level": "read_committed"})
        committed.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
        uncommitted = make_consumer({"group.id": _group(), "isolation.level": "read_uncommitted"})
        uncommitted.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])

        got = read_messages(uncommitted, 7, 30, "read_uncommitted")
        assert [m.value() for m in got] == [b"before-0", b"before-1"] + [f"txn-{i}".encode() for i in range(5)]
        got = read_messages(committed, 2, 30, "read_committed before the commit")
        assert [m.value() for m in got] == [b"before-0", b"before-1"]
        expect_quiet(committed, 2.0, "from the open transaction (read_committed)")

        p.commit_transaction(30)
        got = read_messages(committed, 5, 30, "read_committed after the commit")
        assert [m.value() for m in got] == [f"txn-{i}".encode() for i in range(5)]
        assert [m.offset() for m in got] == [2, 3, 4, 5, 6]
        expect_quiet(committed, 0.5, "(the commit marker is not a message)")
    finally:
        p.close()


def test_consume_transform_produce(kafka_bootstrap: str, make_consumer: Callable[..., Consumer]) -> None:
    src, dst = f"ctp-in-{uuid.uuid4().hex}", f"ctp-out-{uuid.uuid4().hex}"
    values = batch("in", PARTS, 5)
    produce_values(kafka_bootstrap, src, values)
    produce_values(kafka_bootstrap, dst, {0: [b"seed"]})  # make sure the output topic exists
    group = _group()
    c = make_consumer({"group.id": group, "isolation.level": "read_committed"})
    c.subscribe([src])
    p = _txn_producer(kafka_bootstrap)
    try:
        done = 0
        deadline = time.monotonic() + 60
        while done < 20:
            assert time.monotonic() < deadline, f"processed only {done} of 20"
            msgs = [m for m in c.consume(num_messages=8, timeout=1.0) if m.error() is None]
            if not msgs:
                continue
            p.begin_transaction()
            for m in msgs:
                p.produce(dst, m.value().upper(), key=m.value(), partition=m.partition())
            positions = c.position(c.assignment())
            metadata = c.consumer_group_metadata()
            assert isinstance(metadata, bytes) and metadata
            p.send_offsets_to_transaction(positions, metadata, 30)
            p.commit_transaction(30)
            done += len(msgs)
        assert done == 20
    finally:
        p.close()

    # The input group's offsets advanced with the transactions (no commit() by the consumer).
    checker = make_consumer({"group.id": group})
    committed = checker.committed(tps(src, PARTS), timeout=10)
    assert {tp.partition: tp.offset for tp in committed} == {p_: 5 for p_ in PARTS}

    # The output is visible to read_committed readers.
    reader = make_consumer({"group.id": _group(), "isolation.level": "read_committed"})
    reader.assign(tps(dst, PARTS, OFFSET_BEGINNING))
    got = read_messages(reader, 21, 30, "transformed output")
    assert sorted(m.value() for m in got) == sorted([b"seed"] + [v.upper() for v in flat(values)])
    assert all(m.key() is None or m.value() == m.key().upper() for m in got)


def test_iteration_ends_after_consumer_timeout_ms(kafka_bootstrap: str, unique_topic: str,
                                                  make_consumer: Callable[..., Consumer]) -> None:
    produce_values(kafka_bootstrap, unique_topic, batch("it", [0], 10))
    c = make_consumer({"group.id": _group(), "consumer_timeout_ms": 1000, "enable.partition.eof": True})
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    t0 = time.monotonic()
    got: List[Message] = list(c)  # end-of-partition notices are skipped, idleness ends the loop
    elapsed = time.monotonic() - t0
    assert [m.value() for m in got] == [f"it-0-{i}".encode() for i in range(10)]
    assert all(m.error() is None for m in got)
    assert 1.0 <= elapsed < 15, elapsed

    # The iterator is the consumer itself; iterating again picks up where it stopped.
    assert iter(c) is c
    produce_values(kafka_bootstrap, unique_topic, {0: [b"late-0", b"late-1"]})
    t0 = time.monotonic()
    more = [m.value() for m in c]
    assert more == [b"late-0", b"late-1"]
    assert time.monotonic() - t0 < 15


def test_iteration_raises_error_events(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group(), "consumer_timeout_ms": 10000})
    missing = f"missing-{uuid.uuid4().hex}"
    c.subscribe([missing])  # consumers do not auto-create topics
    t0 = time.monotonic()
    with pytest.raises(KafkaException) as ei:
        for _ in c:
            pass
    assert time.monotonic() - t0 < 9.5, "the error must end the loop, not the idle timeout"
    err = ei.value.args[0]
    assert isinstance(err, KafkaError)
    assert err.code() == KafkaError.UNKNOWN_TOPIC_OR_PART
    assert missing in err.str()


def test_poll_returns_error_event_as_message(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group()})
    missing = f"missing-{uuid.uuid4().hex}"
    c.subscribe([missing])
    deadline = time.monotonic() + 10
    m = None
    while m is None and time.monotonic() < deadline:
        m = c.poll(0.5)
    assert m is not None, "no error event"
    err = m.error()
    assert isinstance(err, KafkaError) and err.code() == KafkaError.UNKNOWN_TOPIC_OR_PART
    assert m.value() is None or isinstance(m.value(), bytes)


def test_list_topics(kafka_bootstrap: str, unique_topic: str, make_consumer: Callable[..., Consumer]) -> None:
    produce_values(kafka_bootstrap, unique_topic, {0: [b"x"]})
    c = make_consumer({"group.id": _group()})
    md = c.list_topics(unique_topic, timeout=10)
    assert isinstance(md, ClusterMetadata)
    t = md.topics[unique_topic]
    assert t.error is None and sorted(t.partitions) == PARTS
    assert all(pm.leader in md.brokers for pm in t.partitions.values())
    assert md.brokers and all(b.host == "127.0.0.1" for b in md.brokers.values())
    everything = c.list_topics(timeout=10)
    assert unique_topic in everything.topics


def test_consumer_group_metadata_and_memberid_without_join(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer({"group.id": _group()})
    md = c.consumer_group_metadata()
    assert isinstance(md, bytes) and len(md) > 0
    assert c.memberid() is None  # never joined
