"""TopicPartition: defaults, validation, which attributes are writable, hashing, ordering, repr,
subclassing, re-initialisation and pickling (upstream 2.16's behaviour, pinned on our side)."""

from __future__ import annotations

import copy
import functools
import pickle
import re
import warnings

import pytest

from cpython_texts import unexpected_keyword_text

from confluent_kafka import OFFSET_BEGINNING, OFFSET_INVALID, KafkaError, TopicPartition


def test_defaults() -> None:
    tp = TopicPartition("t")
    assert tp.topic == "t"
    assert tp.partition == -1
    assert tp.offset == OFFSET_INVALID == -1001
    assert tp.metadata is None
    assert tp.leader_epoch is None
    assert tp.error is None


def test_all_arguments_positional_and_keyword() -> None:
    a = TopicPartition("t", 2, 100, "meta", 5)
    b = TopicPartition(topic="t", partition=2, offset=100, metadata="meta", leader_epoch=5)
    for tp in (a, b):
        assert (tp.topic, tp.partition, tp.offset, tp.metadata, tp.leader_epoch) == ("t", 2, 100, "meta", 5)


def test_explicit_none_metadata_and_epoch_are_the_defaults() -> None:
    tp = TopicPartition("t", 0, 0, None, None)
    assert (tp.metadata, tp.leader_epoch) == (None, None)


def test_negative_epoch_reads_as_none() -> None:
    assert TopicPartition("t", 0, 0, "m", -7).leader_epoch is None
    assert TopicPartition("t", 0, 0, "m", 0).leader_epoch == 0


def test_negative_partition_and_offset_kept() -> None:
    tp = TopicPartition("t", -5, -7)
    assert (tp.partition, tp.offset) == (-5, -7)


def test_writable_partition_and_offset() -> None:
    tp = TopicPartition("t", 0)
    tp.partition = 3
    tp.offset = OFFSET_BEGINNING
    assert (tp.partition, tp.offset) == (3, -2)


@pytest.mark.parametrize("name,value", [("topic", "other"), ("metadata", "m"), ("error", KafkaError(1))])
def test_read_only_attributes(name: str, value: object) -> None:
    tp = TopicPartition("t", 0, 1, "md")
    with pytest.raises(AttributeError, match="readonly attribute"):
        setattr(tp, name, value)
    with pytest.raises(AttributeError):
        delattr(tp, name)


def test_leader_epoch_not_writable() -> None:
    tp = TopicPartition("t", 0, 0, "m", 3)
    with pytest.raises(AttributeError, match="attribute 'leader_epoch' of 'cimpl.TopicPartition' objects is not writable"):
        tp.leader_epoch = 4  # type: ignore[misc]
    assert tp.leader_epoch == 3


def test_number_attribute_errors() -> None:
    tp = TopicPartition("t", 1, 2)
    with pytest.raises(TypeError):
        tp.partition = "x"  # type: ignore[assignment]
    with pytest.raises(TypeError):
        del tp.partition
    assert tp.partition == 1
    with pytest.raises(OverflowError):
        tp.offset = 2**63
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tp.partition = 2**31
    assert tp.partition == -2**31 and caught and caught[0].category is RuntimeWarning


@pytest.mark.parametrize(
    "args,kwargs,exc,text",
    [
        ((), {}, TypeError, "missing required argument 'topic'"),
        ((5,), {}, TypeError, "argument 1 must be str, not int"),
        ((None,), {}, TypeError, "argument 1 must be str, not None"),
        (("t", "x"), {}, TypeError, "cannot be interpreted as an integer"),
        (("t", 0, "x"), {}, TypeError, "cannot be interpreted as an integer"),
        (("t", 0, 0, 5), {}, TypeError, "argument 4 must be str, not int"),
        (("t",), {"metadata": b"m"}, TypeError, "argument 4 must be str, not bytes"),
        (("t", 0, 0, "m", "x"), {}, TypeError, "cannot be interpreted as an integer"),
        (("t",), {"bogus": 1}, TypeError,
         re.escape(unexpected_keyword_text("bogus", ["topic", "partition", "offset", "metadata", "leader_epoch"]))),
        (("t", 0, 0, "m", 1, 2), {}, TypeError, "at most 5 arguments"),
        (("t", 2**31), {}, OverflowError, "greater than maximum"),
        (("a\0b",), {}, ValueError, "embedded null"),
        (("t", 0, 0, "a\0b"), {}, ValueError, "embedded null"),
    ],
)
def test_bad_arguments(args: tuple, kwargs: dict, exc: type, text: str) -> None:
    with pytest.raises(exc, match=text):
        TopicPartition(*args, **kwargs)


def test_equality_and_hash_use_topic_and_partition() -> None:
    a = TopicPartition("t", 1, 10)
    b = TopicPartition("t", 1, 20, "meta")
    assert a == b
    assert hash(a) == hash(b) == hash("t") ^ 1
    assert a != TopicPartition("t", 2, 10)
    assert a != TopicPartition("u", 1, 10)
    assert len({a, b, TopicPartition("t", 2)}) == 2
    assert {a: "x"}[TopicPartition("t", 1)] == "x"


