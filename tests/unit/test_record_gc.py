"""Records of atomic values stay out of the garbage collector (cimpl._SlotField, slot_field.c).

The aiokafka facade's ConsumerRecord keeps its fields in slots behind _SlotField descriptors.
A record made in C from a message holds only str, int, bytes, None and tuples of those: it can
never be in a reference cycle, so it is left untracked. Giving a field anything that could lead
back to the record has the collector watch it again, so a cycle through a record is still
collected."""
from __future__ import annotations

import copy
import gc
import pickle
import weakref
from typing import Any

import pytest

from confluent_kafka import TIMESTAMP_CREATE_TIME, Message
from confluent_kafka.cimpl import _records, _SlotField
from confluent_kafka.compat.aiokafka.consumer.consumer import _LAYOUT, _NAMES
from confluent_kafka.compat.aiokafka.structs import ConsumerRecord


def _record(**kw: Any) -> ConsumerRecord:
    base = dict(topic="t", partition=3, offset=7, value=b"vvv", key=b"k", timestamp=(TIMESTAMP_CREATE_TIME, 99))
    base.update(kw)
    (r,) = _records([Message(**base)], ConsumerRecord, _LAYOUT, _NAMES)
    return r


@pytest.mark.parametrize("kw", [{}, {"key": None, "value": None}, {"headers": [("a", b"b"), ("c", None)]}])
def test_records_made_in_c_are_untracked(kw: dict) -> None:
    r = _record(**kw)
    assert type(r) is ConsumerRecord and not gc.is_tracked(r)


@pytest.mark.parametrize("name", _NAMES)
def test_a_container_in_any_field_tracks_the_record_again(name: str) -> None:
    r = _record()
    setattr(r, name, 5)
    setattr(r, name, ("a", (b"b", None)))  # immutable and atomic all the way down
    assert not gc.is_tracked(r)
    setattr(r, name, [])
    assert gc.is_tracked(r) and getattr(r, name) == []


@pytest.mark.parametrize("value", [{}, [], {1}, (("a", []),), ((((1,),),),), object.__new__(type("Box", (), {}))],
                         ids=["empty-dict", "list", "set", "tuple-of-list", "deep-tuple", "instance"])
def test_what_may_lead_back_tracks_it(value: Any) -> None:
    r = _record()
    r.value = value
    assert gc.is_tracked(r)


def test_a_cycle_through_a_record_is_collected() -> None:
    for setter in (lambda r: setattr(r, "value", [r]),
                   lambda r: r.__setstate__({"headers": (("h", b"x"),), "key": {"me": r}})):
        r = _record()
        setter(r)
        ref = weakref.ref(r)
        del r
        gc.collect()
        assert ref() is None


def test_field_reads_deletes_and_errors_are_the_slots() -> None:
    r = _record()
    assert (r.topic, r.offset, r.value) == ("t", 7, b"vvv")
    del r.key
    with pytest.raises(AttributeError, match="key"):
        r.key
    with pytest.raises(AttributeError):
        del r.key
    r.key = b"again"
    assert r.key == b"again" and not gc.is_tracked(r)
    field = ConsumerRecord.topic  # type: ignore[attr-defined]
    assert type(field) is _SlotField and field.__name__ == "topic" and field.__objclass__ is ConsumerRecord
    assert repr(field) == "<slot field 'topic' of 'ConsumerRecord' objects>"
    with pytest.raises(TypeError):
        field.__set__(object(), 1)  # the slot's own check: not a ConsumerRecord
    with pytest.raises(TypeError):
        field.__get__(object(), object)


def test_records_still_copy_pickle_and_compare() -> None:
    r = _record(headers=[("a", b"b")])
    for twin in [copy.copy(r), copy.deepcopy(r)] + [pickle.loads(pickle.dumps(r, p)) for p in range(6)]:
        assert twin == r and vars(twin) == vars(r)


@pytest.mark.parametrize("member", [1, None, type.__dict__["__basicsize__"], property(lambda s: 1)],
                         ids=["int", "None", "readonly-ssize-member", "property"])
def test_slot_field_takes_only_a_writable_object_slot(member: Any) -> None:
    with pytest.raises(TypeError, match="writable __slots__ entry"):
        _SlotField(member)
    with pytest.raises(TypeError):
        _SlotField()  # type: ignore[call-arg]


def _watched(cls: type, names: tuple) -> type:
    for name in names:
        setattr(cls, name, _SlotField(vars(cls)[name]))
    return cls


class AllWatched:
    __slots__ = ("topic", "offset")


class ExtraSlot:
    """A slot that is not a field: it could hold anything, so the records stay watched."""

    __slots__ = ("topic", "offset", "other")


class WithDict:
    __slots__ = ("topic", "offset", "__dict__")


class HalfWatched:
    __slots__ = ("topic", "offset")


_watched(AllWatched, ("topic", "offset"))
_watched(ExtraSlot, ("topic", "offset"))
_watched(WithDict, ("topic", "offset"))
_watched(HalfWatched, ("topic",))


@pytest.mark.parametrize("cls, tracked", [(AllWatched, False), (ExtraSlot, True), (WithDict, True),
                                          (HalfWatched, True)])
def test_only_classes_with_nothing_but_watched_fields_are_untracked(cls: type, tracked: bool) -> None:
    (r,) = _records([Message(topic="t", offset=1)], cls, "to", ("topic", "offset"))
    assert (r.topic, r.offset) == ("t", 1)
    assert gc.is_tracked(r) is tracked
