"""Message: user construction, the "unset" sentinels, accessors, setters, len, equality,
subclassing, re-initialisation and pickling (upstream 2.16's behaviour, pinned on our side)."""

from __future__ import annotations

import copy
import gc
import pickle
from typing import Any
from unittest import mock

import pytest

from confluent_kafka import (
    TIMESTAMP_CREATE_TIME,
    TIMESTAMP_LOG_APPEND_TIME,
    TIMESTAMP_NOT_AVAILABLE,
    KafkaError,
    Message,
)

HEADERS = [("h1", b"v1"), ("h2", None), ("h1", b"again")]


def full_message() -> Message:
    return Message(
        topic="orders",
        partition=3,
        offset=42,
        key=b"k1",
        value=b"payload",
        headers=HEADERS,
        error=KafkaError(KafkaError._PARTITION_EOF),
        timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123),
        latency=0.25,
        leader_epoch=7,
        delivery_count=2,
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
    assert m.delivery_count() is None
    assert len(m) == 0


def test_keyword_construction() -> None:
    m = full_message()
    assert m.topic() == "orders"
    assert m.partition() == 3
    assert m.offset() == 42
    assert m.key() == b"k1"
    assert m.value() == b"payload"
    assert m.headers() is HEADERS  # the very object given
    assert m.error() == KafkaError._PARTITION_EOF
    assert m.timestamp() == (TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123)
    assert m.latency() == 0.25
    assert m.leader_epoch() == 7
    assert m.delivery_count() == 2
    assert len(m) == len(b"payload")


def test_positional_construction_order() -> None:
    err = KafkaError(KafkaError._FAIL)
    m = Message("t", 1, 2, b"k", b"v", [("a", b"b")], err, (TIMESTAMP_CREATE_TIME, 5), 0.5, 9, 4)
    assert (m.topic(), m.partition(), m.offset(), m.key(), m.value()) == ("t", 1, 2, b"k", b"v")
    assert m.headers() == [("a", b"b")]
    assert m.error() is err
    assert m.timestamp() == (TIMESTAMP_CREATE_TIME, 5)
    assert (m.latency(), m.leader_epoch(), m.delivery_count()) == (0.5, 9, 4)


@pytest.mark.parametrize("kwargs,getter,expected", [
    (dict(partition=-1), "partition", None),
    (dict(partition=-5), "partition", None),
    (dict(offset=-1), "offset", None),
    (dict(offset=-1001), "offset", None),
    (dict(leader_epoch=-3), "leader_epoch", None),
    (dict(latency=-1.0), "latency", None),
    (dict(latency=-2.5), "latency", None),
    (dict(delivery_count=0), "delivery_count", None),
    (dict(delivery_count=-1), "delivery_count", None),
    (dict(partition=0), "partition", 0),
    (dict(offset=0), "offset", 0),
    (dict(leader_epoch=0), "leader_epoch", 0),
    (dict(latency=0), "latency", 0.0),
    (dict(delivery_count=1), "delivery_count", 1),
])
def test_negative_numbers_mean_unset(kwargs: dict, getter: str, expected: Any) -> None:
    assert getattr(Message(**kwargs), getter)() == expected


def test_unset_numbers_pickle_as_upstreams_sentinels() -> None:
    args = Message(partition=-5, offset=-1, leader_epoch=-2, latency=-3.0, delivery_count=0).__reduce__()[1]
    assert args == (None, -1, -1001, None, None, None, None, (0, 0), -1.0, -1, -1)


def test_latency_is_whole_microseconds() -> None:
    assert Message(latency=0.1234567).latency() == 0.123456
    assert Message(latency=1.999e-6).latency() == 1e-6
    assert Message(latency=1e-7).latency() == 0.0


@pytest.mark.parametrize("latency", [float("inf"), float("nan"), 9.3e12, 2.0**70])
def test_latency_beyond_64_bits(latency: float) -> None:
    # As upstream (x86's float-to-int conversion): the most negative latency, pickled as "none".
    m = Message(latency=latency)
    assert m.latency() == -9223372036854.775
    assert m.__reduce__()[1][8] == -1.0


@pytest.mark.parametrize("kwargs", [
    dict(partition="x"), dict(partition=None), dict(partition=1.5), dict(offset="x"), dict(offset=None),
    dict(latency="slow"), dict(latency=None), dict(leader_epoch="x"), dict(leader_epoch=None),
    dict(delivery_count="3"), dict(delivery_count=None), dict(timestamp=5), dict(timestamp="x"),
    dict(timestamp=(1,)), dict(timestamp=(1, 2, 3)), dict(timestamp=[1, 2]), dict(timestamp=("a", "b")),
    dict(timestamp=(1.5, 2)), dict(bogus=1),
])
def test_bad_constructor_arguments(kwargs: dict) -> None:
    with pytest.raises(TypeError):
        Message(**kwargs)


