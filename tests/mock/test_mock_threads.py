"""Concurrency against the mock cluster: producing from several threads while another polls."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, List

import pytest

from confluent_kafka import KafkaError

pytestmark = pytest.mark.mock


def test_many_threads_produce_one_polls(mock_cluster: Any, unique_topic: str,
                                        make_producer: Callable, reports: Callable,
                                        read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=4)
    dr = reports()
    p = make_producer({"linger.ms": 5}, on_delivery=dr)
    n_threads, per_thread = 4, 2000
    stop = threading.Event()
    failures: List[BaseException] = []

    def producer(tid: int) -> None:
        try:
            for i in range(per_thread):
                while True:
                    try:
                        # Same key per thread: one partition, so per-thread order is kept.
                        p.produce(unique_topic, f"{tid}:{i}".encode(), key=str(tid).encode())
                        break
                    except BufferError:
                        time.sleep(0.01)
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    def poller() -> None:
        while not stop.is_set():
            p.poll(0.1)

    poll_thread = threading.Thread(target=poller)
    poll_thread.start()
    workers = [threading.Thread(target=producer, args=(t,)) for t in range(n_threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    stop.set()
    poll_thread.join(10)
    assert not failures, failures
    assert p.flush(30) == 0
    total = n_threads * per_thread
    assert len(dr) == total
    assert dr.errors == [None] * total
    by_thread: Dict[str, List[int]] = {}
    for m in dr.messages:
        tid, i = m.value().decode().split(":")
        by_thread.setdefault(tid, []).append(int(i))
    assert all(seq == list(range(per_thread)) for seq in by_thread.values())
    # Every partition's offsets are dense.
    per_part: Dict[int, List[int]] = {}
    for m in dr.messages:
        per_part.setdefault(m.partition(), []).append(m.offset())
    for offsets in per_part.values():
        assert sorted(offsets) == list(range(len(offsets)))


def test_consumed_messages_are_complete_values(mock_cluster: Any, unique_topic: str,
                                               make_producer: Callable, read_back: Callable) -> None:
    import pickle

    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    p.produce(unique_topic, b"value", b"key", headers=[("h", b"1")], timestamp=1_650_000_000_000)
    assert p.flush(30) == 0
    (m,) = read_back(unique_topic, 0, 1)
    assert m.error() is None
    assert len(m) == 5
    assert m.latency() is None  # only delivery reports have a latency
    assert m.leader_epoch() is None or m.leader_epoch() >= 0
    back = pickle.loads(pickle.dumps(m))
    assert back == m
    assert (back.topic(), back.partition(), back.offset(), back.key(), back.value(),
            back.headers(), back.timestamp()) == (unique_topic, 0, 0, b"key", b"value",
                                                  [("h", b"1")], (1, 1_650_000_000_000))


def test_consumer_list_topics_unknown_topic(make_consumer: Callable, unique_topic: str) -> None:
    c = make_consumer({"allow.auto.create.topics": False})
    md = c.list_topics(unique_topic, timeout=10)
    t = md.topics[unique_topic]
    assert isinstance(t.error, KafkaError)
    assert t.error.code() == KafkaError.UNKNOWN_TOPIC_OR_PART
    assert t.partitions == {}


def test_a_flush_serves_its_reports_while_another_thread_polls(mock_cluster: Any, unique_topic: str,
                                                               make_producer: Callable) -> None:
    """poll() on one thread while flush() runs on another serves nothing: the flush serves every
    report. A report the poll took would leave rd_kafka_flush() waiting out its 10 ms before it
    looked at the count again (a poller thread plus send-and-flush: 10 ms per message)."""
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer({"linger.ms": 0})
    p.produce(unique_topic, b"warm-up", partition=0)
    assert p.flush(30) == 0
    for broker in (1, 2, 3):
        mock_cluster.set_rtt(broker, 400)  # the report arrives well after both threads wait for it
    served_on: List[Any] = []
    p.produce(unique_topic, b"v", partition=0,
              on_delivery=lambda err, msg: served_on.append((err, threading.current_thread().name)))
    flushing, left = threading.Event(), []

    def flusher() -> None:
        flushing.set()
        left.append(p.flush(30))
    t = threading.Thread(target=flusher, name="flusher")
    t.start()
    assert flushing.wait(10)
    polled = []
    deadline = time.monotonic() + 30
    while t.is_alive() and time.monotonic() < deadline:
        polled.append(p.poll(0.05))
    t.join(30)
    assert left == [0] and served_on == [(None, "flusher")]
    assert polled and set(polled) == {0}
