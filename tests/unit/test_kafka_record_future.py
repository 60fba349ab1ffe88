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
    return FutureRecordMetadata(lambda future, timeout: None, (None, -1, 1, 0))


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


def test_functions_added_by_a_running_callback_run_at_once() -> None:
    """A callback that adds more (or settles again) finds the future settled: no deadlock, each
    added function runs once, and a second success() runs nothing queued before."""
    seen: List[Any] = []
    f = _future()

    def first(v: Any) -> None:
        seen.append(("first", v))
        f.add_callback(lambda w: seen.append(("nested", w)))
        f.add_errback(lambda e: seen.append("never"))
        f.success("again")

    f.add_callback(first).add_callback(lambda v: seen.append(("second", v)))
    f.success("md")
    assert seen == [("first", "md"), ("nested", "md"), ("second", "md")]
    assert f.value == "again"


def test_extra_arguments_bind_as_in_kafka_python() -> None:
    seen: List[Any] = []
    f = _future()
    f.add_callback(lambda a, v, b=None: seen.append((a, v, b)), "a", b="b")
    f.add_callback(f=seen.append)  # kafka-python's f is a keyword too
    f.success("md")
    f.add_errback(lambda *a, **k: seen.append("never"), 1, k=2)
    f.add_callback(f=lambda *a, **k: seen.append((a, k)), x=1)
    assert seen == [("a", "md", "b"), "md", (("md",), {"x": 1})]


@pytest.mark.parametrize("bad", [lambda f: f.add_callback(), lambda f: f.add_errback(),
                                 lambda f: f.failure("not an exception"), lambda f: f.failure(int)])
def test_bad_arguments_raise_type_error(bad: Any) -> None:
    f = _future()
    with pytest.raises(TypeError):
        bad(f)
    assert not f.is_done


@pytest.mark.parametrize("args", [None, (), (None, -1, 1), ("now", -1, 1, 0), [None, -1, 1, 0]])
def test_constructor_checks_its_arguments(args: Any) -> None:
    with pytest.raises(TypeError, match="args must be"):
        FutureRecordMetadata(lambda future, timeout: None, args)
    with pytest.raises(TypeError, match="wait must be callable"):
        FutureRecordMetadata(None, (None, -1, 1, 0))


def test_failure_instantiates_an_exception_class() -> None:
    f = _future()
    f.failure(KeyError)
    assert type(f.exception) is KeyError and f.failed() and f.value is None


def test_a_raising_callback_is_logged_or_raised(caplog: pytest.LogCaptureFixture) -> None:
    f = _future()
    f.add_callback(lambda v: 1 / 0)
    with caplog.at_level("ERROR", logger="kafka.future"):
        f.success("md")
    assert [(r.getMessage(), r.exc_info[0]) for r in caplog.records] == [
        ("Error processing callback", ZeroDivisionError)]

    class Strict(FutureRecordMetadata):
        error_on_callbacks = True

    g = Strict(lambda future, timeout: None, (None, -1, 1, 0))
    g.add_errback(lambda e: {}["missing"]).add_errback(lambda e: pytest.fail("not after a raise"))
    with pytest.raises(KeyError, match="missing"):
        g.failure(ValueError("x"))
    assert g.failed()


def test_a_future_in_a_cycle_is_collected() -> None:
    import gc
    import weakref

    f = _future()
    f.add_callback(lambda v, f=f: f)  # the future holds a callback that holds the future
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


def test_it_is_a_kafka_python_future() -> None:
    from confluent_kafka.compat.kafka.future import Future
    f = _future()
    assert isinstance(f, Future) and not f.succeeded() and not f.retriable()
    f.success(1)
    assert f.succeeded() and f.is_done

