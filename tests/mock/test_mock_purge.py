"""purge() flags, queue limits (BufferError) against the mock cluster."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest

from confluent_kafka import KafkaError, Producer

pytestmark = pytest.mark.mock

# Long linger: produced messages stay in the local queue until we purge or flush.
HOLD = {"linger.ms": 60000}


def test_purge_in_queue_only_reports_purge_queue(unique_topic: str, make_producer: Callable,
                                                 reports: Callable) -> None:
    dr = reports()
    p = make_producer(HOLD, on_delivery=dr)
    for i in range(20):
        p.produce(unique_topic, str(i).encode(), partition=i % 4)
    assert len(p) == 20
    p.purge(in_queue=True, in_flight=False)
    assert p.flush(10) == 0
    assert len(dr) == 20
    assert {e.code() for e in dr.errors} == {KafkaError._PURGE_QUEUE}
    assert all(m.error() == KafkaError._PURGE_QUEUE for m in dr.messages)
    assert sorted(m.value() for m in dr.messages) == sorted(str(i).encode() for i in range(20))
    assert all(m.offset() is None for m in dr.messages)


def test_purge_in_flight_only_leaves_queued_messages(unique_topic: str, make_producer: Callable,
                                                     reports: Callable) -> None:
    dr = reports()
    p = make_producer(HOLD, on_delivery=dr)
    for i in range(5):
        p.produce(unique_topic, str(i).encode())
    p.purge(in_queue=False, in_flight=True)
    p.poll(1)
    assert dr.calls == [], "queued messages must not be purged by in_flight=True alone"
    assert len(p) == 5
    p.purge(in_queue=True, in_flight=False)
    assert p.flush(10) == 0
    assert {e.code() for e in dr.errors} == {KafkaError._PURGE_QUEUE}
    assert len(dr) == 5


def test_purge_nothing_is_a_no_op(unique_topic: str, make_producer: Callable,
                                  reports: Callable) -> None:
    dr = reports()
    p = make_producer(HOLD, on_delivery=dr)
    p.produce(unique_topic, b"x")
    p.purge(in_queue=False, in_flight=False)
    p.poll(0.5)
    assert dr.calls == []
    assert len(p) == 1


def test_purge_non_blocking(unique_topic: str, make_producer: Callable, reports: Callable) -> None:
    dr = reports()
    p = make_producer(HOLD, on_delivery=dr)
    for i in range(10):
        p.produce(unique_topic, b"x")
    p.purge(in_queue=True, in_flight=True, blocking=False)
    dr.wait(p, 10)
    assert {e.code() for e in dr.errors} == {KafkaError._PURGE_QUEUE}


def test_purged_then_flush_returns_immediately(unique_topic: str, make_producer: Callable) -> None:
    p = make_producer(HOLD)
    for _ in range(100):
        p.produce(unique_topic, b"x")
    p.purge()
    t0 = time.monotonic()
    assert p.flush(30) == 0
    assert time.monotonic() - t0 < 5


def test_in_flight_messages(unique_topic: str, make_producer: Callable,
                            reports: Callable) -> None:
    """A message awaiting the broker's answer is purged only by in_flight=True.

    The client's own mock broker answers every request after 2 s, so a message
    sent half a second ago is certainly in flight."""
    dr = reports()
    p = make_producer({"bootstrap.servers": None, "test.mock.num.brokers": 1,
                       "test.mock.broker.rtt": 2000, "linger.ms": 0,
                       "message.timeout.ms": 120000}, on_delivery=dr)
    p.produce(unique_topic, b"warm-up", partition=0)
    assert p.flush(90) == 0  # connection and metadata: a few round trips
    assert dr.errors == [None]

    # in_queue=True does not touch an in-flight message: it is delivered.
    p.produce(unique_topic, b"keep", partition=0)
    time.sleep(0.5)
    p.purge(in_queue=True, in_flight=False)
    assert p.flush(30) == 0
    assert [m.value() for m in dr.messages[1:]] == [b"keep"]
    assert dr.errors[1] is None

    # in_flight=True voids the pending acknowledgement.
    p.produce(unique_topic, b"void", partition=0)
    time.sleep(0.5)
    p.purge(in_queue=False, in_flight=True)
    dr.wait(p, 3, timeout=30)
    err, msg = dr.calls[2]
    assert msg.value() == b"void"
    assert err is not None and err.code() == KafkaError._PURGE_INFLIGHT


def test_buffer_error_when_queue_full(unique_topic: str, make_producer: Callable,
                                      reports: Callable) -> None:
    dr = reports()
    p = make_producer({**HOLD, "queue.buffering.max.messages": 5}, on_delivery=dr)
    for i in range(5):
        p.produce(unique_topic, str(i).encode())
    with pytest.raises(BufferError):
        p.produce(unique_topic, b"one too many")
    assert len(p) == 5
    # Draining the queue makes room again.
    assert p.flush(30) == 0
    assert dr.errors == [None] * 5
    p.produce(unique_topic, b"fits again")
    assert p.flush(30) == 0
    assert len(dr) == 6 and dr.errors[-1] is None


def test_buffer_error_by_size(unique_topic: str, make_producer: Callable) -> None:
    p = make_producer({**HOLD, "queue.buffering.max.kbytes": 64})
    with pytest.raises(BufferError):
        for _ in range(1000):
            p.produce(unique_topic, b"x" * 1024)
    assert 0 < len(p) < 1000


def test_buffer_error_without_broker() -> None:
    # No broker at all: the limit is purely local.
    p = Producer({"queue.buffering.max.messages": 2, "log_level": 0})
    try:
        p.produce("t", b"1")
        p.produce("t", b"2")
        with pytest.raises(BufferError):
            p.produce("t", b"3")
    finally:
        p.purge()
        p.close()


def test_buffer_error_is_recoverable_with_poll_loop(unique_topic: str, make_producer: Callable,
                                                    reports: Callable, read_back: Callable,
                                                    mock_cluster: Any) -> None:
    """The usual pattern: on BufferError, poll() to make room, then retry."""
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer({"queue.buffering.max.messages": 10}, on_delivery=dr)
    full = 0
    deadline = time.monotonic() + 60
    for i in range(300):
        while True:
            try:
                p.produce(unique_topic, str(i).encode())
                break
            except BufferError:
                full += 1
                assert time.monotonic() < deadline
                p.poll(0.1)
    assert p.flush(30) == 0
    assert full > 0
    assert [m.value() for m in dr.messages] == [str(i).encode() for i in range(300)]
    assert [m.offset() for m in dr.messages] == list(range(300))
