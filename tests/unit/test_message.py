"""Message: user construction, accessors, setters, len, equality, pickling."""

from __future__ import annotations

import copy
import pickle

import pytest

from confluent_kafka import (
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE,
    KafkaError,
    Message,
)


def full_message() -> Message:
    return Message(
        topic="orders",
        partition=3,
        offset=42,
        key=b"k1",
        value=b"payload",
        headers=[("h1", b"v1"), ("h2", None), ("h1", b"again")],
        error=KafkaError(KafkaError._PARTITION_EOF),
        timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123),
        latency=0.25,
        leader_epoch=7,
    )


def test_defaults() -> None:
    m = Message()
    assert m.topic() is None
    assert m.partition() is None
    assert m.offset() is None
    assert m.key() is None
    assert m.value() is None
    assert m.headers() is None
    assert m.error() is None
    assert m.timestamp() == (TIMESTAMP_NOT_AVAILABLE, 0)
    assert m.latency() is None
    assert m.leader_epoch() is None
    assert len(m) == 0


def test_keyword_construction() -> None:
    m = full_message()
    assert m.topic() == "orders"
    assert m.partition() == 3
    assert m.offset() == 42
    assert m.key() == b"k1"
    assert m.value() == b"payload"
    assert m.headers() == [("h1", b"v1"), ("h2", None), ("h1", b"again")]
    assert m.error() == KafkaError._PARTITION_EOF
    assert isinstance(m.error(), KafkaError)
    assert m.timestamp() == (TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123)
    assert m.latency() == pytest.approx(0.25)
    assert m.leader_epoch() == 7
    assert len(m) == len(b"payload")


def test_positional_construction_order() -> None:
    err = KafkaError(KafkaError._FAIL)
    m = Message("t", 1, 2, b"k", b"v", [("a", b"b")], err, 5, 0.5, 9)
    assert m.topic() == "t"
    assert m.partition() == 1
    assert m.offset() == 2
    assert m.key() == b"k"
    assert m.value() == b"v"
    assert m.headers() == [("a", b"b")]
    assert m.error() == KafkaError._FAIL
    assert m.timestamp() == (TIMESTAMP_CREATE_TIME, 5)
    assert m.latency() == pytest.approx(0.5)
    assert m.leader_epoch() == 9


def test_int_timestamp_is_create_time() -> None:
    assert Message(timestamp=1234).timestamp() == (TIMESTAMP_CREATE_TIME, 1234)


def test_unset_partition_and_offset_read_as_none() -> None:
    m = Message(partition=-1, offset=-1001)
    assert m.partition() is None
    assert m.offset() is None
    assert Message(partition=0, offset=0).partition() == 0
    assert Message(partition=0, offset=0).offset() == 0


def test_dict_headers_become_list_of_tuples() -> None:
    m = Message(headers={"a": b"1", "b": None})
    assert m.headers() == [("a", b"1"), ("b", None)]


def test_setters() -> None:
    m = Message()
    m.set_topic("t2")
    m.set_key(b"kk")
    m.set_value(b"vvvv")
    m.set_headers([("x", b"y")])
    m.set_error(KafkaError(KafkaError._MSG_TIMED_OUT))
    assert m.topic() == "t2"
    assert m.key() == b"kk"
    assert m.value() == b"vvvv"
    assert len(m) == 4
    assert m.headers() == [("x", b"y")]
    assert m.error() == KafkaError._MSG_TIMED_OUT
    m.set_value(None)
    assert m.value() is None
    assert len(m) == 0
    m.set_error(None)
    assert m.error() is None
    m.set_key(None)
    assert m.key() is None


def test_str_value_len() -> None:
    # A user-built message keeps what it was given; len() is the value's length.
    m = Message(value="abc")
    assert m.value() == "abc"
    assert len(m) == 3


def test_equality_compares_all_fields() -> None:
    assert full_message() == full_message()
    assert Message() == Message()
    variants = [
        dict(topic="other"),
        dict(partition=4),
        dict(offset=43),
        dict(key=b"k2"),
        dict(value=b"different"),
        dict(headers=[("h1", b"v1")]),
        dict(error=None),
        dict(timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1)),
        dict(latency=0.5),
        dict(leader_epoch=8),
    ]
    base = dict(
        topic="orders", partition=3, offset=42, key=b"k1", value=b"payload",
        headers=[("h1", b"v1"), ("h2", None), ("h1", b"again")],
        error=KafkaError(KafkaError._PARTITION_EOF),
        timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123), latency=0.25, leader_epoch=7,
    )
    assert Message(**base) == full_message()
    for change in variants:
        other = Message(**{**base, **change})
        assert other != full_message(), change
        assert not (other == full_message()), change
    assert Message() != "not a message"
    assert Message() != None  # noqa: E711 - testing __eq__ with None


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_roundtrip(protocol: int) -> None:
    m = full_message()
    back = pickle.loads(pickle.dumps(m, protocol))
    assert type(back) is Message
    assert back == m
    assert back.headers() == m.headers()
    assert back.error().str() == m.error().str()
    assert back.timestamp() == m.timestamp()
    assert back.latency() == pytest.approx(0.25)
    assert back.leader_epoch() == 7


def test_pickle_empty_message() -> None:
    assert pickle.loads(pickle.dumps(Message())) == Message()


def test_copy() -> None:
    m = full_message()
    assert copy.copy(m) == m
    assert copy.deepcopy(m) == m


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(topic=5),
        dict(partition="x"),
        dict(offset="x"),
        dict(error="not an error"),
        dict(timestamp="x"),
        dict(timestamp=(1,)),
        dict(latency="slow"),
        dict(leader_epoch="x"),
        dict(bogus=1),
    ],
)
def test_bad_constructor_arguments(kwargs: dict) -> None:
    with pytest.raises(TypeError):
        Message(**kwargs)


def test_too_many_positional_arguments() -> None:
    with pytest.raises(TypeError):
        Message("t", 1, 2, b"k", b"v", None, None, 0, 0.0, 1, "extra")


def test_bad_setter_arguments() -> None:
    m = Message()
    with pytest.raises(TypeError):
        m.set_error("not an error")
    with pytest.raises(TypeError):
        m.set_topic(5)
    with pytest.raises(TypeError):
        m.set_headers(5)
