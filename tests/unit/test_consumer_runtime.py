"""Consumer behaviour that needs no broker: timeouts, the GIL, Ctrl-C, callbacks that raise,
iteration, and the local assignment/pause state. The bootstrap server (127.0.0.1:1) refuses
connections at once."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterator, List

import pytest

from confluent_kafka import (OFFSET_BEGINNING, OFFSET_INVALID, OFFSET_STORED, Consumer, KafkaError,
                             KafkaException, TopicPartition)

BOUND = 5.0  # seconds: what "promptly" means for an interrupted 30 s wait


class Boom(Exception):
    pass


def _no_broker(**conf: Any) -> Consumer:
    """A consumer with no bootstrap servers at all: it sends nothing and raises no error events."""
    return Consumer({"group.id": "unit-no-broker", "log_level": 0, **conf})


@pytest.fixture
def quiet(request: pytest.FixtureRequest) -> Iterator[Callable[..., Consumer]]:
    made: List[Consumer] = []

    def factory(**conf: Any) -> Consumer:
        c = _no_broker(**conf)
        made.append(c)
        return c

    yield factory
    for c in made:
        try:
            c.close()
        except Exception:
            pass


# ---- timing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("timeout", [0.3, 1.0])
def test_poll_returns_none_after_about_its_timeout(quiet: Callable[..., Consumer], timeout: float) -> None:
    c = quiet()
    c.assign([TopicPartition("t", 0, OFFSET_BEGINNING)])
    t0 = time.monotonic()
    assert c.poll(timeout) is None
    elapsed = time.monotonic() - t0
    assert timeout * 0.9 <= elapsed < timeout + 2.0, elapsed


def test_poll_zero_and_keyword_timeout(quiet: Callable[..., Consumer]) -> None:
    c = quiet()
    t0 = time.monotonic()
    assert c.poll(0) is None
    assert c.poll(timeout=0.0) is None
    assert time.monotonic() - t0 < 1.0


def test_consume_returns_empty_list_after_about_its_timeout(quiet: Callable[..., Consumer]) -> None:
    c = quiet()
    t0 = time.monotonic()
    assert c.consume(100, 0.5) == []
    elapsed = time.monotonic() - t0
    assert 0.45 <= elapsed < 2.5, elapsed
    t0 = time.monotonic()
    assert c.consume(num_messages=1, timeout=0) == []
    assert time.monotonic() - t0 < 1.0


def test_iteration_ends_after_consumer_timeout_ms(quiet: Callable[..., Consumer]) -> None:
    c = quiet(consumer_timeout_ms=300)
    assert iter(c) is c
    t0 = time.monotonic()
    assert list(c) == []
    elapsed = time.monotonic() - t0
    assert 0.25 <= elapsed < 2.5, elapsed
    with pytest.raises(StopIteration):
        next(c)


def test_iteration_with_zero_timeout_ends_at_once(quiet: Callable[..., Consumer]) -> None:
    c = quiet(consumer_timeout_ms=0)
    t0 = time.monotonic()
    assert list(c) == []
    assert time.monotonic() - t0 < 1.0


# ---- the GIL ----------------------------------------------------------------------------------

def _progress_during(call: Callable[[], Any]) -> int:
    """How many 5 ms steps another Python thread completes while ``call()`` runs."""
    stop = threading.Event()
    ticks = [0]

    def spin() -> None:
        while not stop.is_set():
            time.sleep(0.005)
            ticks[0] += 1

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    time.sleep(0.05)
    before = ticks[0]
    try:
        call()
    except KafkaException:
        pass
    after = ticks[0]
    stop.set()
    t.join(5)
    return after - before


@pytest.mark.parametrize("what", ["poll", "consume", "iterate"])
def test_waits_release_the_gil(quiet: Callable[..., Consumer], what: str) -> None:
    c = quiet(consumer_timeout_ms=1000)
    call = {"poll": lambda: c.poll(1.0), "consume": lambda: c.consume(10, 1.0),
            "iterate": lambda: list(c)}[what]
    ticks = _progress_during(call)
    # ~200 possible in one second; holding the GIL would allow (almost) none.
    assert ticks > 40, f"another thread made only {ticks} steps during {what}(1.0)"


@pytest.mark.parametrize("what", ["committed", "get_watermark_offsets", "offsets_for_times", "list_topics"])
def test_blocking_queries_release_the_gil_and_time_out(make_consumer: Callable[..., Consumer],
                                                       what: str) -> None:
    c = make_consumer()
    tp = TopicPartition("t", 0, 1000)
    call = {"committed": lambda: c.committed([tp], timeout=1.0),
            "get_watermark_offsets": lambda: c.get_watermark_offsets(tp, timeout=1.0),
            "offsets_for_times": lambda: c.offsets_for_times([tp], timeout=1.0),
            "list_topics": lambda: c.list_topics(timeout=1.0)}[what]
    t0 = time.monotonic()
    with pytest.raises(KafkaException) as ei:
        call()
    elapsed = time.monotonic() - t0
    assert 0.5 <= elapsed < 5, elapsed
    assert isinstance(ei.value.args[0], KafkaError)
    assert _progress_during(lambda: call()) > 40


def test_poll_from_two_threads(quiet: Callable[..., Consumer]) -> None:
    c = quiet()
    results: List[Any] = []

    def worker() -> None:
        results.append(c.poll(0.5))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == [None, None]
    assert time.monotonic() - t0 < 3.0, "two 0.5 s polls on two threads must overlap"


def test_close_from_another_thread_ends_a_waiting_poll(quiet: Callable[..., Consumer]) -> None:
    c = quiet()
    outcome: List[Any] = []

    def waiter() -> None:
        try:
            outcome.append(c.poll(30))
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            outcome.append(e)

    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.3)
    t0 = time.monotonic()
    c.close()
    t.join(BOUND)
    assert not t.is_alive(), "poll(30) kept waiting after close()"
    assert time.monotonic() - t0 < BOUND
    assert outcome and (outcome[0] is None or isinstance(outcome[0], RuntimeError)), outcome
    with pytest.raises(RuntimeError):
        c.poll(0)


# ---- Ctrl-C ------------------------------------------------------------------------------------

@pytest.fixture
def sigint_soon() -> Iterator[Callable[[float], None]]:
    """Send this process SIGINT from a timer thread after ``delay`` seconds (default handler:
    KeyboardInterrupt in the main thread)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timers: List[threading.Timer] = []

    def arm(delay: float) -> None:
        t = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
        t.daemon = True
        timers.append(t)
        t.start()

    yield arm
    for t in timers:
        t.cancel()
        t.join(5)
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("what", ["poll", "poll-forever", "consume", "iterate"])
def test_ctrl_c_interrupts_waits(quiet: Callable[..., Consumer], sigint_soon: Callable[[float], None],
                                 what: str) -> None:
    c = quiet()  # no consumer_timeout_ms: iteration would wait forever
    call = {"poll": lambda: c.poll(30), "poll-forever": lambda: c.poll(),
            "consume": lambda: c.consume(10, 30), "iterate": lambda: list(c)}[what]
    sigint_soon(0.3)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        call()
    assert time.monotonic() - t0 < BOUND
    # Still usable afterwards.
    assert c.poll(0) is None
    c.close()


