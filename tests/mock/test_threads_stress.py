"""Threads against the C core, meant for free-threaded CPython (3.13t and later) but run on every
interpreter: with a GIL it checks the same guarantees, without one it is where a data race in the
extension would show up (docs/threading.md; ``make tsan`` runs this file under ThreadSanitizer).

- one Producer shared by eight threads that each produce and poll: every produced key is
  reported delivered exactly once, without error;
- meanwhile four threads, each with its own Consumer, read the topic's partitions: every key is
  consumed exactly once;
- close() racing calls on other threads (including a second close()): every call either works
  or raises RuntimeError, and the process survives;
- one Message, TopicPartition and KafkaError shared by threads that read and change them;
- produce_batch() with delivery.report.only.error while other threads serve its reports: the
  reference its rows share lives until the last of them is reported.

Sizes are small enough for the normal suite (a few seconds on two busy cores)."""

from __future__ import annotations

import contextlib
import functools
import random
import threading
import time
from collections import Counter
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from confluent_kafka import (
    OFFSET_BEGINNING,
    Consumer,
    KafkaError,
    KafkaException,
    Message,
    Producer,
    TopicPartition,
)
from confluent_kafka.testing import MockCluster

pytestmark = pytest.mark.mock

PRODUCER_THREADS = 8
CONSUMER_THREADS = 4
PER_THREAD = 4000
PARTITIONS = 8
JOIN_TIMEOUT = 60.0


def run_threads(targets: List[Callable[[], None]]) -> List[BaseException]:
    """Run every target on a thread of its own; join them (bounded) and return what they raised."""
    failures: List[BaseException] = []
    lock = threading.Lock()

    def guard(fn: Callable[[], None]) -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            with lock:
                failures.append(exc)

    threads = [threading.Thread(target=guard, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + JOIN_TIMEOUT
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    stuck = [t for t in threads if t.is_alive()]
    assert not stuck, f"{len(stuck)} thread(s) still running after {JOIN_TIMEOUT} s: a deadlock"
    return failures


def closed_error(exc: BaseException) -> bool:
    """The exception a call racing close() may raise."""
    return isinstance(exc, RuntimeError) and "close" in str(exc)


def until_closed(step: Callable[[], None]) -> None:
    """Call step() until the client is closed under it; any other exception propagates."""
    while True:
        try:
            step()
        except RuntimeError as exc:
            if closed_error(exc):
                return
            raise


@contextlib.contextmanager
def polling(p: Producer, threads: int, timeout: float) -> Iterator[None]:
    """``threads`` threads calling p.poll(timeout) until the block ends."""
    stop = threading.Event()

    def poller() -> None:
        while not stop.is_set():
            p.poll(timeout)

    pollers = [threading.Thread(target=poller) for _ in range(threads)]
    for t in pollers:
        t.start()
    try:
        yield
    finally:
        stop.set()
        for t in pollers:
            t.join(10)


def test_shared_producer_and_consumers_lose_and_duplicate_nothing(mock_cluster: MockCluster,
                                                                  unique_topic: str) -> None:
    mock_cluster.create_topic(unique_topic, PARTITIONS, 1)
    bootstrap = mock_cluster.bootstrap_servers
    expected = {f"{t}-{i}".encode() for t in range(PRODUCER_THREADS) for i in range(PER_THREAD)}
    delivered: Counter[bytes] = Counter()
    delivery_errors: List[Any] = []
    report_threads: set[int] = set()
    lock = threading.Lock()

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        with lock:
            report_threads.add(threading.get_ident())
            if err is not None:
                delivery_errors.append(err)
            else:
                key = msg.key()
                assert isinstance(key, bytes)
                delivered[key] += 1

    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "on_delivery": on_delivery})
    consumed: Counter[bytes] = Counter()
    consumer_errors: List[Any] = []
    producers_done = threading.Event()
    start = threading.Barrier(PRODUCER_THREADS + CONSUMER_THREADS)

    def produce(tid: int) -> None:
        start.wait(10)
        rng = random.Random(tid)
        for i in range(PER_THREAD):
            key = f"{tid}-{i}".encode()
            while True:
                try:
                    producer.produce(unique_topic, value=key * 3, key=key)
                    break
                except BufferError:
                    producer.poll(0.01)
            if rng.random() < 0.2:
                producer.poll(0)  # delivery reports served on every producing thread
        # Then serve reports until all of them (every thread's) arrived: eight threads polling.
        deadline = time.monotonic() + JOIN_TIMEOUT - 10
        while time.monotonic() < deadline:
            with lock:
                if sum(delivered.values()) + len(delivery_errors) >= len(expected):
                    return
            producer.poll(0.05)

    def consume(cid: int) -> None:
        consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"{unique_topic}-{cid}",
                             "enable.auto.commit": False, "enable.partition.eof": False})
        try:
            # Partitions split between the consumers by hand: no rebalance, so every record has
            # exactly one reader.
            consumer.assign([TopicPartition(unique_topic, p, OFFSET_BEGINNING)
                             for p in range(cid, PARTITIONS, CONSUMER_THREADS)])
            start.wait(10)
            deadline = time.monotonic() + JOIN_TIMEOUT - 5
            while time.monotonic() < deadline:
                batch = consumer.consume(500, 0.1)
                for m in batch:
                    if m.error() is not None:
                        with lock:
                            consumer_errors.append(m.error())
                        continue
                    key = m.key()
                    assert isinstance(key, bytes) and m.value() == key * 3
                    with lock:
                        consumed[key] += 1
                with lock:
                    if producers_done.is_set() and sum(consumed.values()) >= len(expected):
                        return
        finally:
            consumer.close()

    producer_threads: List[Callable[[], None]] = [functools.partial(produce, t) for t in range(PRODUCER_THREADS)]

    def producers_then_flush() -> None:
        failures = run_threads(producer_threads)
        assert not failures, failures
        assert producer.flush(30) == 0
        producers_done.set()

    consumer_threads: List[Callable[[], None]] = [functools.partial(consume, c) for c in range(CONSUMER_THREADS)]
    try:
        failures = run_threads([producers_then_flush] + consumer_threads)
    finally:
        producer.close(10)
    assert not failures, failures
    assert not delivery_errors, delivery_errors[:5]
    assert set(delivered) == expected, f"{len(expected - set(delivered))} key(s) never reported delivered"
    assert [k for k, n in delivered.items() if n != 1] == [], "a key was reported delivered twice"
    assert not consumer_errors, consumer_errors[:5]
    assert set(consumed) == expected, f"{len(expected - set(consumed))} key(s) never consumed"
    assert [k for k, n in consumed.items() if n != 1] == [], "a key was consumed twice"
    # Reports reached their callbacks on several threads (poll() on each producing thread).
    assert len(report_threads) > 1, report_threads


