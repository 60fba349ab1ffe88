"""Callbacks are served from poll()/flush(); exceptions they raise surface unchanged;
poll/flush return early once something was served and honour their timeouts.

No broker: delivery reports are produced by purging queued messages (they fail with
_PURGE_QUEUE at once), errors by pointing at a loopback port where nothing listens,
and statistics by a short statistics.interval.ms.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, List, Optional, Tuple

import pytest

from confluent_kafka import KafkaError, Message, Producer

# Generous upper bound for "returns early": far below the timeouts we pass.
EARLY = 5.0


class Boom(Exception):
    """Raised from a user callback."""


class Collector:
    def __init__(self) -> None:
        self.calls: List[Tuple[Optional[KafkaError], Message]] = []
        self.threads: List[int] = []

    def __call__(self, err: Optional[KafkaError], msg: Message) -> None:
        self.calls.append((err, msg))
        self.threads.append(threading.get_ident())


def poll_until(p: Producer, cond: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        left = deadline - time.monotonic()
        assert left > 0, "condition not met in time"
        p.poll(min(left, 0.5))


def test_purged_messages_get_delivery_reports(make_producer: Callable[..., Producer]) -> None:
    default_cb, per_msg_cb = Collector(), Collector()
    p = make_producer(on_delivery=default_cb, broker=False)
    p.produce("topic-a", b"v0", b"k0")
    p.produce("topic-a", b"v1", b"k1", callback=per_msg_cb)
    p.produce("topic-a", "v2", on_delivery=per_msg_cb)
    assert len(p) == 3
    p.purge(in_queue=True, in_flight=False)
    poll_until(p, lambda: len(default_cb.calls) + len(per_msg_cb.calls) >= 3)
    assert len(p) == 0
    # The per-message callback replaces the default one for that message.
    assert [m.value() for _, m in default_cb.calls] == [b"v0"]
    assert [m.value() for _, m in per_msg_cb.calls] == [b"v1", b"v2"]
    for err, msg in default_cb.calls + per_msg_cb.calls:
        assert isinstance(err, KafkaError)
        assert err.code() == KafkaError._PURGE_QUEUE
        assert msg.error() == KafkaError._PURGE_QUEUE
        assert msg.topic() == "topic-a"
    assert default_cb.calls[0][1].key() == b"k0"
    # Callbacks ran in the thread that polled.
    assert set(default_cb.threads + per_msg_cb.threads) == {threading.get_ident()}


def test_delivery_reports_only_from_poll(make_producer: Callable[..., Producer]) -> None:
    cb = Collector()
    p = make_producer(on_delivery=cb)
    p.produce("t", b"x")
    p.purge()
    time.sleep(0.3)
    assert cb.calls == [], "callbacks must not run outside poll/flush"
    p.poll(5)
    assert len(cb.calls) == 1


def test_flush_serves_delivery_reports(make_producer: Callable[..., Producer]) -> None:
    cb = Collector()
    p = make_producer(on_delivery=cb)
    for i in range(10):
        p.produce("t", str(i).encode())
    p.purge(in_queue=True)
    assert p.flush(10) == 0
    assert [m.value() for _, m in cb.calls] == [str(i).encode() for i in range(10)]


def test_delivery_report_only_error(make_producer: Callable[..., Producer]) -> None:
    cb = Collector()
    p = make_producer({"delivery.report.only.error": True}, on_delivery=cb)
    p.produce("t", b"x")
    p.purge()
    poll_until(p, lambda: len(cb.calls) == 1)
    assert cb.calls[0][0] == KafkaError._PURGE_QUEUE


def test_delivery_callback_exception_surfaces_from_poll(
        make_producer: Callable[..., Producer]) -> None:
    raised = Boom("from on_delivery")

    def cb(err: Any, msg: Any) -> None:
        raise raised

    p = make_producer(on_delivery=cb)
    p.produce("t", b"x")
    p.purge()
    t0 = time.monotonic()
    with pytest.raises(Boom) as info:
        p.poll(30)
    assert time.monotonic() - t0 < EARLY
    assert info.value is raised


def test_delivery_callback_exception_surfaces_from_flush(
        make_producer: Callable[..., Producer]) -> None:
    raised = Boom("from callback=")

    def cb(err: Any, msg: Any) -> None:
        raise raised

    p = make_producer()
    p.produce("t", b"x", callback=cb)
    p.purge()
    with pytest.raises(Boom) as info:
        p.flush(30)
    assert info.value is raised


def test_exception_does_not_lose_other_reports(make_producer: Callable[..., Producer]) -> None:
    seen: List[bytes] = []

    def cb(err: Any, msg: Message) -> None:
        seen.append(msg.value())
        if msg.value() == b"1":
            raise Boom()

    p = make_producer(on_delivery=cb)
    for i in range(5):
        p.produce("t", str(i).encode())
    p.purge()
    with pytest.raises(Boom):
        p.flush(10)
    # The producer stays usable and the remaining reports are still delivered.
    assert p.flush(10) == 0
    assert sorted(seen) == [b"0", b"1", b"2", b"3", b"4"]
    p.produce("t", b"after")
    p.purge()
    p.flush(10)
    assert seen[-1] == b"after"


def test_base_exception_from_callback_is_not_swallowed(
        make_producer: Callable[..., Producer]) -> None:
    def cb(err: Any, msg: Any) -> None:
        raise KeyboardInterrupt("user hit ctrl-c in a callback")

    p = make_producer(on_delivery=cb)
    p.produce("t", b"x")
    p.purge()
    with pytest.raises(KeyboardInterrupt, match="ctrl-c in a callback"):
        p.poll(10)


def test_error_cb_receives_kafka_error(make_producer: Callable[..., Producer],
                                       unreachable: str) -> None:
    errors: List[KafkaError] = []
    p = make_producer({"bootstrap.servers": unreachable, "error_cb": errors.append})
    poll_until(p, lambda: bool(errors), timeout=30)
    assert all(isinstance(e, KafkaError) for e in errors)
    assert {e.code() for e in errors} <= {KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN,
                                          KafkaError._RESOLVE}
    assert any(e.code() in (KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN) for e in errors)


def test_error_cb_exception_surfaces_from_poll(make_producer: Callable[..., Producer],
                                               unreachable: str) -> None:
    raised = Boom("from error_cb")

    def cb(err: KafkaError) -> None:
        raise raised

    p = make_producer({"bootstrap.servers": unreachable, "error_cb": cb})
    deadline = time.monotonic() + 30
    with pytest.raises(Boom) as info:
        while time.monotonic() < deadline:
            p.poll(1)
    assert info.value is raised


def test_stats_cb_gets_json_from_poll(make_producer: Callable[..., Producer]) -> None:
    stats: List[str] = []
    threads: List[int] = []

    def cb(s: str) -> None:
        stats.append(s)
        threads.append(threading.get_ident())

    p = make_producer({"statistics.interval.ms": 100, "stats_cb": cb, "client.id": "stats-me"})
    poll_until(p, lambda: len(stats) >= 2)
    doc = json.loads(stats[0])
    assert doc["type"] == "producer"
    assert doc["client_id"] == "stats-me"
    assert set(threads) == {threading.get_ident()}


def test_stats_cb_exception_surfaces_from_flush(make_producer: Callable[..., Producer]) -> None:
    raised = Boom("from stats_cb")

    def cb(s: str) -> None:
        raise raised

    p = make_producer({"statistics.interval.ms": 100, "stats_cb": cb})
    p.produce("t", b"stuck")  # keeps flush() waiting until the stats event arrives
    t0 = time.monotonic()
    with pytest.raises(Boom) as info:
        p.flush(30)
    assert time.monotonic() - t0 < EARLY + 10
    assert info.value is raised


def test_poll_returns_early_when_events_were_served(
        make_producer: Callable[..., Producer]) -> None:
    cb = Collector()
    p = make_producer(on_delivery=cb)
    p.produce("t", b"x")
    p.purge()
    t0 = time.monotonic()
    served = p.poll(20)
    elapsed = time.monotonic() - t0
    assert served >= 1
    assert len(cb.calls) == 1
    assert elapsed < EARLY, f"poll(20) kept blocking {elapsed:.1f}s after serving an event"


def test_poll_returns_early_for_stats(make_producer: Callable[..., Producer]) -> None:
    stats: List[str] = []
    p = make_producer({"statistics.interval.ms": 200, "stats_cb": stats.append})
    t0 = time.monotonic()
    while not stats and time.monotonic() - t0 < 20:
        p.poll(20)
    assert stats
    assert time.monotonic() - t0 < EARLY


def test_poll_honours_timeout_when_idle(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)  # no broker configured: nothing will happen
    t0 = time.monotonic()
    assert p.poll(0.5) == 0
    elapsed = time.monotonic() - t0
    assert 0.4 <= elapsed < EARLY


def test_poll_zero_does_not_block(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    t0 = time.monotonic()
    for _ in range(100):
        assert p.poll(0) == 0
    assert time.monotonic() - t0 < EARLY


def test_flush_empty_returns_at_once(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    t0 = time.monotonic()
    assert p.flush(20) == 0
    assert time.monotonic() - t0 < EARLY


def test_flush_honours_timeout_and_reports_what_is_left(
        make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    p.produce("t", b"1")
    p.produce("t", b"2")
    t0 = time.monotonic()
    left = p.flush(0.5)
    elapsed = time.monotonic() - t0
    assert left == 2
    assert 0.4 <= elapsed < EARLY


def test_flush_zero_timeout(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    p.produce("t", b"1")
    t0 = time.monotonic()
    assert p.flush(0) == 1
    assert time.monotonic() - t0 < EARLY


def test_message_timeout_delivery_report(make_producer: Callable[..., Producer],
                                         unreachable: str) -> None:
    cb = Collector()
    p = make_producer({"bootstrap.servers": unreachable, "message.timeout.ms": 200},
                      on_delivery=cb)
    p.produce("t", b"never", b"key", headers=[("h", b"v")])
    assert p.flush(30) == 0
    assert len(cb.calls) == 1
    err, msg = cb.calls[0]
    assert err.code() == KafkaError._MSG_TIMED_OUT
    assert msg.error() == KafkaError._MSG_TIMED_OUT
    assert msg.topic() == "t"
    assert msg.value() == b"never"
    assert msg.key() == b"key"
    assert msg.offset() is None


def test_flush_serves_what_arrives_during_delivery_callbacks(
        make_producer: Callable[..., Producer]) -> None:
    # A delivery callback runs after librdkafka's flush found the queue empty; whatever it causes
    # to be queued (here a second report) is still flush()'s to serve, and flush() returns 0.
    seen: List[bytes] = []
    p = make_producer(broker=False)

    def cb(err: Any, msg: Message) -> None:
        seen.append(msg.value())
        if msg.value() == b"first":
            p.produce("t", b"second", on_delivery=cb)
            p.purge(in_flight=False)

    p.produce("t", b"first", on_delivery=cb)
    p.purge()
    assert p.flush(10) == 0
    assert seen == [b"first", b"second"]
    assert len(p) == 0


def test_flush_counts_messages_not_events_that_follow_them(
        make_producer: Callable[..., Producer], unreachable: str) -> None:
    # The scan that times a message out also retries metadata, and the failed connect queues a
    # "brokers are down" error right behind the delivery report. Another thread holding the GIL
    # when flush() comes back for it (any busy test run) let that error be counted as "left".
    stop = threading.Event()

    def hold_gil() -> None:
        while not stop.is_set():
            sum(range(1000))

    spinner = threading.Thread(target=hold_gil)
    spinner.start()
    try:
        for _ in range(3):
            cb = Collector()
            p = make_producer({"bootstrap.servers": unreachable, "message.timeout.ms": 200},
                              on_delivery=cb)
            p.produce("t", b"never")
            assert p.flush(30) == 0
            assert [err.code() for err, _ in cb.calls] == [KafkaError._MSG_TIMED_OUT]
    finally:
        stop.set()
        spinner.join()


def test_callbacks_from_another_thread(make_producer: Callable[..., Producer]) -> None:
    cb = Collector()
    p = make_producer(on_delivery=cb)
    for i in range(50):
        p.produce("t", str(i).encode())
    p.purge()
    done = threading.Event()

    def worker() -> None:
        while len(cb.calls) < 50 and not done.is_set():
            p.poll(0.2)

    t = threading.Thread(target=worker)
    t.start()
    t.join(20)
    done.set()
    t.join(5)
    assert not t.is_alive()
    assert len(cb.calls) == 50
    assert set(cb.threads) == {t.ident}
