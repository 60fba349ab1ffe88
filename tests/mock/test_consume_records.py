"""Consumer._consume_records(): consume(n, 0) made into records without Messages (the mock cluster).

The aiokafka facade's getmany() takes its records this way; they must be what
cimpl._records(consume(...), ...) makes of the same messages.
"""

from __future__ import annotations

import sys
import time
from collections import namedtuple
from typing import Any, Callable, Dict, List

import pytest

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, TopicPartition
from confluent_kafka.cimpl import _records

pytestmark = pytest.mark.mock

TP = namedtuple("TP", "topic partition")
Rec = namedtuple("Rec", "topic partition offset ts tl key value klen vlen headers hs")
LAYOUT = "tposYkvKVHS"


class Plain:
    """A class made by attribute, as a data class's records are."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Plain and vars(self) == vars(other)


NAMES = ("topic", "partition", "offset", "value", "headers")


@pytest.fixture
def filled(mock_cluster: Any, unique_topic: str, make_producer: Callable) -> str:
    """Two partitions, eight messages: keys and none, a null value, headers on some."""
    mock_cluster.create_topic(unique_topic, partitions=2)
    p = make_producer()
    for i in range(8):
        p.produce(unique_topic, value=None if i == 3 else b"v%d" % i, key=None if i == 0 else b"k%d" % i,
                  partition=i % 2, timestamp=1_000 + i,
                  headers=[("h", b"x"), ("n", None)] if i % 2 else None)
    assert p.flush(30) == 0
    return unique_topic


def _assigned(make_consumer: Callable, topic: str, **conf: Any) -> Consumer:
    c = make_consumer(conf)
    c.assign([TopicPartition(topic, i, OFFSET_BEGINNING) for i in range(2)])
    return c


def _take_all(c: Consumer, count: int, *spec: Any) -> Dict[Any, List[Any]]:
    """Grouped records of count messages, merged over calls (each call takes what is ready)."""
    merged: Dict[Any, List[Any]] = {}
    deadline = time.monotonic() + 30
    while sum(map(len, merged.values())) < count and time.monotonic() < deadline:
        got = c._consume_records(count, *spec)
        assert isinstance(got, dict), got
        for k, v in got.items():
            merged.setdefault(k, []).extend(v)
        if not got:
            time.sleep(0.05)
    return merged


def test_records_are_those_of_the_messages(filled: str, make_consumer: Callable) -> None:
    got = _take_all(_assigned(make_consumer, filled), 8, Rec, LAYOUT, None, TP)
    msgs: List[Message] = []
    c = _assigned(make_consumer, filled)
    while len(msgs) < 8:
        msgs += c.consume(8 - len(msgs), 5.0)
    want = _records(msgs, Rec, LAYOUT, None, TP)
    assert got == {k: want[k] for k in got} and set(got) == set(want)
    assert all(type(k) is TP for k in got)
    for part, recs in got.items():
        assert [r.offset for r in recs] == list(range(4))  # message order within a partition
    r3 = got[TP(filled, 1)][1]  # the fourth message: null value, headers
    assert (r3.value, r3.vlen, r3.key, r3.headers) == (None, -1, b"k3", (("h", b"x"), ("n", None)))
    r0 = got[TP(filled, 0)][0]
    assert (r0.key, r0.klen, r0.headers, r0.hs, r0.ts) == (None, -1, (), -1, 1_000)


def test_records_by_attribute_and_as_a_list(filled: str, make_consumer: Callable) -> None:
    c = _assigned(make_consumer, filled)
    got = _take_all(c, 8, Plain, "tpovH", NAMES, TP)
    assert sorted((r.partition, r.offset) for rs in got.values() for r in rs) == [(p, o) for p in (0, 1)
                                                                                 for o in range(4)]
    c = _assigned(make_consumer, filled)
    flat: List[Any] = []
    while len(flat) < 8:
        part = c._consume_records(8, Rec, LAYOUT, None, None)
        assert isinstance(part, list) and all(type(r) is Rec for r in part)
        flat += part
        time.sleep(0.01)
    assert sorted((r.partition, r.offset) for r in flat) == [(p, o) for p in (0, 1) for o in range(4)]


def test_an_error_event_gives_the_messages(filled: str, make_consumer: Callable) -> None:
    """End of partition is an event with an error: the call returns Messages, as consume() would."""
    c = _assigned(make_consumer, filled, **{"enable.partition.eof": True})
    seen: List[Message] = []
    records = 0
    deadline = time.monotonic() + 30
    while not any(isinstance(m, Message) and m.error() is not None for m in seen) and time.monotonic() < deadline:
        got = c._consume_records(100, Rec, LAYOUT, None, TP)
        if isinstance(got, dict):
            records += sum(map(len, got.values()))
        else:
            assert all(type(m) is Message for m in got)
            seen += got
    eofs = [m for m in seen if m.error() is not None]
    assert eofs and eofs[0].error().code() == KafkaError._PARTITION_EOF
    assert records + sum(1 for m in seen if m.error() is None) <= 8


def test_a_partition_not_wanted_gives_the_messages(filled: str, make_consumer: Callable) -> None:
    both = {(filled, 0), (filled, 1)}
    got = _take_all(_assigned(make_consumer, filled), 8, Rec, LAYOUT, None, TP, frozenset(both))
    assert sum(map(len, got.values())) == 8
    c = _assigned(make_consumer, filled)
    msgs: List[Message] = []
    deadline = time.monotonic() + 30
    while len(msgs) < 8 and time.monotonic() < deadline:
        out = c._consume_records(8, Rec, LAYOUT, None, TP, {(filled, 0)})
        if isinstance(out, dict):  # only partition 0's records were ready in this call
            assert set(out) <= {TP(filled, 0)}
            msgs += [Message(topic=r.topic, partition=r.partition, offset=r.offset) for rs in out.values()
                     for r in rs]
        else:
            assert all(type(m) is Message and m.error() is None for m in out)
            msgs += out
    assert sorted((m.partition(), m.offset()) for m in msgs) == [(p, o) for p in (0, 1) for o in range(4)]
    with pytest.raises(TypeError):
        c._consume_records(8, Rec, LAYOUT, None, TP, [(filled, 0)])


def test_nothing_ready_is_an_empty_dict_and_zero_asks_for_nothing(mock_cluster: Any, unique_topic: str,
                                                                  make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    c = make_consumer()
    c.assign([TopicPartition(unique_topic, 0, OFFSET_BEGINNING)])
    assert c._consume_records(10, Rec, LAYOUT, None, TP) == {}
    assert c._consume_records(0, Rec, LAYOUT, None, TP) == []


@pytest.mark.parametrize("args, exc", [
    ((), TypeError),
    ((10, Rec, LAYOUT, None), TypeError),
    ((10, Rec, LAYOUT, None, TP, None, 1), TypeError),
    ((-1, Rec, LAYOUT, None, TP), ValueError),
    ((1000001, Rec, LAYOUT, None, TP), ValueError),
    (("10", Rec, LAYOUT, None, TP), TypeError),
    ((10, 1, LAYOUT, None, TP), TypeError),
    ((10, Rec, 1, None, TP), TypeError),
    ((10, Plain, "t", None, TP), TypeError),
    ((10, Rec, LAYOUT, None, int), TypeError),
])
def test_bad_arguments(make_consumer: Callable, args: tuple, exc: type) -> None:
    with pytest.raises(exc):
        make_consumer()._consume_records(*args)


def test_closed_consumer(make_consumer: Callable) -> None:
    c = make_consumer()
    c.close()
    with pytest.raises(RuntimeError):
        c._consume_records(10, Rec, LAYOUT, None, TP)


def test_references_balance(filled: str, make_consumer: Callable) -> None:
    c = _assigned(make_consumer, filled)
    spec = (Plain, "tpovH", NAMES, TP)
    before = [sys.getrefcount(x) for x in (Plain, TP, NAMES)]
    for _ in range(200):
        c._consume_records(8, *spec)
        with pytest.raises(TypeError):
            c._consume_records(8, Plain, "tp", NAMES, TP)
    assert [sys.getrefcount(x) for x in (Plain, TP, NAMES)] == before
