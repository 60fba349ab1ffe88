"""The C core's answers to threads that share a client, without a broker (docs/threading.md):
close() racing other calls and another close(), close() from inside the client's own call,
and the interpreter's GIL staying off on free-threaded builds. The mock tier's
test_threads_stress.py has the heavier versions with messages flowing."""

from __future__ import annotations

import sys
import sysconfig
import threading
import time
from typing import Any, Callable, List

import pytest

from confluent_kafka import Consumer, KafkaError, Message, Producer

UNREACHABLE = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}


def run(targets: List[Callable[[], Any]], timeout: float = 30.0) -> List[BaseException]:
    failures: List[BaseException] = []

    def guard(fn: Callable[[], Any]) -> None:
        try:
            fn()
        except BaseException as exc:  # noqa: BLE001 - returned to the test
            failures.append(exc)

    threads = [threading.Thread(target=guard, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not [t for t in threads if t.is_alive()], "a thread is still running: deadlock"
    return failures


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="a free-threaded CPython only")
def test_the_extension_keeps_the_gil_off() -> None:
    import confluent_kafka.cimpl  # noqa: F401

    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]


def test_two_threads_closing_one_producer_both_return_true() -> None:
    reports: List[Any] = []
    p = Producer(UNREACHABLE, on_delivery=lambda err, msg: reports.append(err))
    for i in range(100):
        p.produce("t", str(i).encode())
    results: List[Any] = []
    start = threading.Barrier(2)

    def closer() -> None:
        start.wait(5)
        results.append(p.close(0.5))

    assert run([closer, closer]) == []
    assert results == [True, True]
    # One close delivered them all as purged; the other found it closed: one report each.
    assert len(reports) == 100
    assert {e.code() for e in reports} == {KafkaError._PURGE_QUEUE}
    with pytest.raises(RuntimeError, match="closed"):
        p.produce("t", b"late")


def test_two_threads_closing_one_consumer_both_return() -> None:
    c = Consumer({**UNREACHABLE, "group.id": "g"})
    start = threading.Barrier(2)
    results: List[Any] = []

    def closer() -> None:
        start.wait(5)
        c.close()
        results.append("closed")

    assert run([closer, closer]) == []
    assert results == ["closed", "closed"]
    with pytest.raises(RuntimeError, match="closed"):
        c.poll(0)


@pytest.mark.parametrize("method", ["poll", "flush"])
def test_close_wakes_a_producer_waiting_without_a_timeout(method: str) -> None:
    p = Producer(UNREACHABLE)
    p.produce("t", b"never delivered")  # flush() has something to wait for
    returned: List[Any] = []

    def waiter() -> None:
        try:
            returned.append(getattr(p, method)(-1))  # would wait forever: the broker is unreachable
        except RuntimeError as exc:
            returned.append(exc)

    t = threading.Thread(target=waiter, daemon=True)
    t.start()
    time.sleep(0.3)
    started = time.monotonic()
    assert p.close(0.2) is True
    t.join(10)
    assert not t.is_alive(), f"{method}(-1) still waits after close()"
    assert time.monotonic() - started < 5
    assert len(returned) == 1
    assert isinstance(returned[0], int)  # returned early, as documented, rather than raising


def test_close_wakes_a_consumer_waiting_without_a_timeout() -> None:
    c = Consumer({**UNREACHABLE, "group.id": "g"})
    c.subscribe(["t"])
    returned: List[Any] = []
    t = threading.Thread(target=lambda: returned.append(c.consume(10, -1)), daemon=True)
    t.start()
    time.sleep(0.3)
    c.close()
    t.join(10)
    assert not t.is_alive(), "consume(timeout=-1) still waits after close()"
    assert returned == [[]]


def test_calls_after_close_began_raise_runtime_error_not_crash() -> None:
    p = Producer({**UNREACHABLE, "queue.buffering.max.messages": 1000000})
    stop = threading.Event()
    outcomes: List[str] = []
    lock = threading.Lock()

    def busy() -> None:
        calls: List[Callable[[], Any]] = [lambda: p.produce("t", b"v"), lambda: p.poll(0), lambda: len(p),
                                          lambda: p.flush(0), lambda: p.purge(in_flight=False)]
        while not stop.is_set():
            for call in calls:
                try:
                    call()
                except RuntimeError as exc:
                    assert "clos" in str(exc), exc
                    with lock:
                        outcomes.append("refused")
                    return

    threads = [threading.Thread(target=busy, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    started = time.monotonic()
    assert p.close(1) is True
    # Producing threads stop at close() (they are refused): it does not flush them for ever.
    assert time.monotonic() - started < 10
    stop.set()
    for t in threads:
        t.join(10)
    assert outcomes == ["refused"] * 4


@pytest.mark.skipif(sys.version_info < (3, 12), reason="__buffer__ in Python code needs 3.12")
def test_close_from_inside_the_clients_own_call_is_refused() -> None:
    p = Producer(UNREACHABLE)
    refused: List[BaseException] = []

    class Payload:
        def __buffer__(self, flags: int) -> memoryview:
            try:
                p.close()
            except RuntimeError as exc:  # not a wait for itself, not a freed client under produce()
                refused.append(exc)
            return memoryview(b"payload")

    p.produce("t", Payload())  # enqueued: the client was not closed under the call
    assert len(refused) == 1 and "inside one of its own" in str(refused[0])
    assert len(p) >= 1  # the message (and librdkafka's own events)
    assert p.close(0) is True


def test_many_threads_meeting_new_topics_share_one_topic_handle_each() -> None:
    p = Producer(UNREACHABLE)
    topics = [f"topic-{i}" for i in range(50)]
    start = threading.Barrier(8)

    def produce_all() -> None:
        start.wait(5)
        for name in topics:
            p.produce(name, b"v")

    assert run([produce_all] * 8) == []
    assert len(p) >= 8 * len(topics)  # every message queued (plus librdkafka's own events)
    assert p.close(0) is True


def test_a_shared_message_changed_while_read() -> None:
    m = Message(topic="t", value=b"0")
    start = threading.Barrier(4)

    def writer() -> None:
        start.wait(5)
        for i in range(3000):
            m.set_value(str(i).encode())
            m.set_headers([("h", b"x")] if i % 2 else None)

    def reader() -> None:
        start.wait(5)
        for _ in range(3000):
            v = m.value()
            assert isinstance(v, bytes) and v.isdigit()
            assert m.headers() in (None, [("h", b"x")])
            assert len(m) > 0

    assert run([writer, writer, reader, reader]) == []
