"""Blocking calls stay interruptible: Ctrl-C (SIGINT) and Python signal handlers run
while flush()/poll() wait, and the resulting exception comes out of the call."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any, Callable, Iterator, List, Tuple

import pytest

from confluent_kafka import Consumer, Producer

BOUND = 5.0  # seconds: generous, the calls below would otherwise block for 30 s

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


class Interrupted(Exception):
    pass


@pytest.fixture
def alarm() -> Iterator[Callable[[float, type], None]]:
    """Arrange for ``exc_type`` to be raised from a SIGALRM handler after ``delay`` s."""
    previous = signal.getsignal(signal.SIGALRM)

    def arm(delay: float, exc_type: type = KeyboardInterrupt) -> None:
        def handler(signum: int, frame: Any) -> None:
            raise exc_type("alarm")

        signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, delay)

    yield arm
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def test_flush_is_interruptible(make_producer: Callable[..., Producer],
                                alarm: Callable[[float, type], None]) -> None:
    p = make_producer({"message.timeout.ms": 300000})  # unreachable broker: never delivered
    p.produce("t", b"stuck")
    alarm(0.5, KeyboardInterrupt)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        p.flush(30)
    assert time.monotonic() - t0 < BOUND
    assert len(p) >= 1  # interrupting does not lose the message (len also counts requests)


def test_poll_is_interruptible(make_producer: Callable[..., Producer],
                               alarm: Callable[[float, type], None]) -> None:
    p = make_producer(broker=False)
    alarm(0.5, Interrupted)
    t0 = time.monotonic()
    with pytest.raises(Interrupted):
        p.poll(30)
    assert time.monotonic() - t0 < BOUND


def test_infinite_flush_is_interruptible(make_producer: Callable[..., Producer],
                                         alarm: Callable[[float, type], None]) -> None:
    p = make_producer({"message.timeout.ms": 300000})
    p.produce("t", b"stuck")
    alarm(0.5, KeyboardInterrupt)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        p.flush()  # no timeout: waits forever unless interrupted
    assert time.monotonic() - t0 < BOUND


def test_consumer_poll_is_interruptible(make_consumer: Callable[..., Consumer],
                                        alarm: Callable[[float, type], None]) -> None:
    c = make_consumer()
    alarm(0.5, KeyboardInterrupt)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        c.poll(30)
    assert time.monotonic() - t0 < BOUND


def test_consumer_consume_is_interruptible(make_consumer: Callable[..., Consumer],
                                           alarm: Callable[[float, type], None]) -> None:
    c = make_consumer()
    alarm(0.5, KeyboardInterrupt)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        c.consume(10, 30)
    assert time.monotonic() - t0 < BOUND


def test_signal_handler_that_does_not_raise_lets_the_wait_continue(
        make_producer: Callable[..., Producer]) -> None:
    previous = signal.getsignal(signal.SIGALRM)
    hits: list = []
    signal.signal(signal.SIGALRM, lambda s, f: hits.append(s))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        p = make_producer(broker=False)
        t0 = time.monotonic()
        assert p.poll(1.0) == 0
        elapsed = time.monotonic() - t0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert hits == [signal.SIGALRM]
    assert 0.8 <= elapsed < BOUND


HANG = 300.0  # seconds: a hang guard only; an ASan build on a loaded machine can take a minute to start

# The child's SIGINT is put back to what Python gives it when it starts with SIGINT at its default
# (a shell on a terminal): a test run started in the background by a non-interactive shell (say
# `make sanitize &`) hands its children SIGINT *ignored*, Python then leaves it ignored, and the
# Ctrl-C this test sends would never reach the flush. It reports "flushing" from a statistics
# callback, which flush() serves every 100 ms: printed from inside the flush, so the parent's
# signal cannot come before the wait it is about. The flush has no timeout: only the signal ends it.
CHILD = textwrap.dedent(
    """
    import signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    from confluent_kafka import Producer
    state = {"in_flush": False, "told": False}
    def stats(_json):
        if state["in_flush"] and not state["told"]:
            state["told"] = True
            print("flushing", flush=True)
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 300000,
                  "log_level": 0, "statistics.interval.ms": 100, "stats_cb": stats})
    p.produce("t", b"cannot be delivered")
    state["in_flush"] = True
    try:
        p.flush()
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        p.purge()
        p.close()
        sys.exit(0)
    print("flush returned", flush=True)
    sys.exit(1)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_flush_in_a_real_process(tmp_path: pathlib.Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    err_path = tmp_path / "stderr"
    lines: List[Tuple[float, str]] = []  # (arrival time, line)
    flushing, interrupted = threading.Event(), threading.Event()
    with open(err_path, "w") as err:
        proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=err,
                                text=True, env=env)

    def reader() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append((time.monotonic(), line.strip()))
            (flushing if line.startswith("flushing") else interrupted).set()
        flushing.set()  # the child is gone: nothing more to wait for
        interrupted.set()

    def evidence() -> str:
        return f"child exit {proc.poll()}, stdout {[text for _, text in lines]}, stderr {err_path.read_text()!r}"

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        flushing.wait(HANG)
        assert [text for _, text in lines] == ["flushing"], f"the child did not reach its flush: {evidence()}"
        signalled = time.monotonic()
        proc.send_signal(signal.SIGINT)
        interrupted.wait(60)  # far more than BOUND: long enough to tell slow from never
        try:
            rc = proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the child was still running {HANG:g} s after SIGINT: {evidence()}")
        t.join(HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert rc == 0, evidence()
    assert [text for _, text in lines] == ["flushing", "interrupted"], evidence()
    # the flush ended promptly after the signal (it would otherwise never end)
    assert lines[1][0] - signalled < BOUND, evidence()