@pytest.mark.parametrize("kwargs", [dict(partition=2**31), dict(offset=2**63), dict(leader_epoch=2**31),
                                    dict(delivery_count=2**15), dict(timestamp=(1, 2**63))])
def test_out_of_range_numbers(kwargs: dict) -> None:
    with pytest.raises(OverflowError):
        Message(**kwargs)


def test_timestamp_tuple_kept_as_given() -> None:
    assert Message(timestamp=(9, -5)).timestamp() == (9, -5)
    assert Message(timestamp=None).timestamp() == (TIMESTAMP_NOT_AVAILABLE, 0)


def test_too_many_positional_arguments() -> None:
    with pytest.raises(TypeError, match="at most 11"):
        Message("t", 1, 2, b"k", b"v", None, None, (0, 0), 0.0, 1, 1, "extra")


@pytest.mark.parametrize("field", ["topic", "key", "value", "headers", "error"])
@pytest.mark.parametrize("obj", [5, "text", mock.Mock(), {"a": b"1"}, (("a", b"1"),), bytearray(b"b")])
def test_objects_are_kept_as_given(field: str, obj: Any) -> None:
    m = Message(**{field: obj})
    assert getattr(m, field)() is obj
    setter = Message()
    assert getattr(setter, f"set_{field}")(obj) is None
    assert getattr(setter, field)() is obj


def test_deserialized_accessors_share_the_slots() -> None:
    m = Message(key=b"k", value=b"v")
    assert (m.deserialized_key(), m.deserialized_value()) == (b"k", b"v")
    m.set_key({"id": 1})
    m.set_value([1, 2])
    assert m.deserialized_key() == {"id": 1} and m.key() == {"id": 1}
    assert m.deserialized_value() == [1, 2] and m.value() == [1, 2]


def test_setters() -> None:
    m = Message()
    m.set_topic("t2")
    m.set_key(b"kk")
    m.set_value(b"vvvv")
    m.set_headers([("x", b"y")])
    m.set_error(KafkaError(KafkaError._MSG_TIMED_OUT))
    assert (m.topic(), m.key(), m.value(), len(m)) == ("t2", b"kk", b"vvvv", 4)
    assert m.headers() == [("x", b"y")]
    assert m.error() == KafkaError._MSG_TIMED_OUT
    for name in ("topic", "key", "value", "headers", "error"):
        getattr(m, f"set_{name}")(None)
        assert getattr(m, name)() is None
    assert len(m) == 0


def test_set_timestamp_is_ours() -> None:
    m = Message()
    m.set_timestamp(1234)
    assert m.timestamp() == (TIMESTAMP_CREATE_TIME, 1234)
    m.set_timestamp((TIMESTAMP_LOG_APPEND_TIME, 5))
    assert m.timestamp() == (TIMESTAMP_LOG_APPEND_TIME, 5)
    m.set_timestamp(None)
    assert m.timestamp() == (TIMESTAMP_NOT_AVAILABLE, 0)
    with pytest.raises(TypeError):
        m.set_timestamp("x")


def test_setter_arity() -> None:
    m = Message()
    with pytest.raises(TypeError):
        m.set_key()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        m.set_key(1, 2)  # type: ignore[call-arg]


def test_len_is_the_values_length() -> None:
    assert len(Message(value="abc")) == 3
    assert len(Message(value=[1, 2])) == 2
    with pytest.raises(TypeError):
        len(Message(value=5))


def test_equality_compares_all_but_latency_and_delivery_count() -> None:
    assert full_message() == full_message()
    assert Message() == Message()
    changed = [dict(topic="other"), dict(partition=4), dict(offset=43), dict(key=b"k2"), dict(value=b"v2"),
               dict(headers=[("h1", b"v1")]), dict(error=None), dict(timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1)),
               dict(leader_epoch=8)]
    base = dict(topic="orders", partition=3, offset=42, key=b"k1", value=b"payload", headers=list(HEADERS),
                error=KafkaError(KafkaError._PARTITION_EOF),
                timestamp=(TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123), latency=0.25, leader_epoch=7)
    assert Message(**base) == full_message()
    for change in changed:
        other = Message(**{**base, **change})
        assert other != full_message(), change
        assert not (other == full_message()), change
    assert Message(**{**base, "latency": 9.0, "delivery_count": 5}) == full_message()