def test_comparison_with_other_types() -> None:
    a = TopicPartition("t", 1)
    assert a != ("t", 1)
    assert not (a == None)  # noqa: E711
    assert a in [None, 5, a]
    with pytest.raises(TypeError):
        a < 5  # noqa: B015


def test_ordering() -> None:
    tps = [TopicPartition("b", 0), TopicPartition("a", 2), TopicPartition("a", 0), TopicPartition("b", -1),
           TopicPartition("a", 10)]
    assert [(tp.topic, tp.partition) for tp in sorted(tps)] == [
        ("a", 0), ("a", 2), ("a", 10), ("b", -1), ("b", 0)]
    assert TopicPartition("a", 0) < TopicPartition("a", 1)
    assert TopicPartition("a", 5) < TopicPartition("b", 0)
    assert TopicPartition("b", 0) > TopicPartition("a", 5)
    assert TopicPartition("a", 1) <= TopicPartition("a", 1, 99)
    assert not TopicPartition("a", 1, 5) < TopicPartition("a", 1, 6)


def test_repr() -> None:
    assert repr(TopicPartition("orders", 3, 17, "m", 2)) == \
        "TopicPartition{topic=orders,partition=3,offset=17,leader_epoch=2,error=None}"
    assert str(TopicPartition("t")) == "TopicPartition{topic=t,partition=-1,offset=-1001,leader_epoch=None,error=None}"


class Sub(TopicPartition):
    def __init__(self, topic: str, partition: int = 0, *, note: str = "") -> None:
        super().__init__(topic, partition, 5)
        self.note = note


def test_subclass_init_calls_super() -> None:
    s = Sub("x", 3, note="n")
    assert (s.topic, s.partition, s.offset, s.note) == ("x", 3, 5, "n")
    assert s == TopicPartition("x", 3)
    back = copy.copy(s)
    assert type(back) is TopicPartition and (back.topic, back.partition, back.offset) == ("x", 3, 5)


def test_new_without_init() -> None:
    tp = TopicPartition.__new__(TopicPartition, "ignored")
    assert (tp.topic, tp.partition, tp.offset, tp.metadata, tp.leader_epoch, tp.error) == (None, 0, 0, None, 0, None)
    # Upstream crashes on these; here they work or refuse cleanly.
    assert "topic=None" in repr(tp)
    assert hash(tp) == 0
    assert tp < TopicPartition("a")
    with pytest.raises(TypeError):
        pickle.dumps(tp)
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "log_level": 0})
    try:
        with pytest.raises(TypeError, match="expected cimpl.TopicPartition"):
            c.assign([tp])
    finally:
        c.close()


def test_reinit() -> None:
    tp = TopicPartition("a", 1, 5, "m", 3)
    tp.__init__("b", 2)  # type: ignore[misc]
    assert (tp.topic, tp.partition, tp.offset, tp.metadata, tp.leader_epoch) == ("b", 2, -1001, None, None)
    with pytest.raises(TypeError):
        tp.__init__(5)  # type: ignore[misc]
    assert tp.topic == "b"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_roundtrip(protocol: int) -> None:
    tp = TopicPartition("t", 4, 99, "committed-by-me", 12)
    tp.__setstate__(KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, "out"))  # type: ignore[attr-defined]
    back = pickle.loads(pickle.dumps(tp, protocol))
    assert type(back) is TopicPartition
    assert (back.topic, back.partition, back.offset, back.metadata, back.leader_epoch) == (
        "t", 4, 99, "committed-by-me", 12)
    assert back.error == KafkaError.OFFSET_OUT_OF_RANGE
    assert back.error.str() == "out"


def test_reduce_is_a_plain_constructor_call() -> None:
    # Upstream's class loads these (it cannot pickle its own TopicPartitions).
    assert TopicPartition("t").__reduce__() == (TopicPartition, ("t", -1, -1001))
    assert TopicPartition("t", 1, 2, "m").__reduce__() == (TopicPartition, ("t", 1, 2, "m"))
    assert TopicPartition("t", 1, 2, "m", 3).__reduce__() == (TopicPartition, ("t", 1, 2, "m", 3))
    fn, args = TopicPartition("t", 1, 2, leader_epoch=3).__reduce__()
    assert isinstance(fn, functools.partial) and fn.func is TopicPartition and fn.keywords == {"leader_epoch": 3}
    assert args == ("t", 1, 2)


def test_setstate_checks_its_argument() -> None:
    tp = TopicPartition("t")
    with pytest.raises(TypeError):
        tp.__setstate__("nope")  # type: ignore[attr-defined]
    tp.__setstate__(None)  # type: ignore[attr-defined]
    assert tp.error is None


def test_pickle_defaults() -> None:
    back = pickle.loads(pickle.dumps(TopicPartition("t")))
    assert (back.topic, back.partition, back.offset, back.metadata, back.leader_epoch,
            back.error) == ("t", -1, -1001, None, None, None)


def test_copy() -> None:
    tp = TopicPartition("t", 1, 2, "m", 3)
    for c in (copy.copy(tp), copy.deepcopy(tp)):
        assert (c.topic, c.partition, c.offset, c.metadata, c.leader_epoch) == ("t", 1, 2, "m", 3)
