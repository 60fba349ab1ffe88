"""Transactional producer against tansu, checked with read_committed consumers."""

from __future__ import annotations

import time
import uuid
from typing import Callable

import pytest

from confluent_kafka import OFFSET_BEGINNING, KafkaError, TopicPartition

pytestmark = pytest.mark.integration

COMMITTED = {"isolation.level": "read_committed"}


def _txn_producer(make_producer: Callable, **conf: object):  # type: ignore[no-untyped-def]
    return make_producer({"transactional.id": f"it-txn-{uuid.uuid4().hex}", **conf})


def test_committed_transaction_is_visible(unique_topic: str, make_producer: Callable,
                                          reports: Callable, read_back: Callable) -> None:
    dr = reports()
    p = _txn_producer(make_producer, on_delivery=dr)
    p.init_transactions(60)
    p.begin_transaction()
    for i in range(20):
        p.produce(unique_topic, f"tx{i}".encode(), key=b"k", partition=0,
                  headers=[("i", str(i).encode())])
    p.commit_transaction(60)
    p.poll(0)
    assert dr.errors == [None] * 20
    got = read_back(unique_topic, 0, 20, **COMMITTED)
    assert [m.value() for m in got] == [f"tx{i}".encode() for i in range(20)]
    assert [m.headers() for m in got] == [[("i", str(i).encode())] for i in range(20)]


def test_open_transaction_is_hidden_until_commit(unique_topic: str, make_producer: Callable,
                                                 make_consumer: Callable) -> None:
    p = _txn_producer(make_producer)
    p.init_transactions(60)
    p.begin_transaction()
    for i in range(5):
        p.produce(unique_topic, f"pending{i}".encode(), partition=0)
    assert p.flush(60) == 0  # on the broker, but not committed

    c = make_consumer(COMMITTED)
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        m = c.poll(0.2)
        assert m is None or m.error() is not None, f"saw uncommitted {m.value()!r}"

    p.commit_transaction(60)
    got = []
    deadline = time.monotonic() + 60
    while len(got) < 5 and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append(m.value())
    assert got == [f"pending{i}".encode() for i in range(5)]


@pytest.mark.xfail(reason="tansu gap: read_committed does not filter ABORTED transactions "
                          "(see shared/reference/test-brokers.md)", strict=False)
def test_aborted_transaction_is_hidden(unique_topic: str, make_producer: Callable,
                                       read_back: Callable) -> None:
    p = _txn_producer(make_producer)
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(unique_topic, b"aborted", partition=0)
    assert p.flush(60) == 0
    p.abort_transaction(60)
    p.begin_transaction()
    p.produce(unique_topic, b"committed", partition=0)
    p.commit_transaction(60)
    got = read_back(unique_topic, 0, 1, **COMMITTED)
    assert [m.value() for m in got] == [b"committed"]


def test_read_uncommitted_sees_open_transaction(unique_topic: str, make_producer: Callable,
                                                read_back: Callable) -> None:
    p = _txn_producer(make_producer)
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(unique_topic, b"dirty", partition=0)
    assert p.flush(60) == 0
    got = read_back(unique_topic, 0, 1, **{"isolation.level": "read_uncommitted"})
    assert got[0].value() == b"dirty"
    p.abort_transaction(60)


def test_send_offsets_to_transaction_commits_consumer_offsets(
        unique_topic: str, make_producer: Callable, make_consumer: Callable) -> None:
    out_topic = unique_topic + "-out"
    src = make_producer()
    for i in range(3):
        src.produce(unique_topic, str(i).encode(), partition=0)
    assert src.flush(60) == 0

    group = f"g-{uuid.uuid4().hex}"
    c = make_consumer({"group.id": group})
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    seen = []
    deadline = time.monotonic() + 60
    while len(seen) < 3 and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            seen.append(m)
    assert len(seen) == 3

    p = _txn_producer(make_producer)
    p.init_transactions(60)
    p.begin_transaction()
    for m in seen:
        p.produce(out_topic, m.value(), partition=0)
    next_offset = seen[-1].offset() + 1
    p.send_offsets_to_transaction([TopicPartition(unique_topic, 0, next_offset)],
                                  c.consumer_group_metadata(), 60)
    p.commit_transaction(60)

    committed = c.committed([TopicPartition(unique_topic, 0)], timeout=30)
    assert committed[0].offset == next_offset
    assert committed[0].error is None


def test_transaction_api_errors_carry_flags(make_producer: Callable) -> None:
    from confluent_kafka import KafkaException

    p = _txn_producer(make_producer)
    p.init_transactions(60)
    with pytest.raises(KafkaException) as info:
        p.commit_transaction(10)
    err = info.value.args[0]
    assert err.code() == KafkaError._STATE
    assert err.fatal() is False