def test_ctrl_c_interrupts_synchronous_commit(make_consumer: Callable[..., Consumer],
                                              sigint_soon: Callable[[float], None]) -> None:
    # Unreachable coordinator: the commit would wait for it. (close() then waits for the
    # abandoned commit up to about session.timeout.ms, hence the short one.)
    c = make_consumer({"session.timeout.ms": 1500, "heartbeat.interval.ms": 500})
    sigint_soon(0.3)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        c.commit(offsets=[TopicPartition("t", 0, 5)], asynchronous=False)
    assert time.monotonic() - t0 < BOUND
    assert c.poll(0.1) is None
    c.close()


def test_signal_handler_exception_comes_out_of_poll(quiet: Callable[..., Consumer]) -> None:
    c = quiet()

    def handler(signum: int, frame: Any) -> None:
        raise Boom("from the handler")

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGUSR1)).start()
        t0 = time.monotonic()
        with pytest.raises(Boom):
            c.poll(30)
        assert time.monotonic() - t0 < BOUND
    finally:
        signal.signal(signal.SIGUSR1, previous)


# ---- callbacks that raise --------------------------------------------------------------------

def test_error_cb_exception_surfaces_from_poll(make_consumer: Callable[..., Consumer]) -> None:
    seen: List[KafkaError] = []
    boom = Boom("error_cb failed")

    def error_cb(err: KafkaError) -> None:
        seen.append(err)
        raise boom

    c = make_consumer(error_cb=error_cb)
    deadline = time.monotonic() + 15
    with pytest.raises(Boom) as ei:
        while time.monotonic() < deadline:
            c.poll(0.2)
    assert ei.value is boom
    assert seen and isinstance(seen[0], KafkaError)
    assert seen[0].code() in (KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN, KafkaError._RESOLVE)


