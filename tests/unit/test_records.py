"""cimpl._records() / _record(): Messages into the facades' record types in one call."""
from __future__ import annotations

import copy
import dataclasses
import pickle
import sys
from collections import namedtuple
from typing import Any, List

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME, KafkaError
from confluent_kafka.cimpl import Message, _record, _records

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


TP = namedtuple("TP", "topic partition")


def test_grouped_by_partition_in_message_order() -> None:
    msgs = [_msg(offset=1), _msg(topic="u", offset=2), _msg(offset=3, partition=4), _msg(offset=4),
            _msg(topic="u", offset=5)]
    out = _records(msgs, Rec, LAYOUT, None, TP)
    assert list(out) == [TP("t", 3), TP("u", 3), TP("t", 4)]  # first appearance order
    assert all(type(k) is TP for k in out)
    assert [r.offset for r in out[TP("t", 3)]] == [1, 4]
    assert [r.offset for r in out[TP("u", 3)]] == [2, 5]
    assert [r.offset for r in out[TP("t", 4)]] == [3]
    # the same records as the list form, only grouped
    flat = _records(msgs, Rec, LAYOUT)
    assert sorted(r for rs in out.values() for r in rs) == sorted(flat)


def test_grouped_data_classes_and_equal_topics_that_are_distinct_objects() -> None:
    t1, t2 = "".join(["to", "pic"]), "".join(["top", "ic"])
    assert t1 == t2 and t1 is not t2
    out = _records([_msg(topic=t1, offset=1), _msg(topic=t2, offset=2)], Plain, "toH",
                   ("topic", "offset", "headers"), TP)
    assert out == {TP("topic", 3): [Plain("topic", 1, ()), Plain("topic", 2, ())]}


def test_grouped_is_none_when_a_message_carries_an_error() -> None:
    err = Message(topic="t", partition=0, error=KafkaError(KafkaError._PARTITION_EOF))
    assert _records([_msg(), err], Rec, LAYOUT, None, TP) is None
    assert _records([], Rec, LAYOUT, None, TP) == {}
    # without grouping, an error message is a record like any other (kafka-python's facade)
    assert len(_records([_msg(), err], Rec, LAYOUT)) == 2


@pytest.mark.parametrize("by", [1, "TP", Plain, int, str])
def test_grouped_by_must_be_a_named_tuple_class(by: Any) -> None:
    with pytest.raises(TypeError):
        _records([_msg()], Rec, LAYOUT, None, by)


def test_single_record() -> None:
    m = _msg(headers=[("a", b"b")])
    assert _record(m, Rec, LAYOUT) == _records([m], Rec, LAYOUT)[0]
    assert _record(m, Plain, "toH", ("topic", "offset", "headers")) == Plain("t", 7, (("a", b"b"),))
    for args in [(1, Rec, LAYOUT), (m, 1, "t"), (m, Rec, 1), (m, Plain, "t"), (m,), (m, Rec, "X")]:
        with pytest.raises((TypeError, ValueError)):
            _record(*args)


def test_a_class_with_its_own_setattr_goes_through_it() -> None:
    seen: List[str] = []

    class Watched:
        def __setattr__(self, name: str, value: Any) -> None:
            seen.append(name)
            object.__setattr__(self, name, value)

    (r,) = _records([_msg()], Watched, "to", ("topic", "offset"))
    assert (r.topic, r.offset, seen) == ("t", 7, ["topic", "offset"])


def test_grouped_references_balance() -> None:
    m = _msg(headers=[("a", b"b")])
    before = sys.getrefcount(m), sys.getrefcount(m.value()), sys.getrefcount(m.topic())
    for _ in range(1000):
        _records([m, m, _msg(topic="u")], Rec, LAYOUT, None, TP)
        _records([m], Plain, "toH", ("topic", "offset", "headers"), TP)
        _record(m, Rec, LAYOUT)
        with pytest.raises(ValueError):
            _records([m, m], Rec, "tpX", None, TP)
    assert (sys.getrefcount(m), sys.getrefcount(m.value()), sys.getrefcount(m.topic())) == before


class Slotted:
    """Fields in slots: stored at their offsets, not through setattr."""

    __slots__ = ("topic", "offset", "headers")


class SlottedChild(Slotted):
    __slots__ = ("value",)


class Borrowing:
    """A slot descriptor of another class under a name of this one: its offset is not this
    class's, so it must not be used to store (the descriptor refuses a foreign instance)."""

    topic = Slotted.topic  # type: ignore[attr-defined]


def test_slotted_class_filled_by_slot_and_balanced() -> None:
    m = _msg(headers=[("a", b"b")])
    before = sys.getrefcount(m.value()), sys.getrefcount(m.topic())
    for _ in range(1000):
        (r,) = _records([m], SlottedChild, "toHv", ("topic", "offset", "headers", "value"))
        del r
    (r,) = _records([m], SlottedChild, "toHv", ("topic", "offset", "headers", "value"))
    assert (r.topic, r.offset, r.headers, r.value) == ("t", 7, (("a", b"b"),), b"vvv")
    assert r.value is m.value()
    del r
    assert (sys.getrefcount(m.value()), sys.getrefcount(m.topic())) == before


def test_slot_path_only_for_the_class_own_slots() -> None:
    with pytest.raises(TypeError, match="doesn't apply"):
        _records([_msg()], Borrowing, "t", ("topic",))
    # a name that is not a slot: the generic setter, which refuses it on a slotted class
    with pytest.raises(AttributeError):
        _records([_msg()], Slotted, "tk", ("topic", "key"))


def test_aiokafka_record_made_in_c_equals_one_made_in_python() -> None:
    from confluent_kafka.compat.aiokafka.consumer.consumer import _LAYOUT, _NAMES
    from confluent_kafka.compat.aiokafka.structs import ConsumerRecord

    m = _msg(headers=[("a", b"b")])
    (r,) = _records([m], ConsumerRecord, _LAYOUT, _NAMES)
    assert r == ConsumerRecord("t", 3, 7, 99, 0, b"k", b"vvv", None, 1, 3, (("a", b"b"),))
    assert vars(r)["value"] == b"vvv" and dataclasses.asdict(r)["offset"] == 7
    # slots with a computed __dict__ still pickle and copy on every supported Python
    assert all(pickle.loads(pickle.dumps(r, proto)) == r for proto in range(pickle.HIGHEST_PROTOCOL + 1))
    assert copy.copy(r) == r and copy.deepcopy(r) == r


def test_named_tuples_made_in_c_hash_like_equal_ones_made_in_python() -> None:
    # From 3.14 a tuple caches its hash; one made in C must start with the cache empty, or it
    # would hash to 0 and be missed in a dict or set under an equal tuple.
    Small = namedtuple("Small", "topic partition offset")
    (r,) = _records([_msg()], Small, "tpo")
    twin = Small("t", 3, 7)
    assert r == twin and hash(r) == hash(twin) == hash(("t", 3, 7))
    assert {twin: 1}[r] == 1 and r in {twin}
    (key,) = _records([_msg()], Small, "tpo", None, TP)
    assert hash(key) == hash(("t", 3)) and key in {TP("t", 3)}
