"""cimpl._records(): Messages into the facades' record types in one call."""
from __future__ import annotations

import dataclasses
import sys
from collections import namedtuple
from typing import Any

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME
from confluent_kafka.cimpl import Message, _records

Rec = namedtuple("Rec", "topic partition offset epoch ts tk tl key value klen vlen hl ht hs none")
LAYOUT = "tpolsyYkvKVhHSn"


@dataclasses.dataclass
class Plain:
    topic: str
    offset: int
    headers: Any


def _msg(**kw: Any) -> Message:
    base = dict(topic="t", partition=3, offset=7, value=b"vvv", key=b"k", timestamp=(TIMESTAMP_CREATE_TIME, 99))
    base.update(kw)
    return Message(**base)


def test_named_tuple_fields_follow_the_layout() -> None:
    m = _msg(headers=[("hé", b"ab"), ("z", None)], timestamp=(TIMESTAMP_LOG_APPEND_TIME, 5))
    (r,) = _records([m], Rec, LAYOUT)
    assert type(r) is Rec
    assert r == Rec("t", 3, 7, -1, 5, 1, 1, b"k", b"vvv", 1, 3, [("hé", b"ab"), ("z", None)],
                    (("hé", b"ab"), ("z", None)), 3 + 2 + 1, None)
    assert r.hl is m.headers()  # the list is shared with the message, as m.headers() gives it


def test_absent_parts_and_create_time() -> None:
    (r,) = _records([_msg(key=None, value=None, headers=None)], Rec, LAYOUT)
    assert (r.key, r.value, r.klen, r.vlen) == (None, None, -1, -1)
    assert (r.hl, r.ht, r.hs) == ([], (), -1)
    assert (r.tk, r.tl) == (0, 0)
    (r,) = _records([_msg(timestamp=None)], Rec, LAYOUT)
    assert (r.tk, r.tl) == (-1, 0)  # no timestamp type: kafka-python's -1, aiokafka's 0


def test_data_class_built_by_attribute() -> None:
    out = _records([_msg(offset=1), _msg(offset=2, headers=[("a", b"b")])], Plain, "toH", ("topic", "offset", "headers"))
    assert out == [Plain("t", 1, ()), Plain("t", 2, (("a", b"b"),))]


def test_empty_list() -> None:
    assert _records([], Rec, LAYOUT) == []


@pytest.mark.parametrize("args, exc", [
    ((1, Rec, "t"), TypeError),
    (([1], Rec, "t"), TypeError),
    (([_msg()], 1, "t"), TypeError),
    (([_msg()], Rec, 1), TypeError),
    (([_msg()], Rec, "X"), ValueError),
    (([_msg()], Plain, "t"), TypeError),  # no names for a non-tuple class
    (([_msg()], Plain, "to", ("topic",)), TypeError),
    (([_msg()], Plain, "t", (1,)), TypeError),
    (([_msg()],), TypeError),
    (([_msg(headers={"a": 1})], Rec, "S"), TypeError),
])
def test_bad_arguments_raise(args: tuple, exc: type) -> None:
    with pytest.raises(exc):
        _records(*args)


def test_references_balance() -> None:
    m = _msg(headers=[("a", b"b")])
    before = sys.getrefcount(m), sys.getrefcount(m.value())
    for _ in range(1000):
        _records([m, m], Rec, LAYOUT)
        _records([m], Plain, "toH", ("topic", "offset", "headers"))
        with pytest.raises(ValueError):
            _records([m, m], Rec, "tpX")
    assert (sys.getrefcount(m), sys.getrefcount(m.value())) == before
