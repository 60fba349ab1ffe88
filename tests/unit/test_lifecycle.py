"""Client lifetime: close(), closed-client errors, context managers, pickling, fork."""

from __future__ import annotations

import copy
import gc
import os
import pickle
import signal
import time
import weakref
from typing import Any, Callable

import pytest

from confluent_kafka import Consumer, Message, Producer, TopicPartition

PRODUCER_CALLS = [
    ("produce", ("t", b"v"), {}),
    ("produce_batch", ("t", [{"value": b"v"}]), {}),
    ("poll", (0,), {}),
    ("flush", (0,), {}),
    ("purge", (), {}),
    ("list_topics", (), {"timeout": 1}),
    ("init_transactions", (1,), {}),
    ("begin_transaction", (), {}),
    ("commit_transaction", (1,), {}),
    ("abort_transaction", (1,), {}),
    ("send_offsets_to_transaction", ([TopicPartition("t", 0, 1)], b"x", 1), {}),
    ("set_sasl_credentials", ("u", "p"), {}),
]

CONSUMER_CALLS = [
    ("subscribe", (["t"],), {}),
    ("unsubscribe", (), {}),
    ("assign", ([TopicPartition("t", 0)],), {}),
    ("unassign", (), {}),
    ("assignment", (), {}),
    ("poll", (0,), {}),
    ("consume", (1, 0), {}),
    ("commit", (), {"offsets": [TopicPartition("t", 0, 1)]}),
    ("committed", ([TopicPartition("t", 0)],), {"timeout": 1}),
    ("position", ([TopicPartition("t", 0)],), {}),
    ("seek", (TopicPartition("t", 0, 1),), {}),
    ("pause", ([TopicPartition("t", 0)],), {}),
    ("resume", ([TopicPartition("t", 0)],), {}),
    ("get_watermark_offsets", (TopicPartition("t", 0),), {"timeout": 1}),
    ("offsets_for_times", ([TopicPartition("t", 0, 0)],), {"timeout": 1}),
    ("store_offsets", (), {"offsets": [TopicPartition("t", 0, 1)]}),
    ("consumer_group_metadata", (), {}),
    ("memberid", (), {}),
    ("list_topics", (), {"timeout": 1}),
    ("set_sasl_credentials", ("u", "p"), {}),
]


@pytest.mark.parametrize("method,args,kwargs", PRODUCER_CALLS, ids=[c[0] for c in PRODUCER_CALLS])
def test_closed_producer_raises_runtime_error(make_producer: Callable[..., Producer],
                                              method: str, args: tuple, kwargs: dict) -> None:
    p = make_producer()
    p.close()
    with pytest.raises(RuntimeError):
        getattr(p, method)(*args, **kwargs)


def test_closed_producer_len_raises_runtime_error(make_producer: Callable[..., Producer]) -> None:
    p = make_producer()
    p.close()
    with pytest.raises(RuntimeError):
        len(p)


@pytest.mark.parametrize("method,args,kwargs", CONSUMER_CALLS, ids=[c[0] for c in CONSUMER_CALLS])
def test_closed_consumer_raises_runtime_error(make_consumer: Callable[..., Consumer],
                                              method: str, args: tuple, kwargs: dict) -> None:
    c = make_consumer()
    c.close()
    with pytest.raises(RuntimeError):
        getattr(c, method)(*args, **kwargs)


def test_close_is_idempotent(make_producer: Callable[..., Producer],
                             make_consumer: Callable[..., Consumer]) -> None:
    p = make_producer()
    p.close()
    p.close()
    c = make_consumer()
    c.close()
    c.close()


def test_close_serves_pending_delivery_reports(make_producer: Callable[..., Producer]) -> None:
    seen: list = []
    p = make_producer(on_delivery=lambda err, msg: seen.append(err.code()))
    p.produce("t", b"x")
    p.purge()
    p.close()
    assert seen == [-152]  # _PURGE_QUEUE, served by close()


