"""Blocking calls stay interruptible: Ctrl-C (SIGINT) and Python signal handlers run
while flush()/poll() wait, and the resulting exception comes out of the call."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any, Callable, Iterator

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


CHILD = textwrap.dedent(
    """
    import sys, time
    from confluent_kafka import Producer
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 300000,
                  "log_level": 0})
    p.produce("t", b"cannot be delivered")
    print("ready", flush=True)
    t0 = time.monotonic()
    try:
        p.flush(30)
    except KeyboardInterrupt:
        print("interrupted %.3f" % (time.monotonic() - t0), flush=True)
        p.purge()
        p.close()
        sys.exit(0)
    print("not interrupted %.3f" % (time.monotonic() - t0), flush=True)
    sys.exit(1)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_flush_in_a_real_process() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        ready = threading.Event()
        lines: list = []

        def reader() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line.strip())
                if line.startswith("ready"):
                    ready.set()

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        assert ready.wait(30), f"child did not start: {proc.stderr.read() if proc.poll() is not None else ''}"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=20)
        t.join(5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    stderr = proc.stderr.read() if proc.stderr else ""
    assert rc == 0, (lines, stderr)
    assert lines[-1].startswith("interrupted"), lines
    assert float(lines[-1].split()[1]) < BOUND