def test_equality_with_other_types() -> None:
    m = Message()
    assert m.__eq__(None) is False  # not NotImplemented: upstream answers directly
    assert m.__ne__(5) is True
    assert m != "not a message"
    with pytest.raises(TypeError):
        m < m  # noqa: B015


def test_unhashable() -> None:
    assert Message.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        hash(Message())


def test_repr_names_the_record() -> None:
    r = repr(full_message())
    assert "orders" in r and "partition=3" in r and "offset=42" in r
    assert str(Message(topic=5)) == "<Message topic=5 partition=-1 offset=-1001 error=None>"


class Sub(Message):
    def __init__(self, topic: str, value: bytes, extra: int = 0) -> None:
        super().__init__(topic=topic, value=value, partition=1)
        self.extra = extra


def test_subclass_init_calls_super() -> None:
    s = Sub("t", b"v", extra=3)
    assert (s.topic(), s.value(), s.partition(), s.extra) == ("t", b"v", 1, 3)
    assert s == Message(topic="t", value=b"v", partition=1)
    back = pickle.loads(pickle.dumps(s))
    assert type(back) is Message  # pickles as the base class, whose __init__ it knows
    assert back == s


def test_new_without_init_is_blank() -> None:
    m = Message.__new__(Message, "ignored", foo=1)
    assert (m.topic(), m.partition(), m.offset(), m.latency(), m.leader_epoch()) == (None, 0, 0, 0.0, 0)
    assert m.delivery_count() is None
    assert m.__reduce__()[1] == (None, 0, 0, None, None, None, None, (0, 0), 0.0, 0, 0)


def test_reinit_replaces_every_field() -> None:
    m = full_message()
    m.__init__(topic="again")  # type: ignore[misc]
    assert m.__reduce__()[1] == ("again", -1, -1001, None, None, None, None, (0, 0), -1.0, -1, -1)


def test_failed_reinit_changes_nothing() -> None:
    m = full_message()
    with pytest.raises(TypeError):
        m.__init__(topic="x", timestamp="bad")  # type: ignore[misc]
    assert m.topic() == "orders" and m.offset() == 42


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_roundtrip(protocol: int) -> None:
    m = full_message()
    back = pickle.loads(pickle.dumps(m, protocol))
    assert type(back) is Message
    assert back == m
    assert back.headers() == HEADERS
    assert back.error().str() == m.error().str()
    assert (back.latency(), back.leader_epoch(), back.delivery_count()) == (0.25, 7, 2)


def test_reduce_is_upstreams_constructor_call() -> None:
    cls, args = full_message().__reduce__()
    assert cls is Message
    assert args[:7] == ("orders", 3, 42, b"k1", b"payload", HEADERS, KafkaError(KafkaError._PARTITION_EOF))
    assert args[7:] == ((TIMESTAMP_LOG_APPEND_TIME, 1_700_000_000_123), 0.25, 7, 2)


def test_loads_a_pickle_made_by_upstream() -> None:
    # pickle.dumps(Message(topic="t", value=b"v", headers={"a": b"1"}, latency=0.5), 2) by upstream 2.16.1
    upstream = (b"\x80\x02cconfluent_kafka.cimpl\nMessage\nq\x00(X\x01\x00\x00\x00tq\x01J\xff\xff\xff\xffJ"
                b"\x17\xfc\xff\xffNc_codecs\nencode\nq\x02X\x01\x00\x00\x00vq\x03X\x06\x00\x00\x00latin1q"
                b"\x04\x86q\x05Rq\x06}q\x07X\x01\x00\x00\x00aq\x08h\x02X\x01\x00\x00\x001q\th\x04\x86q\nRq"
                b"\x0bsNK\x00K\x00\x86q\x0cG?\xe0\x00\x00\x00\x00\x00\x00J\xff\xff\xff\xffJ\xff\xff\xff\xff"
                b"tq\rRq\x0e.")
    m = pickle.loads(upstream)
    assert (m.topic(), m.value(), m.headers(), m.latency(), m.partition()) == ("t", b"v", {"a": b"1"}, 0.5, None)


def test_copy() -> None:
    m = full_message()
    shallow, deep = copy.copy(m), copy.deepcopy(m)
    assert shallow == m and deep == m
    assert shallow.headers() is HEADERS
    assert deep.headers() == HEADERS and deep.headers() is not HEADERS


def test_cycle_through_set_headers_is_collected() -> None:
    # A message that reaches itself through its headers is found by the cycle collector.
    freed: list[int] = []

    class Flag:
        def __del__(self) -> None:
            freed.append(1)

    m = Message()
    m.set_headers([("self", m), ("flag", Flag())])
    del m
    gc.collect()
    assert freed == [1]
