"""The kafka-python facade's record future: callbacks and errbacks run exactly once, whether
they are added before, after or while another thread settles the future (no lock)."""
from __future__ import annotations

import sys
import threading
from typing import Any, List

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, Message
from confluent_kafka.compat.kafka.producer.future import FutureRecordMetadata


def _future() -> FutureRecordMetadata:
    return FutureRecordMetadata(lambda seconds: None, (None, -1, 1, 0))


def test_added_before_and_after_success() -> None:
    seen: List[Any] = []
    f = _future()
    f.add_callback(seen.append).add_errback(lambda e: seen.append(("err", e)))
    f.success("md")
    f.add_callback(lambda v: seen.append(("late", v)))
    f.add_errback(lambda e: seen.append("never"))
    assert seen == ["md", ("late", "md")]
    assert f.succeeded() and f.get() == "md"


def test_added_before_and_after_failure() -> None:
    seen: List[Any] = []
    f = _future()
    f.add_errback(seen.append).add_callback(lambda v: seen.append("never"))
    f.failure(ValueError("x"))
    f.add_errback(lambda tag, e: seen.append((tag, str(e))), "late")  # f(*args, exception)
    assert [type(seen[0]), seen[1]] == [ValueError, ("late", "x")]
    assert f.failed()
    with pytest.raises(ValueError):
        f.get()


def test_a_callback_that_raises_does_not_stop_the_others() -> None:
    seen: List[Any] = []
    f = _future()
    f.add_callback(lambda v: 1 / 0).add_callback(seen.append)
    f.success("md")
    assert seen == ["md"]


@pytest.mark.parametrize("fail", [False, True])
def test_settled_while_adding_on_another_thread_runs_each_once(fail: bool) -> None:
    """Two threads race on every future: one adds two callbacks and two errbacks, the other
    settles it. A GIL switch between every few bytecodes makes the interleavings happen."""
    n = 5_000
    futures = [_future() for _ in range(n)]
    counts = [0] * n
    wrong = [0]
    lock = threading.Lock()  # only for the counts of this test

    def hit(i: int, _: Any) -> None:
        with lock:
            counts[i] += 1

    def miss(_: Any) -> None:
        with lock:
            wrong[0] += 1

    def add() -> None:
        for i, f in enumerate(futures):
            if fail:
                f.add_errback(hit, i).add_errback(hit, i).add_callback(miss)
            else:
                f.add_callback(hit, i).add_callback(hit, i).add_errback(miss)

    def settle() -> None:
        for f in futures:
            f.failure(KeyError("k")) if fail else f.success("md")

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=add), threading.Thread(target=settle)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads)
    finally:
        sys.setswitchinterval(old)
    assert counts == [2] * n and wrong == [0]


class SettlesOnQueue(dict):
    """An instance dict that settles its future as a function is queued: what the delivery
    thread may do between the queueing and the check after it."""

    settle: Any = None

    def setdefault(self, key: Any, default: Any = None) -> Any:
        got = dict.setdefault(self, key, default)
        settle, self.settle = self.settle, None
        if settle is not None:
            settle()
        return got


@pytest.mark.parametrize("queued_before", [0, 1])
@pytest.mark.parametrize("fail", [False, True])
def test_settled_right_after_queueing_still_runs_it(queued_before: int, fail: bool) -> None:
    seen: List[Any] = []
    f = _future()
    d = SettlesOnQueue(f.__dict__)
    f.__dict__ = d
    add = f.add_errback if fail else f.add_callback
    for i in range(queued_before):
        add(seen.append)  # the list already exists when the racing one is queued
    d.settle = (lambda: f.failure(KeyError("k"))) if fail else (lambda: f.success("md"))
    add(lambda v: seen.append(("racing", type(v).__name__ if fail else v)))
    outcome = "KeyError" if fail else "md"
    assert [s if isinstance(s, tuple) else (type(s).__name__ if fail else s) for s in seen] == \
        [outcome] * queued_before + [("racing", outcome)]


def test_delivery_report_runs_the_callbacks_with_the_record_metadata() -> None:
    msg = Message(topic="t", partition=2, offset=41, value=b"v", timestamp=(TIMESTAMP_CREATE_TIME, 1234))
    seen: List[Any] = []
    f = _future()
    f.add_callback(seen.append).add_errback(lambda e: seen.append("never"))
    d = SettlesOnQueue(f.__dict__)
    f.__dict__ = d
    d.settle = lambda: f._delivered(None, msg)  # delivered while the second callback is queued
    f.add_callback(lambda md: seen.append(("racing", md.offset)))
    assert [(md.topic, md.partition, md.offset, md.timestamp) for md in seen[:1]] == [("t", 2, 41, 1234)]
    assert seen[1:] == [("racing", 41)] and f.get() is seen[0]