@contextlib.contextmanager
def unraisable_exceptions() -> Iterator[List[BaseException]]:
    """Collect what goes to sys.unraisablehook ("Exception ignored in ...") meanwhile."""
    seen: List[BaseException] = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(u.exc_value)
    try:
        yield seen
    finally:
        sys.unraisablehook = previous


def test_error_cb_exception_surfaces_from_consume(make_consumer: Callable[..., Consumer]) -> None:
    calls: List[KafkaError] = []

    def error_cb(err: KafkaError) -> None:
        calls.append(err)
        raise Boom(err.str())

    with unraisable_exceptions() as lost:
        c = make_consumer(error_cb=error_cb)
        t0 = time.monotonic()
        with pytest.raises(Boom) as ei:
            c.consume(10, 15)  # the exception ends the wait early
        assert time.monotonic() - t0 < 10
        assert str(ei.value) == calls[0].str()
        # Once a callback raised, the call must not go on running callbacks whose
        # exceptions can only be dropped.
        assert lost == [], (f"consume() raised {ei.value!r} but kept calling error_cb "
                            f"{len(calls)} times; dropped: {lost!r}")
        try:
            c.close()
        except Boom:
            pass


def test_error_cb_receives_errors_without_raising(make_consumer: Callable[..., Consumer]) -> None:
    seen: List[KafkaError] = []
    c = make_consumer(error_cb=seen.append)
    deadline = time.monotonic() + 15
    while not seen and time.monotonic() < deadline:
        assert c.poll(0.2) is None  # errors go to error_cb, not out of poll
    assert seen and all(isinstance(e, KafkaError) for e in seen)
    assert any("127.0.0.1:1" in e.str() or e.code() == KafkaError._ALL_BROKERS_DOWN for e in seen)


def test_stats_cb_exception_surfaces_from_poll(quiet: Callable[..., Consumer]) -> None:
    calls: List[str] = []

    def stats_cb(stats: str) -> None:
        calls.append(stats)
        raise Boom("stats_cb failed")

    c = quiet(stats_cb=stats_cb, **{"statistics.interval.ms": 100})
    deadline = time.monotonic() + 10
    with pytest.raises(Boom):
        while time.monotonic() < deadline:
            c.poll(0.2)
    assert calls and calls[0].startswith("{")
    import json

    assert json.loads(calls[0])["type"] == "consumer"


def test_logger_exception_surfaces_from_poll() -> None:
    class BadLogger:
        def __init__(self) -> None:
            self.calls = 0

        def log(self, level: int, fmt: str, *args: Any) -> None:
            self.calls += 1
            raise Boom("logger failed")

    logger = BadLogger()
    with unraisable_exceptions() as lost:
        c = _no_broker(logger=logger, debug="cgrp,topic", log_level=7)
        try:
            c.subscribe(["t"])
            deadline = time.monotonic() + 10
            with pytest.raises(Boom):
                while time.monotonic() < deadline:
                    c.poll(0.2)
            assert logger.calls >= 1
            assert lost == [], (f"poll() raised, but the logger was called {logger.calls} times "
                                f"and {len(lost)} exceptions were dropped")
        finally:
            try:
                c.close()
            except Boom:
                pass


def test_consumer_usable_after_a_callback_raised(make_consumer: Callable[..., Consumer]) -> None:
    raised = [0]

    def error_cb(err: KafkaError) -> None:
        raised[0] += 1
        if raised[0] == 1:
            raise Boom("first only")

    c = make_consumer(error_cb=error_cb)
    deadline = time.monotonic() + 15
    with pytest.raises(Boom):
        while time.monotonic() < deadline:
            c.poll(0.2)
    c.assign([TopicPartition("t", 0, 5)])
    assert [(tp.topic, tp.partition, tp.offset) for tp in c.assignment()] == [("t", 0, 5)]
    assert c.poll(0.2) is None
    c.close()
    with pytest.raises(RuntimeError):
        c.poll(0)


# ---- local state -------------------------------------------------------------------------------

