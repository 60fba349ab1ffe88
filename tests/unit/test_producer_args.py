"""Bad arguments to every Producer method raise TypeError (or ValueError), never crash."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition


@pytest.fixture
def p(make_producer: Callable[..., Producer]) -> Producer:
    # No broker: messages sit in the queue (the fixture purges them) and len(p)
    # counts only messages, not protocol requests.
    return make_producer(broker=False)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((), {}),
        ((123,), {}),
        ((None,), {}),
        ((b"bytes-topic",), {}),
        (("t",), {"value": 123}),
        (("t",), {"value": 1.5}),
        (("t",), {"value": object()}),
        (("t",), {"value": ["list"]}),
        (("t",), {"key": 7}),
        (("t",), {"key": {"a": 1}}),
        (("t",), {"partition": "0"}),
        (("t",), {"partition": 1.5}),
        (("t",), {"timestamp": "now"}),
        (("t",), {"timestamp": 1.5}),
        (("t",), {"headers": 5}),
        (("t",), {"headers": "a=b"}),
        (("t",), {"headers": [("only-name",)]}),
        (("t",), {"headers": [("a", b"1", "extra")]}),
        (("t",), {"headers": ["not-a-tuple"]}),
        (("t",), {"headers": [(1, b"v")]}),
        (("t",), {"headers": [("k", 5)]}),
        (("t",), {"headers": [("k", object())]}),
        (("t",), {"headers": {"k": 5}}),
        (("t",), {"headers": {1: b"v"}}),
        (("t",), {"callback": 5}),
        (("t",), {"on_delivery": "not callable"}),
        (("t",), {"no_such_argument": 1}),
        (("t", b"v", b"k", 0, None, None, 0, None, "too many"), {}),
    ],
    ids=lambda v: repr(v)[:50],
)
def test_produce_type_errors(p: Producer, args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        p.produce(*args, **kwargs)
    assert len(p) == 0, "a rejected message must not be enqueued"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"value": b"bytes"},
        {"value": "text"},
        {"value": bytearray(b"ba")},
        {"value": memoryview(b"mv")},
        {"value": None, "key": None},
        {"key": "k", "value": b"v"},
        {"key": bytearray(b"k")},
        {"partition": 0},
        {"timestamp": 1_700_000_000_000},
        {"headers": [("a", b"1"), ("a", "two"), ("b", None)]},
        {"headers": {"a": b"1", "b": "2", "c": None}},
        {"headers": []},
        {"headers": {}},
        {"callback": lambda err, msg: None},
        {"on_delivery": lambda err, msg: None},
    ],
)
def test_produce_accepts_valid_arguments(p: Producer, kwargs: dict) -> None:
    p.produce("t", **kwargs)
    assert len(p) == 1


def test_produce_positional(p: Producer) -> None:
    p.produce("t", b"value", b"key", 0, lambda err, msg: None, None, 0, [("h", b"v")])
    assert len(p) == 1


@pytest.mark.parametrize(
    "method,args,kwargs",
    [
        ("poll", ("1",), {}),
        ("poll", (1, 2), {}),
        ("poll", (), {"timeout": "x"}),
        ("poll", (), {"tmo": 1}),
        ("flush", ("1",), {}),
        ("flush", (1, 2), {}),
        ("flush", (), {"tmo": 1}),
        ("purge", (), {"bogus": True}),
        ("purge", (True, True, True, True), {}),
        ("list_topics", (5,), {}),
        ("list_topics", (None, "x"), {}),
        ("list_topics", (), {"bogus": 1}),
        ("init_transactions", ("x",), {}),
        ("init_transactions", (1, 2), {}),
        ("begin_transaction", (1,), {}),
        ("commit_transaction", ("x",), {}),
        ("abort_transaction", ("x",), {}),
        ("send_offsets_to_transaction", (), {}),
        ("send_offsets_to_transaction", ("not a list", b"meta"), {}),
        ("send_offsets_to_transaction", ([1, 2], b"meta"), {}),
        ("send_offsets_to_transaction", ([TopicPartition("t", 0, 1)], 5), {}),
        ("send_offsets_to_transaction", ([TopicPartition("t", 0, 1)], b"m", "x"), {}),
        ("set_sasl_credentials", (), {}),
        ("set_sasl_credentials", ("user",), {}),
        ("set_sasl_credentials", (1, 2), {}),
        ("set_sasl_credentials", ("user", None), {}),
        ("produce_batch", (), {}),
        ("produce_batch", ("t",), {}),
        ("produce_batch", (123, []), {}),
        ("produce_batch", ("t", "not a list"), {}),
        ("produce_batch", ("t", [5]), {}),
        ("produce_batch", ("t", []), {"partition": "x"}),
        ("produce_batch", ("t", [{"value": b"v"}]), {"partition": "x"}),
        ("produce_batch", ("t", []), {"on_delivery": 5}),
        ("produce_batch", ("t", [{"value": b"v"}]), {"callback": 5}),
        ("produce_batch", ("t", []), {"bogus": 1}),
        ("close", ("x",), {}),
        ("close", (1, 2), {}),
    ],
    ids=lambda v: v if isinstance(v, str) else repr(v)[:40],
)
def test_method_type_errors(p: Producer, method: str, args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        getattr(p, method)(*args, **kwargs)


@pytest.mark.parametrize(
    "bad,field",
    [
        ({"value": 5}, "value"),
        ({"key": 1.5}, "key"),
        ({"partition": "x"}, "partition"),
        ({"timestamp": "x"}, "timestamp"),
        ({"headers": 5}, "headers"),
        ({"callback": 5}, "callable"),
        ({"on_delivery": "nope"}, "callable"),
    ],
)
def test_produce_batch_bad_message_gets_error(p: Producer, bad: dict, field: str) -> None:
    """A bad field fails only its own message: it gets '_error', the others go through."""
    msgs = [{"value": b"ok1"}, dict(bad), {"value": b"ok2"}]
    assert p.produce_batch("t", msgs) == 2
    assert "_error" not in msgs[0] and "_error" not in msgs[2]
    err = msgs[1]["_error"]
    assert isinstance(err, KafkaError)
    assert err.code() == KafkaError._INVALID_ARG
    assert field in err.str()
    assert len(p) == 2


@pytest.mark.parametrize("method", ["poll", "flush"])
def test_nan_timeout_is_value_error(p: Producer, method: str) -> None:
    with pytest.raises(ValueError):
        getattr(p, method)(float("nan"))


def test_close_returns_true_and_is_idempotent(p: Producer) -> None:
    assert p.close() is True
    assert p.close() is True


def test_produce_batch_empty_list(p: Producer) -> None:
    assert p.produce_batch("t", []) == 0
    assert len(p) == 0


def test_produce_to_invalid_partition_number(p: Producer) -> None:
    # A partition number librdkafka can never accept (only -1 means "any").
    with pytest.raises((ValueError, KafkaException)):
        p.produce("t", b"v", partition=-5)
    assert len(p) == 0


def test_transactions_need_transactional_id(p: Producer) -> None:
    with pytest.raises(KafkaException) as info:
        p.init_transactions(1)
    assert info.value.args[0].code() == KafkaError._NOT_CONFIGURED
    with pytest.raises(KafkaException) as info:
        p.begin_transaction()
    assert info.value.args[0].code() == KafkaError._NOT_CONFIGURED
    for call in (p.commit_transaction, p.abort_transaction):
        with pytest.raises(KafkaException) as info:
            call(1)
        assert info.value.args[0].code() == KafkaError._NOT_CONFIGURED


def test_producer_bool_and_len(p: Producer) -> None:
    assert len(p) == 0
    assert bool(p) is True  # a Producer is truthy even when empty
    p.produce("t", b"1")
    p.produce("t", b"2")
    assert len(p) == 2


def test_methods_do_not_leak_references_on_error(p: Producer) -> None:
    # Repeated failing calls must not crash or grow the queue.
    for _ in range(1000):
        with pytest.raises(TypeError):
            p.produce("t", value=123)
        with pytest.raises(TypeError):
            p.produce("t", headers=[("k", 5)])
    assert len(p) == 0


def _any(*_: Any) -> None:
    return None
