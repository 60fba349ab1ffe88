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

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition

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


def test_closed_producer_len_is_zero(make_producer: Callable[..., Producer]) -> None:
    p = make_producer(broker=False)
    p.produce("t", b"x")
    assert len(p) == 1
    p.close(timeout=0)
    assert len(p) == 0
    assert bool(p) is True


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


# ---- closed and never-initialised clients, as in confluent-kafka 2.x --------------------------

PRODUCER_TEXT = {m: "Producer has been closed" for m, _, _ in PRODUCER_CALLS}
PRODUCER_TEXT.update(list_topics="Handle has been closed", set_sasl_credentials="Handle has been closed")
CONSUMER_TEXT = {m: "Consumer closed" for m, _, _ in CONSUMER_CALLS}
CONSUMER_TEXT.update(list_topics="Handle has been closed", set_sasl_credentials="Handle has been closed")


class ProxiedProducer(Producer):
    """OpenTelemetry's instrumentation wraps a producer like this, never calling super().__init__."""

    def __init__(self, producer: Any) -> None:
        self._producer = producer


class ProxiedConsumer(Consumer):
    def __init__(self, consumer: Any) -> None:
        self._consumer = consumer


@pytest.mark.parametrize("method,args,kwargs", PRODUCER_CALLS, ids=[c[0] for c in PRODUCER_CALLS])
def test_closed_and_uninitialised_producer_texts(make_producer: Callable[..., Producer],
                                                 method: str, args: tuple, kwargs: dict) -> None:
    closed = make_producer()
    closed.close()
    for p in (closed, ProxiedProducer(None), Producer.__new__(Producer)):
        with pytest.raises(RuntimeError) as info:
            getattr(p, method)(*args, **kwargs)
        assert str(info.value) == PRODUCER_TEXT[method]


@pytest.mark.parametrize("method,args,kwargs", CONSUMER_CALLS, ids=[c[0] for c in CONSUMER_CALLS])
def test_closed_and_uninitialised_consumer_texts(make_consumer: Callable[..., Consumer],
                                                 method: str, args: tuple, kwargs: dict) -> None:
    closed = make_consumer()
    closed.close()
    for c in (closed, ProxiedConsumer(None), Consumer.__new__(Consumer)):
        with pytest.raises(RuntimeError) as info:
            getattr(c, method)(*args, **kwargs)
        assert str(info.value) == CONSUMER_TEXT[method]


def test_uninitialised_subclass_len_close_and_context_manager() -> None:
    p = ProxiedProducer(None)
    assert len(p) == 0 and bool(p) is True
    assert p.__enter__() is p
    assert p.__exit__(None, None, None) is None
    assert p.close() is True
    c = ProxiedConsumer(None)
    assert c.__enter__() is c
    assert c.__exit__(None, None, None) is None
    assert c.close() is None
    with pytest.raises(RuntimeError, match="^Handle has been closed$"):
        c.cluster_id(timeout=0.1)


def test_exit_returns_none_and_enter_works_on_a_closed_client(make_producer: Callable[..., Producer],
                                                              make_consumer: Callable[..., Consumer]) -> None:
    p = make_producer()
    assert p.__exit__(None, None, None) is None
    assert p.__enter__() is p
    c = make_consumer()
    assert c.__exit__(ValueError, ValueError("x"), None) is None
    with c as entered:
        assert entered is c


def test_init_twice_is_refused_and_a_closed_client_can_be_initialised_again(
        make_producer: Callable[..., Producer], make_consumer: Callable[..., Consumer]) -> None:
    conf = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0}
    p = make_producer()
    with pytest.raises(RuntimeError, match=r"^Producer already __init__:ialized$"):
        p.__init__(conf)
    c = make_consumer()
    with pytest.raises(RuntimeError, match="^Consumer already initialized$"):
        c.__init__({**conf, "group.id": "g"})
    p.close()
    p.__init__({"log_level": 0, "message.timeout.ms": 100})
    p.produce("t", b"x")
    assert len(p) == 1
    assert p.close(timeout=5) is True
    c.close()
    c.__init__({**conf, "group.id": "g2"})
    assert c.poll(0) is None
    c.close()


def test_a_failed_init_leaves_a_closed_client() -> None:
    p = Producer.__new__(Producer)
    with pytest.raises(KafkaException):
        p.__init__({"acks": "bogus"})
    with pytest.raises(RuntimeError, match="^Producer has been closed$"):
        p.poll(0)
    assert len(p) == 0


def test_close_raises_a_callback_exception_and_still_closes(make_producer: Callable[..., Producer]) -> None:
    calls: list = []

    def bad(err: Any, msg: Any) -> None:
        calls.append(err)
        raise ValueError("from the callback")

    p = make_producer({"message.timeout.ms": 100})
    for _ in range(3):
        p.produce("t", b"x", on_delivery=bad)
    with pytest.raises(ValueError, match="from the callback"):
        p.close()
    assert len(calls) == 1  # the other reports are dropped with the client
    assert p.close() is True
    with pytest.raises(RuntimeError, match="^Producer has been closed$"):
        p.poll(0)


def test_cluster_id_of_an_unreachable_cluster(make_producer: Callable[..., Producer]) -> None:
    p = make_producer()
    with pytest.raises(KafkaException) as info:
        p.cluster_id(timeout=0.2)
    err = info.value.args[0]
    assert err.code() == KafkaError._TIMED_OUT
    assert err.str() == ("Failed to retrieve cluster id: Local: Timed out. The broker must support KIP-78 "
                         "(>= 0.10.1) for the cluster id to be available.")