def test_close_returns_with_undeliverable_messages_when_they_time_out(
        make_producer: Callable[..., Producer]) -> None:
    p = make_producer({"message.timeout.ms": 500})
    p.produce("t", b"x")
    t0 = time.monotonic()
    p.close()
    assert time.monotonic() - t0 < 20


def test_producer_context_manager(make_producer: Callable[..., Producer]) -> None:
    p = make_producer()
    with p as entered:
        assert entered is p
        entered.produce("t", b"x")
        entered.purge()
    with pytest.raises(RuntimeError):
        p.poll(0)


def test_producer_context_manager_does_not_swallow(make_producer: Callable[..., Producer]) -> None:
    p = make_producer()
    with pytest.raises(ZeroDivisionError):
        with p:
            1 / 0
    with pytest.raises(RuntimeError):
        p.flush(0)


def test_consumer_context_manager(make_consumer: Callable[..., Consumer]) -> None:
    c = make_consumer()
    with c as entered:
        assert entered is c
        assert entered.assignment() == []
    with pytest.raises(RuntimeError):
        c.poll(0)


@pytest.mark.parametrize("kind", ["producer", "consumer"])
def test_pickling_a_client_is_a_type_error(make_producer: Callable[..., Producer],
                                           make_consumer: Callable[..., Consumer],
                                           kind: str) -> None:
    client: Any = make_producer() if kind == "producer" else make_consumer()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError):
            pickle.dumps(client, protocol)
    with pytest.raises(TypeError):
        copy.copy(client)
    with pytest.raises(TypeError):
        copy.deepcopy(client)


def test_unreferenced_clients_are_collected() -> None:
    p = Producer({"log_level": 0})
    c = Consumer({"group.id": "g", "log_level": 0})
    refs = [weakref.ref(p), weakref.ref(c)]
    del p, c
    gc.collect()
    assert [r() for r in refs] == [None, None]


def test_unclosed_producer_with_queued_messages_is_freed_without_hanging() -> None:
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "message.timeout.ms": 300000,
                  "log_level": 0})
    p.produce("t", b"stuck forever")
    t0 = time.monotonic()
    del p
    gc.collect()
    assert time.monotonic() - t0 < 30


def test_callback_reference_cycle_is_collected() -> None:
    class Holder:
        pass

    h = Holder()
    p = Producer({"log_level": 0, "on_delivery": lambda err, msg: h})  # noqa: F821 (a cycle on purpose)
    h.p = p  # type: ignore[attr-defined]
    ref = weakref.ref(h)
    del h, p
    gc.collect()
    assert ref() is None


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_producer_used_in_forked_child_raises_runtime_error(
        make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    p.produce("t", b"parent")
    pid = os.fork()
    if pid == 0:  # child: report through the exit status, never return into pytest
        code = 3
        try:
            p.produce("t", b"child")
            code = 1
        except RuntimeError:
            code = 0
        except BaseException:
            code = 2
        os._exit(code)
    deadline = time.monotonic() + 20
    status = None
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung using the parent's producer")
    assert os.WIFEXITED(status)
    assert os.WEXITSTATUS(status) == 0, {1: "child produce succeeded", 2: "wrong exception",
                                         3: "child crashed"}.get(os.WEXITSTATUS(status))
    # The parent's producer is unaffected.
    p.produce("t", b"parent again")
    assert len(p) == 2


def test_message_from_delivery_report_survives_producer(
        make_producer: Callable[..., Producer]) -> None:
    kept: list = []
    p = make_producer(on_delivery=lambda err, msg: kept.append(msg))
    p.produce("t", b"v", b"k")
    p.purge()
    p.flush(10)
    p.close()
    del p
    gc.collect()
    msg: Message = kept[0]
    assert (msg.topic(), msg.key(), msg.value()) == ("t", b"k", b"v")
    assert pickle.loads(pickle.dumps(msg)) == msg
