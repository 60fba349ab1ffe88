"""Misuse must raise, never crash. Each scenario runs in a child process so that a
segfault or abort shows up as a failed test instead of killing the test run."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Callable, List

import pytest

from confluent_kafka import KafkaError, Producer

PRELUDE = textwrap.dedent(
    """
    import gc, sys, threading, time
    from confluent_kafka import *
    from confluent_kafka import cimpl
    QUIET = {"log_level": 0}
    def expect(exc, fn, *a, **kw):
        try:
            fn(*a, **kw)
        except exc:
            return
        raise AssertionError(f"{fn!r} did not raise {exc}")
    """
)


def run_child(body: str, timeout: float = 60) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    code = PRELUDE + textwrap.dedent(body) + "\nprint('CHILD-OK', flush=True)\n"
    proc = subprocess.run([sys.executable, "-X", "faulthandler", "-c", code],
                          capture_output=True, text=True, env=env, timeout=timeout)
    assert proc.returncode == 0 and "CHILD-OK" in proc.stdout, (
        f"exit status {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-4000:]}")


SCENARIOS = {
    "close inside delivery callback": """
        p = Producer(QUIET)
        def cb(err, msg):
            p.close()
        p.produce("t", b"x", on_delivery=cb)
        p.purge()
        try:
            p.flush(5)
        except RuntimeError:
            pass  # refusing to close from inside a callback is acceptable
        p.close()
        expect(RuntimeError, p.produce, "t", b"y")
    """,
    "drop last reference inside delivery callback": """
        holder = {"p": Producer(QUIET)}
        def cb(err, msg):
            holder.pop("p", None)
        p = holder["p"]
        p.produce("t", b"x", on_delivery=cb)
        p.purge()
        p.poll(5)
        del p
        gc.collect()
    """,
    "produce from inside delivery callback": """
        p = Producer(QUIET)
        seen = []
        def cb(err, msg):
            seen.append(msg.value())
            if msg.value() == b"first":
                p.produce("t", b"second", on_delivery=cb)
                p.purge()
        p.produce("t", b"first", on_delivery=cb)
        p.purge()
        deadline = time.monotonic() + 10
        while len(seen) < 2 and time.monotonic() < deadline:
            p.poll(0.2)
        assert seen == [b"first", b"second"], seen
        p.close()
    """,
    "poll from inside delivery callback": """
        p = Producer(QUIET)
        def cb(err, msg):
            p.poll(0)
            p.flush(0)
        p.produce("t", b"x", on_delivery=cb)
        p.purge()
        try:
            p.flush(5)
        except RuntimeError:
            pass  # refusing re-entrant serving is acceptable; crashing is not
        p.close()
    """,
    "init called twice": """
        p = Producer(QUIET)
        expect(RuntimeError, p.__init__, QUIET)
        p.produce("t", b"x")
        p.purge(); p.close()
        c = Consumer({"group.id": "g", **QUIET})
        expect(RuntimeError, c.__init__, {"group.id": "g"})
        c.close()
    """,
    "uninitialised instances": """
        for cls in (Producer, Consumer):
            obj = cls.__new__(cls)
            for name in ("poll", "flush", "produce", "close", "list_topics", "assignment",
                         "subscribe", "consume"):
                if hasattr(obj, name):
                    try:
                        getattr(obj, name)()
                    except (RuntimeError, TypeError):
                        pass
            try:
                len(obj)
            except (RuntimeError, TypeError):
                pass
            del obj
            gc.collect()
    """,
    "subclass that skips __init__": """
        class P(Producer):
            def __init__(self):
                pass
        p = P()
        expect(RuntimeError, p.produce, "t", b"x")
        expect(RuntimeError, p.poll, 0)
        class Q(Producer):
            def __init__(self, conf):
                super().__init__(conf)
                self.extra = 1
        q = Q(QUIET)
        q.produce("t", b"x")
        assert q.extra == 1 and len(q) == 1
        q.purge(); q.close()
    """,
    "failed constructor leaves a safe object": """
        p = Producer.__new__(Producer)
        try:
            p.__init__({"no.such.key": 1})
        except KafkaException:
            pass
        expect(RuntimeError, p.produce, "t", b"x")
        del p
        gc.collect()
    """,
    "concurrent poll from several threads": """
        p = Producer(QUIET)
        count = [0]
        lock = threading.Lock()
        def cb(err, msg):
            with lock:
                count[0] += 1
        for i in range(2000):
            p.produce("t", b"x", on_delivery=cb)
        p.purge()
        stop = time.monotonic() + 10
        def worker():
            while count[0] < 2000 and time.monotonic() < stop:
                p.poll(0.05)
        ts = [threading.Thread(target=worker) for _ in range(4)]
        for t in ts: t.start()
        for t in ts: t.join(15)
        assert count[0] == 2000, count[0]
        p.close()
    """,
    "close while another thread polls": """
        p = Producer(QUIET)
        errors = []
        def worker():
            try:
                for _ in range(200):
                    p.poll(0.01)
            except RuntimeError:
                pass
            except BaseException as e:
                errors.append(e)
        t = threading.Thread(target=worker)
        t.start()
        time.sleep(0.2)
        p.close()
        t.join(15)
        assert not t.is_alive() and not errors, errors
    """,
    "huge and odd values": """
        p = Producer({"message.max.bytes": 1000000, **QUIET})
        expect((KafkaException, ValueError, OverflowError), p.produce, "t", b"x" * 2_000_000)
        expect((KafkaException, ValueError, OverflowError, TypeError), p.produce, "t", partition=2**40)
        expect((OverflowError, ValueError, TypeError), p.produce, "t", timestamp=2**80)
        p.produce("t", b"x", headers=[(f"h{i}", b"v") for i in range(1000)])
        p.produce("t" * 249, b"long topic name")
        p.purge(); p.close()
        KafkaError(KafkaError._FAIL, "r" * 1_000_000).str()
        expect((OverflowError, TypeError, ValueError), KafkaError, 2**70)
        Message(value=b"x" * 10_000_000).value()
    """,
    "surrogates and non-utf8 text": """
        p = Producer(QUIET)
        expect((UnicodeError, ValueError, TypeError), p.produce, "t", "\\udcff")
        expect((UnicodeError, ValueError, TypeError), p.produce, "t", b"v", "\\ud800")
        expect((UnicodeError, ValueError, TypeError), p.produce, "t\\udcff", b"v")
        expect((UnicodeError, ValueError, TypeError), p.produce, "t", headers=[("\\ud800", b"v")])
        expect((UnicodeError, ValueError, TypeError, KafkaException), Producer, {"client.id": "\\ud800"})
        p.close()
    """,
    "mutating headers list during produce is harmless": """
        p = Producer(QUIET)
        class Evil(str):
            def __hash__(self):
                raise RuntimeError("no hashing")
        hdrs = [("a", b"1")]
        p.produce("t", b"x", headers=hdrs)
        hdrs.clear()
        p.produce("t", b"x", headers={Evil("k"): b"v"} if False else {"k": b"v"})
        p.purge(); p.close()
    """,
    "exceptions from __index__ and buffers": """
        class BadIndex:
            def __index__(self):
                raise ZeroDivisionError("no")
        p = Producer(QUIET)
        expect((ZeroDivisionError, TypeError), p.produce, "t", partition=BadIndex())
        expect((ZeroDivisionError, TypeError), p.poll, BadIndex())
        p.close()
    """,
}


@pytest.mark.parametrize("body", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_misuse_does_not_crash(body: str) -> None:
    run_child(body)


def test_callback_refcounts_are_released(make_producer: Callable[..., Producer]) -> None:
    """Per-message callbacks are released once their report is served (no leaks)."""

    def cb(err: object, msg: object) -> None:
        pass

    p = make_producer(broker=False)
    before = sys.getrefcount(cb)
    for _ in range(1000):
        p.produce("t", b"x", on_delivery=cb)
    assert sys.getrefcount(cb) >= before  # held while pending
    p.purge()
    assert p.flush(10) == 0
    assert sys.getrefcount(cb) == before
    # Failed produce calls must not keep a reference either.
    q = make_producer({"queue.buffering.max.messages": 1}, broker=False)
    q.produce("t", b"fits", on_delivery=cb)
    for _ in range(100):
        with pytest.raises(BufferError):
            q.produce("t", b"full", on_delivery=cb)
    q.purge()
    assert q.flush(10) == 0
    assert sys.getrefcount(cb) == before


def test_batch_callback_refcounts_are_released(make_producer: Callable[..., Producer]) -> None:
    def cb(err: object, msg: object) -> None:
        pass

    p = make_producer({"queue.buffering.max.messages": 50}, broker=False)
    before = sys.getrefcount(cb)
    msgs: List[dict] = [{"value": b"x"} for _ in range(100)]
    assert p.produce_batch("t", msgs, on_delivery=cb) == 50
    p.purge()
    assert p.flush(10) == 0
    assert sys.getrefcount(cb) == before


def test_default_topic_config_is_applied(make_producer: Callable[..., Producer]) -> None:
    errs: List[KafkaError] = []
    p = make_producer({"default.topic.config": {"message.timeout.ms": 300}},
                      on_delivery=lambda err, msg: errs.append(err))
    p.produce("t", b"x")
    assert p.flush(30) == 0
    assert [e.code() for e in errs] == [KafkaError._MSG_TIMED_OUT]


def test_close_with_timeout_reports_leftovers_as_purged(
        make_producer: Callable[..., Producer]) -> None:
    errs: List[int] = []
    p = make_producer({"message.timeout.ms": 300000},
                      on_delivery=lambda err, msg: errs.append(err.code()))
    p.produce("t", b"a")
    p.produce("t", b"b")
    p.close(0.5)
    assert sorted(errs) == [KafkaError._PURGE_QUEUE] * 2
