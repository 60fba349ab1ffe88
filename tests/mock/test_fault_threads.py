"""Many threads on one client at once: producing, polling, flushing, consuming, committing and
closing it, while it talks to the mock cluster. No crash, no deadlock (every thread ends within
its bound), no lost delivery report, and after close() every call raises RuntimeError."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, List

import pytest

from confluent_kafka import KafkaException, Producer, TopicPartition
from confluent_kafka.testing import MockCluster

pytestmark = pytest.mark.mock

JOIN_TIMEOUT = 60.0


def run_threads(targets: List[Callable[[], None]]) -> List[BaseException]:
    """Start every target, join them all (bounded); return what they raised."""
    failures: List[BaseException] = []

    def guard(fn: Callable[[], None]) -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            failures.append(exc)

    threads = [threading.Thread(target=guard, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(JOIN_TIMEOUT)
    stuck = [t for t in threads if t.is_alive()]
    assert not stuck, f"{len(stuck)} thread(s) still running after {JOIN_TIMEOUT} s: deadlock"
    return failures


def closed_error(exc: BaseException) -> bool:
    return isinstance(exc, RuntimeError) and ("closed" in str(exc) or "being closed" in str(exc))


def test_producer_produce_poll_flush_close_from_many_threads(mock_cluster: MockCluster,
                                                            unique_topic: str,
                                                            make_producer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, 4, 3)
    reports: List[Any] = []
    lock = threading.Lock()

    def dr(err: Any, msg: Any) -> None:
        with lock:
            reports.append(err)

    p = make_producer({"linger.ms": 2, "log_level": 0}, on_delivery=dr)
    produced = [0]
    started = threading.Barrier(9)

    def producer() -> None:
        started.wait(10)
        for i in range(3000):
            try:
                p.produce(unique_topic, b"x")
            except BufferError:
                time.sleep(0.005)
                continue
            except RuntimeError as exc:
                if closed_error(exc):
                    return
                raise
            with lock:
                produced[0] += 1

    def poller() -> None:
        started.wait(10)
        for _ in range(300):
            try:
                p.poll(0.01)
                p.flush(0.01)
                len(p)
            except RuntimeError as exc:
                if closed_error(exc):
                    return
                raise

    def closer() -> None:
        started.wait(10)
        time.sleep(0.5)
        assert p.close(30) is True

    failures = run_threads([producer] * 4 + [poller] * 4 + [closer])
    assert not [f for f in failures if not closed_error(f)], failures
    # close() served or purged every message produced before it: one report each, none lost.
    assert len(reports) == produced[0] > 0
    with pytest.raises(RuntimeError):
        p.produce(unique_topic, b"after close")


def test_flush_waits_for_the_reports_a_poll_on_another_thread_holds(mock_cluster: MockCluster, unique_topic: str,
                                                                  make_producer: Callable) -> None:
    """poll() takes a batch of reports from librdkafka, which then counts those messages as
    delivered, and runs their callbacks one after another. A flush() on another thread meanwhile
    returns only once every callback has run, as upstream's does (its callbacks run before
    librdkafka lets go). The first callback sleeps to hold the rest of its batch."""
    mock_cluster.create_topic(unique_topic, 1, 3)
    first = threading.Event()
    delivered: List[bytes] = []

    def dr(err: Any, msg: Any) -> None:
        if not first.is_set():
            first.set()
            time.sleep(0.3)
        delivered.append(msg.value())

    p = make_producer({"linger.ms": 20}, on_delivery=dr)
    values = [b"%d" % i for i in range(50)]
    for v in values:
        p.produce(unique_topic, v, partition=0)
    poller = threading.Thread(target=p.poll, args=(10,))
    poller.start()
    try:
        assert first.wait(10), "no delivery report within 10 s"
        assert p.flush(10) == 0
        assert delivered == values
        assert len(p) == 0
    finally:
        poller.join(JOIN_TIMEOUT)
    assert not poller.is_alive()


def test_reports_served_by_many_threads_at_once_are_counted_once(mock_cluster: MockCluster, unique_topic: str,
                                                                  make_producer: Callable) -> None:
    """Threads polling at once each take reports from librdkafka and count them until their
    callbacks have run (what flush() and len() add to librdkafka's queue). Counted by threads
    that do not hold the GIL, the count must still come back to exactly zero: a lost update
    leaves len() above zero (a flush() that waits for nothing) or below it (len() fails)."""
    mock_cluster.create_topic(unique_topic, 8, 1)
    total = 200_000
    reports = [0]
    lock = threading.Lock()

    def dr(err: Any, msg: Any) -> None:
        with lock:  # callbacks run on every polling thread (at once on a free-threaded build)
            reports[0] += 1

    # Small batches: many delivery events, which the pollers take and count at the same time.
    p = make_producer({"linger.ms": 0, "batch.num.messages": 8, "queue.buffering.max.messages": total},
                      on_delivery=dr)
    for i in range(total):
        p.produce(unique_topic, b"x", partition=i % 8)

    def poller() -> None:
        deadline = time.monotonic() + 30
        while reports[0] < total and time.monotonic() < deadline:
            p.poll(0.05)

    try:
        failures = run_threads([poller] * 4)
        assert not failures, failures
        assert reports[0] == total
        assert len(p) == 0
        assert p.flush(5) == 0
    finally:
        p.close(10)  # bounded: a count that never comes back to zero would hold close() forever


def test_consumer_consume_commit_close_from_many_threads(mock_cluster: MockCluster,
                                                         unique_topic: str,
                                                         make_producer: Callable,
                                                         make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, 3, 3)
    p = make_producer()
    for i in range(3000):
        p.produce(unique_topic, str(i).encode(), partition=i % 3)
    assert p.flush(30) == 0
    c = make_consumer({"log_level": 0})
    c.assign([TopicPartition(unique_topic, part, 0) for part in range(3)])
    seen: List[bytes] = []
    lock = threading.Lock()
    started = threading.Barrier(7)

    def consumer() -> None:
        started.wait(10)
        for _ in range(200):
            try:
                for m in c.consume(50, 0.05):
                    if m.error() is None:
                        with lock:
                            seen.append(m.value())
                m = c.poll(0.01)
                if m is not None and m.error() is None:
                    with lock:
                        seen.append(m.value())
            except RuntimeError as exc:
                if closed_error(exc):
                    return
                raise

    def committer() -> None:
        started.wait(10)
        for _ in range(100):
            try:
                c.commit(asynchronous=True)
                c.position(c.assignment())
                c.assignment()
                time.sleep(0.01)
            except KafkaException:
                pass  # _NO_OFFSET before anything was consumed
            except RuntimeError as exc:
                if closed_error(exc):
                    return
                raise

    def closer() -> None:
        started.wait(10)
        time.sleep(1.0)
        c.close()

    failures = run_threads([consumer] * 4 + [committer] * 2 + [closer])
    assert not [f for f in failures if not closed_error(f)], failures
    assert len(set(seen)) == len(seen), "a message was handed out twice"
    assert seen, "nothing was consumed before close()"
    with pytest.raises(RuntimeError):
        c.poll(0)


def test_close_ends_an_unbounded_cluster_id_wait_on_another_thread() -> None:
    """cluster_id() with no timeout waits for a broker that never answers; a close() on another
    thread ends that wait (RuntimeError, as every call racing close() gets) instead of waiting
    for it for ever."""
    # Not make_producer(): its teardown's close() would wait on the stuck call too.
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})  # nothing listens there
    waiting = threading.Event()
    raised: List[BaseException] = []
    closed: List[bool] = []

    def wait_for_id() -> None:
        waiting.set()
        try:
            p.cluster_id()
        except RuntimeError as exc:
            raised.append(exc)

    # Daemon threads: a close() that waits for ever fails this test instead of hanging the run.
    waiter = threading.Thread(target=wait_for_id, daemon=True)
    waiter.start()
    assert waiting.wait(10)
    time.sleep(0.3)  # inside its wait
    closer = threading.Thread(target=lambda: closed.append(p.close(10)), daemon=True)
    closer.start()
    closer.join(10)
    waiter.join(10)
    assert not closer.is_alive(), "close() still waiting for cluster_id() after 10 s"
    assert not waiter.is_alive()
    assert closed == [True]
    assert len(raised) == 1 and "being closed" in str(raised[0]), raised
