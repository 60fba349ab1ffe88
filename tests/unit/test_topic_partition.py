"""TopicPartition: defaults, attributes, hashing, ordering, repr, pickling."""

from __future__ import annotations

import copy
import pickle

import pytest

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
        assert (tp.topic, tp.partition, tp.offset, tp.metadata, tp.leader_epoch) == (
            "t", 2, 100, "meta", 5)


def test_writable_attributes() -> None:
    tp = TopicPartition("t", 0)
    tp.partition = 3
    tp.offset = OFFSET_BEGINNING
    tp.metadata = "m"
    tp.leader_epoch = 4
    tp.error = KafkaError(KafkaError._FAIL)
    assert (tp.partition, tp.offset, tp.metadata, tp.leader_epoch) == (3, -2, "m", 4)
    assert tp.error == KafkaError._FAIL


def test_topic_is_read_only() -> None:
    tp = TopicPartition("t", 0)
    with pytest.raises(AttributeError):
        tp.topic = "other"  # type: ignore[misc]
    assert tp.topic == "t"


def test_equality_and_hash_use_topic_and_partition() -> None:
    a = TopicPartition("t", 1, 10)
    b = TopicPartition("t", 1, 20, "meta")
    assert a == b
    assert hash(a) == hash(b)
    assert hash(a) == hash(("t", 1))
    assert a != TopicPartition("t", 2, 10)
    assert a != TopicPartition("u", 1, 10)
    assert len({a, b, TopicPartition("t", 2)}) == 2
    assert {a: "x"}[TopicPartition("t", 1)] == "x"
    assert a != ("t", 1)


def test_ordering() -> None:
    tps = [TopicPartition("b", 0), TopicPartition("a", 2), TopicPartition("a", 0),
           TopicPartition("b", -1), TopicPartition("a", 10)]
    assert [(tp.topic, tp.partition) for tp in sorted(tps)] == [
        ("a", 0), ("a", 2), ("a", 10), ("b", -1), ("b", 0)]
    assert TopicPartition("a", 0) < TopicPartition("a", 1)
    assert TopicPartition("a", 5) < TopicPartition("b", 0)
    assert TopicPartition("b", 0) > TopicPartition("a", 5)
    assert TopicPartition("a", 1) <= TopicPartition("a", 1, 99)
    assert TopicPartition("a", 1) >= TopicPartition("a", 1, 99)


def test_ordering_against_other_types_raises() -> None:
    with pytest.raises(TypeError):
        TopicPartition("a", 0) < 5  # noqa: B015


def test_repr() -> None:
    r = repr(TopicPartition("orders", 3, 17))
    assert "orders" in r
    assert "partition=3" in r
    assert "offset=17" in r


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_roundtrip(protocol: int) -> None:
    tp = TopicPartition("t", 4, 99, "committed-by-me", 12)
    tp.error = KafkaError(KafkaError.OFFSET_OUT_OF_RANGE, "out")
    back = pickle.loads(pickle.dumps(tp, protocol))
    assert type(back) is TopicPartition
    assert (back.topic, back.partition, back.offset, back.metadata, back.leader_epoch) == (
        "t", 4, 99, "committed-by-me", 12)
    assert back.error == KafkaError.OFFSET_OUT_OF_RANGE
    assert back.error.str() == "out"


def test_pickle_defaults() -> None:
    back = pickle.loads(pickle.dumps(TopicPartition("t")))
    assert (back.topic, back.partition, back.offset, back.metadata, back.leader_epoch,
            back.error) == ("t", -1, -1001, None, None, None)


def test_copy() -> None:
    tp = TopicPartition("t", 1, 2, "m", 3)
    for c in (copy.copy(tp), copy.deepcopy(tp)):
        assert (c.topic, c.partition, c.offset, c.metadata, c.leader_epoch) == ("t", 1, 2, "m", 3)


@pytest.mark.parametrize(
    "args,kwargs",
    [
        ((), {}),
        ((5,), {}),
        ((None,), {}),
        (("t", "x"), {}),
        (("t", 0, "x"), {}),
        (("t", 0, 0, 5), {}),
        (("t",), {"leader_epoch": "x"}),
        (("t",), {"bogus": 1}),
    ],
)
def test_bad_arguments(args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        TopicPartition(*args, **kwargs)


def test_bad_attribute_types() -> None:
    tp = TopicPartition("t")
    with pytest.raises(TypeError):
        tp.partition = "x"  # type: ignore[assignment]
    with pytest.raises(TypeError):
        tp.offset = "x"  # type: ignore[assignment]