@pytest.mark.parametrize("round_", range(12))
def test_producer_close_racing_produce_poll_flush_and_close(mock_cluster: MockCluster, unique_topic: str,
                                                           round_: int) -> None:
    mock_cluster.create_topic(unique_topic, 2, 1)
    reports: List[Any] = []
    lock = threading.Lock()

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        with lock:
            reports.append(err)

    p = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 1,
                  "on_delivery": on_delivery, "log_level": 0})
    produced = [0]
    start = threading.Barrier(7)
    delay = random.Random(round_).uniform(0.0, 0.2)

    def produce_one() -> None:
        try:
            p.produce(unique_topic, b"v", key=b"k")
            with lock:
                produced[0] += 1
            p.poll(0)
        except BufferError:
            time.sleep(0.001)

    def serve() -> None:
        p.poll(0.05)
        p.flush(0.01)
        len(p)
        p.list_topics(unique_topic, timeout=1)

    def producer() -> None:
        start.wait(10)
        until_closed(produce_one)

    def poller() -> None:
        start.wait(10)
        until_closed(serve)

    def closer() -> None:
        start.wait(10)
        time.sleep(delay)
        assert p.close(10) is True

    failures = run_threads([producer] * 3 + [poller] * 2 + [closer] * 2)
    assert failures == [], failures
    # close() delivered or purged what was produced before it: one report each.
    assert len(reports) == produced[0]
    with pytest.raises(RuntimeError):
        p.produce(unique_topic, b"after close")
    assert p.close() is True


@pytest.mark.parametrize("round_", range(8))
def test_consumer_close_racing_poll_consume_and_close(mock_cluster: MockCluster, unique_topic: str,
                                                      round_: int) -> None:
    mock_cluster.create_topic(unique_topic, 2, 1)
    p = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    for i in range(500):
        p.produce(unique_topic, str(i).encode(), partition=i % 2)
    assert p.flush(10) == 0
    p.close()
    c = Consumer({"bootstrap.servers": mock_cluster.bootstrap_servers, "group.id": unique_topic,
                  "enable.auto.commit": False, "log_level": 0})
    c.assign([TopicPartition(unique_topic, part, OFFSET_BEGINNING) for part in range(2)])
    seen: List[bytes] = []
    lock = threading.Lock()
    start = threading.Barrier(6)
    delay = random.Random(round_).uniform(0.0, 0.3)

    def read() -> None:
        try:
            got = c.consume(20, 0.05)
            m = c.poll(0.05)
            if m is not None:
                got.append(m)
            with lock:
                seen.extend(x.value() for x in got if x.error() is None)  # type: ignore[misc]
            c.position(c.assignment())
        except KafkaException:
            pass

    def reader() -> None:
        start.wait(10)
        until_closed(read)

    def closer() -> None:
        start.wait(10)
        time.sleep(delay)
        c.close()

    failures = run_threads([reader] * 4 + [closer] * 2)
    assert failures == [], failures
    assert len(set(seen)) == len(seen), "a message was handed to two callers"
    with pytest.raises(RuntimeError):
        c.poll(0)