def test_fresh_consumer_state(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    assert c.subscription() == []
    assert c.assignment() == []
    assert c.paused() == []
    assert c.memberid() is None
    md = c.consumer_group_metadata()
    assert isinstance(md, bytes) and md
    pos = c.position([TopicPartition("t", 0)])
    assert [(tp.topic, tp.partition, tp.offset) for tp in pos] == [("t", 0, OFFSET_INVALID)]
    assert c.get_watermark_offsets(TopicPartition("t", 0), cached=True) == (OFFSET_INVALID, OFFSET_INVALID)
    c.unsubscribe()  # nothing subscribed: fine
    c.unassign()


def test_assign_incremental_and_pause_state(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.assign([TopicPartition("t", 0, 7), TopicPartition("t", 1)])
    got = sorted((tp.topic, tp.partition, tp.offset) for tp in c.assignment())
    assert got == [("t", 0, 7), ("t", 1, OFFSET_STORED)]

    c.incremental_assign([TopicPartition("u", 3, OFFSET_BEGINNING)])
    assert sorted((tp.topic, tp.partition) for tp in c.assignment()) == [("t", 0), ("t", 1), ("u", 3)]
    with pytest.raises(KafkaException):
        c.incremental_assign([TopicPartition("u", 3)])  # already assigned

    c.pause([TopicPartition("t", 1), TopicPartition("u", 3)])
    assert sorted((tp.topic, tp.partition) for tp in c.paused()) == [("t", 1), ("u", 3)]
    c.resume([TopicPartition("t", 1)])
    assert [(tp.topic, tp.partition) for tp in c.paused()] == [("u", 3)]

    c.incremental_unassign([TopicPartition("u", 3)])
    assert c.paused() == [], "an unassigned partition is no longer paused"
    assert sorted((tp.topic, tp.partition) for tp in c.assignment()) == [("t", 0), ("t", 1)]
    with pytest.raises(KafkaException):
        c.incremental_unassign([TopicPartition("nope", 0)])

    c.pause([TopicPartition("t", 0)])
    c.assign([TopicPartition("t", 0), TopicPartition("v", 0)])  # t[0] stays assigned: stays paused
    assert [(tp.topic, tp.partition) for tp in c.paused()] == [("t", 0)]
    c.assign([TopicPartition("v", 0)])
    assert c.paused() == []
    c.pause([TopicPartition("v", 0)])
    c.unassign()
    assert c.assignment() == [] and c.paused() == []
    c.assign([TopicPartition("v", 0)])
    assert c.paused() == [], "re-assigned partitions start unpaused"


def test_pause_and_resume_skip_partitions_the_consumer_does_not_have(
        make_consumer: Callable[..., Consumer]) -> None:
    # As upstream: librdkafka flags such a partition _UNKNOWN_PARTITION in the list and the call
    # succeeds for the others (quixstreams pauses lists that can hold a just-revoked partition).
    c = make_consumer()
    c.assign([TopicPartition("t", 0), TopicPartition("t", 1)])
    assert c.pause([TopicPartition("never-seen", 0), TopicPartition("t", 0), TopicPartition("t", 9)]) is None
    assert [(tp.topic, tp.partition) for tp in c.paused()] == [("t", 0)]
    assert c.pause([TopicPartition("never-seen", 1)]) is None
    assert [(tp.topic, tp.partition) for tp in c.paused()] == [("t", 0)]
    assert c.resume([TopicPartition("t", 0), TopicPartition("never-seen", 0)]) is None
    assert c.paused() == []
    with pytest.raises(TypeError):
        c.pause([("t", 0)])  # arguments are still checked


def test_position_reflects_assigned_offsets_only_after_fetch(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.assign([TopicPartition("t", 0, 42)])
    pos = c.position([TopicPartition("t", 0), TopicPartition("t", 9)])
    assert [tp.partition for tp in pos] == [0, 9]
    assert all(tp.offset in (OFFSET_INVALID, 42) for tp in pos)


def test_subscribe_replaces_the_subscription(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    c.subscribe(["a"])
    c.subscribe(["b", "^c.*"])
    assert sorted(c.subscription()) == ["^c.*", "b"]
    c.unsubscribe()
    assert c.subscription() == []


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc")
def test_dropped_consumers_do_not_leak_native_threads() -> None:
    import gc

    def native_threads() -> int:
        return len(os.listdir("/proc/self/task"))

    gc.collect()
    before = native_threads()
    for _ in range(5):
        c = _no_broker()
        c.assign([TopicPartition("t", 0)])
        c.poll(0)
        assert native_threads() > before  # librdkafka runs its own threads
        del c
    gc.collect()
    deadline = time.monotonic() + 10
    while native_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert native_threads() <= before