def test_shared_value_objects_read_and_changed_by_threads() -> None:
    msg = Message(topic="t", partition=0, offset=1, key=b"k", value=b"v", headers=[("h", b"1")])
    tp = TopicPartition("t", 0, 5)
    err = KafkaError(KafkaError._MSG_TIMED_OUT, "slow")
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        start.wait(10)
        for i in range(2000):
            msg.set_value(str(i).encode())
            msg.set_headers([("h", str(n).encode())] if i % 2 else {"h": b"x"})
            msg.set_key(None if i % 3 == 0 else b"k")
            msg.set_timestamp(i)
            tp.offset = i
            err.__init__(KafkaError._MSG_TIMED_OUT, f"slow {i}")  # type: ignore[misc]

    def reader() -> None:
        start.wait(10)
        for _ in range(2000):
            assert isinstance(msg.value(), bytes)
            assert msg.headers() is not None
            msg.key()
            assert msg.timestamp()[0] in (0, 1, 2)
            repr(msg)
            msg == msg  # noqa: B015 - exercises the comparison
            assert msg.__reduce__()[1][0] == "t"
            assert err.str().startswith("slow")
            repr(tp)
            hash(tp)

    writers: List[Callable[[], None]] = [functools.partial(writer, n) for n in range(4)]
    failures = run_threads(writers + [reader] * 4)
    assert failures == [], failures


def test_reports_keep_order_per_key_with_many_polling_threads(mock_cluster: MockCluster,
                                                               unique_topic: str) -> None:
    """Delivery reports of one partition arrive in produce order on each thread that serves them;
    across threads no report is served twice."""
    mock_cluster.create_topic(unique_topic, 1, 1)
    served: Dict[int, List[int]] = {}
    lock = threading.Lock()

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        assert err is None
        value = msg.value()
        assert isinstance(value, bytes)
        with lock:
            served.setdefault(threading.get_ident(), []).append(int(value))

    p = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 20,
                  "on_delivery": on_delivery})
    try:
        for i in range(5000):
            p.produce(unique_topic, str(i).encode())
        with polling(p, 4, 0.01):
            assert p.flush(30) == 0
    finally:
        p.close(10)
    everything = sorted(v for vals in served.values() for v in vals)
    assert everything == list(range(5000))
    # Each thread got its reports in produce order (one partition): a thread takes whole
    # batches of reports off librdkafka's queue.
    for vals in served.values():
        assert vals == sorted(vals)


def test_error_only_batches_while_other_threads_serve_their_reports(mock_cluster: MockCluster,
                                                                    unique_topic: str) -> None:
    """produce_batch() with delivery.report.only.error shares one reference among the rows of a
    batch. Threads serving the reports of a batch's first rows while its later rows are still
    being sent must not free it under the batch; failed rows come back with their own value."""
    mock_cluster.create_topic(unique_topic, 2, 1)
    failed: List[bytes] = []
    lock = threading.Lock()

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        assert err is not None and err.code() == KafkaError.MSG_SIZE_TOO_LARGE, err
        value = msg.value()
        assert isinstance(value, bytes)
        with lock:
            failed.append(value)

    # Some Produce requests fail for good: their rows are reported, with the bytes they carried.
    mock_cluster.push_request_errors(0, [KafkaError.MSG_SIZE_TOO_LARGE] * 5)
    p = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers, "linger.ms": 0,
                  "batch.num.messages": 50, "delivery.report.only.error": True,
                  "on_delivery": on_delivery})
    batches, rows = 20, 2000

    def sender(tag: int) -> None:
        for b in range(batches):
            values = [b"%d-%d-%d" % (tag, b, i) for i in range(rows)]
            assert p.produce_batch(unique_topic, values=values, partition=[i % 2 for i in range(rows)]) == rows

    try:
        with polling(p, 2, 0.001):
            failures = run_threads([functools.partial(sender, tag) for tag in range(2)])
            assert not failures, failures
            assert p.flush(30) == 0
    finally:
        p.close(10)
    assert 0 < len(failed) <= 5 * 50  # five failed requests of at most 50 rows each
    sent = {b"%d-%d-%d" % (tag, b, i) for tag in range(2) for b in range(batches) for i in range(rows)}
    assert len(set(failed)) == len(failed) and set(failed) <= sent
