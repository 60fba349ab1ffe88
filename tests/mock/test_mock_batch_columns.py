"""Producer.produce_batch with columns: sequences and Arrow arrays of values, keys, partitions,
headers and timestamps (the mock cluster)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from clients import read_messages
from confluent_kafka import OFFSET_BEGINNING, KafkaError, KafkaException, Message, TopicPartition

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.mock


def fields(m: Message) -> tuple:
    return (m.key(), m.value(), m.partition(), m.headers(), m.timestamp()[1])


def test_sequences_round_trip(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                              read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=2)
    p = make_producer()
    n = p.produce_batch(unique_topic, [b"a", "b", None, bytearray(b"d"), memoryview(b"e")],
                        keys=[b"k", None, "x", b"", b"y"], partition=[0, 1, 0, 1, 0],
                        headers=[[("a", b"1")], None, {"b": "2"}, [("n", None)], []],
                        timestamps=[1_000, None, 2_000, 3_000, 0])
    assert n == 5
    assert p.flush(30) == 0
    got0 = [fields(m) for m in read_back(unique_topic, 0, 3)]
    got1 = [fields(m) for m in read_back(unique_topic, 1, 2)]
    assert got0[0] == (b"k", b"a", 0, [("a", b"1")], 1_000)
    assert got0[1][:4] == (b"x", None, 0, [("b", b"2")]) and got0[1][4] == 2_000
    assert got0[2][:4] == (b"y", b"e", 0, None) and got0[2][4] > 1_600_000_000_000  # now
    assert got1[0][:4] == (None, b"b", 1, None)
    assert got1[1] == (b"", b"d", 1, [("n", None)], 3_000)


@pytest.mark.parametrize("value_type", ["binary", "large_binary", "string", "large_string", "binary_view",
                                        "string_view"])
def test_arrow_value_types(mock_cluster: Any, unique_topic: str, make_producer: Callable, read_back: Callable,
                           value_type: str) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    texts = ["", "short", "exactly-12by", "a value longer than twelve bytes", None]
    typ = getattr(pa, value_type)()
    values = pa.array([t if t is None or "string" in value_type else t.encode() for t in texts], type=typ)
    keys = pa.array([f"k{i}" for i in range(5)], type=typ)
    p = make_producer()
    assert p.produce_batch(unique_topic, values, keys=keys, partition=0) == 5
    assert p.flush(30) == 0
    got = read_back(unique_topic, 0, 5)
    assert [m.value() for m in got] == [None if t is None else t.encode() for t in texts]
    assert [m.key() for m in got] == [f"k{i}".encode() for i in range(5)]


def test_arrow_slices_nulls_partitions_and_timestamps(mock_cluster: Any, unique_topic: str,
                                                      make_producer: Callable, make_consumer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=3)
    values = pa.array([b"skip", b"v0", None, b"v2", b"v3", b"skip"]).slice(1, 4)  # an offset into the buffers
    partitions = pa.array([9, 0, 1, None, 2], type=pa.int64()).slice(1, 4)  # null: the partitioner picks
    stamps = pa.array([7, 5, 6, 7, 8], type=pa.timestamp("s")).slice(1, 4)
    p = make_producer()
    assert p.produce_batch(unique_topic, values, partition=partitions, timestamps=stamps) == 4
    assert p.flush(30) == 0
    c = make_consumer()
    c.assign([TopicPartition(unique_topic, part, OFFSET_BEGINNING) for part in range(3)])
    got = {m.value(): (m.partition(), m.timestamp()[1]) for m in read_messages(c, 4, 30, unique_topic)}
    assert got[b"v0"] == (0, 5_000)
    assert got[None] == (1, 6_000)
    assert got[b"v3"] == (2, 8_000)
    assert got[b"v2"][1] == 7_000  # the partitioner picked its partition


@pytest.mark.parametrize("unit,scale", [("s", 1000), ("ms", 1), ("us", 0.001), ("ns", 0.000001)])
def test_arrow_timestamp_units(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                               read_back: Callable, unit: str, scale: float) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    raw = {"s": 1_700_000_000, "ms": 1_700_000_000_123, "us": 1_700_000_000_123_456,
           "ns": 1_700_000_000_123_456_789}[unit]
    p = make_producer()
    assert p.produce_batch(unique_topic, [b"x"], timestamps=pa.array([raw], type=pa.timestamp(unit))) == 1
    assert p.flush(30) == 0
    assert read_back(unique_topic, 0, 1)[0].timestamp()[1] == int(raw * scale)


@pytest.mark.parametrize("as_map", [False, True])
def test_arrow_headers(mock_cluster: Any, unique_topic: str, make_producer: Callable, read_back: Callable,
                       as_map: bool) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    rows = [[("a", b"1"), ("b", None)], None, [], [("c", b"3")]]
    if as_map:
        headers = pa.array(rows, type=pa.map_(pa.string(), pa.binary()))
    else:
        headers = pa.array([None if r is None else [{"key": k, "value": v} for k, v in r] for r in rows],
                           type=pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())])))
    p = make_producer()
    assert p.produce_batch(unique_topic, [b"0", b"1", b"2", b"3"], headers=headers) == 4
    assert p.flush(30) == 0
    assert [m.headers() for m in read_back(unique_topic, 0, 4)] == [[("a", b"1"), ("b", None)], None, None,
                                                                     [("c", b"3")]]


def test_delivery_reports_carry_each_message(mock_cluster: Any, unique_topic: str, make_producer: Callable,
                                             reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr, default = reports(), reports()
    p = make_producer(on_delivery=default)
    values = [b"seq0", "seq1"]
    assert p.produce_batch(unique_topic, values, keys=[b"k0", None], on_delivery=dr) == 2
    assert p.produce_batch(unique_topic, pa.array([b"arrow0", None])) == 2  # the client's default callback
    assert p.flush(30) == 0
    assert dr.errors == [None, None]
    assert [(m.value(), m.key(), m.offset()) for m in dr.messages] == [(b"seq0", b"k0", 0), (b"seq1", None, 1)]
    assert dr.messages[0].value() is values[0]  # handed back, not copied
    assert [(m.value(), m.offset()) for m in default.messages] == [(b"arrow0", 2), (None, 3)]


def test_values_keyword_and_empty_batches(unique_topic: str, make_producer: Callable) -> None:
    p = make_producer()
    assert p.produce_batch(unique_topic, values=[b"a", b"b"]) == 2
    assert p.produce_batch(unique_topic, []) == 0
    assert p.produce_batch(unique_topic, pa.array([], type=pa.binary())) == 0
    assert p.produce_batch(unique_topic, (b"t",)) == 1
    assert p.flush(30) == 0


BAD_ARGUMENTS = [
    (dict(messages=[1]), TypeError, r"^Message at index 0 must be a dict \(or, in a sequence of values, str, bytes"),
    (dict(values=[b"a", 1]), TypeError, r"^values\[1\] must be str, bytes, a buffer or None, not int$"),
    (dict(messages=[b"a", b"b"], keys=[b"k"]), ValueError, "keys has 1 items but there are 2 messages"),
    (dict(messages=[b"a"], partition=[0, 1]), ValueError, "partition has 2 items"),
    (dict(messages=[b"a"], partition=[-2]), ValueError, r"partition\[0\]"),
    (dict(messages=[b"a"], partition=["0"]), TypeError, r"partition\[0\]"),
    (dict(messages=[b"a", b"b"], timestamps=[0, -5]), ValueError, r"timestamps\[1\]"),
    (dict(messages=[b"a"], headers=[[(None, b"x")]]), TypeError, r"headers\[0\]"),
    (dict(messages=[b"a"], headers=[5]), TypeError, r"headers\[0\]"),
    (dict(messages=["\udc80"]), ValueError, r"messages\[0\]: 'utf-8' codec"),
    (dict(values=["\udc80"]), ValueError, r"values\[0\]: 'utf-8' codec"),
    # Upstream's text first ("messages must be a list"), then the wider forms.
    (dict(messages=b"abc"), TypeError, r"^messages must be a list \(.*Arrow array of values\), not bytes$"),
    (dict(messages="abc"), TypeError, r"^messages must be a list \(.*\), not str$"),
    (dict(messages=5), TypeError, r"^messages must be a list \(.*\), not int$"),
    (dict(values="abc"), TypeError, r"^values must be a sequence \(one item per message\) or an Arrow array, not str$"),
    (dict(messages=[{"value": b"a"}], keys=[b"k"]), TypeError, "not with message dicts"),
    (dict(messages=[b"a"], values=[b"a"]), TypeError, "not both"),
    (dict(), TypeError, r"missing required argument 'messages' \(pos 2\)"),
    (dict(messages=None), TypeError, "messages must be a list"),
    (dict(values=None, keys=[b"k"]), TypeError, "values must be a sequence or an Arrow array, not None"),
    (dict(messages=[b"a"], on_delivery=5), TypeError, "must be callable"),
]


@pytest.mark.parametrize("kwargs,exc,match", BAD_ARGUMENTS)
def test_bad_arguments_enqueue_nothing(unique_topic: str, make_producer: Callable, kwargs: dict, exc: type,
                                       match: str) -> None:
    p = make_producer()
    with pytest.raises(exc, match=match):
        p.produce_batch(unique_topic, **kwargs)
    assert len(p) == 0


ARROW_BAD = [
    (lambda: dict(messages=pa.array([1, 2])), TypeError, "Arrow type 'l' is not supported"),
    (lambda: dict(messages=pa.chunked_array([[b"a"], [b"b"]])), TypeError, "chunked Arrow array"),
    (lambda: dict(messages=pa.array([b"a", b"a"]).dictionary_encode()), TypeError, "dictionary-encoded"),
    (lambda: dict(messages=[b"a"], partition=pa.array([0.5])), TypeError, "Arrow type 'g'"),
    (lambda: dict(messages=[b"a"], timestamps=pa.array([-1], type=pa.int64())), ValueError, "out of range"),
    (lambda: dict(messages=[b"a"], headers=pa.array([["x"]])), TypeError, "list items must be"),
    (lambda: dict(messages=[b"a"], headers=pa.array([[{"key": None, "value": b"v"}]],
                  type=pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())])))),
     ValueError, "header name is null"),
    (lambda: dict(messages=pa.record_batch({"v": [b"a"]})), TypeError, r"Arrow type '\+s'"),
]


@pytest.mark.parametrize("make_kwargs,exc,match", ARROW_BAD)
def test_bad_arrow_arguments_enqueue_nothing(unique_topic: str, make_producer: Callable,
                                             make_kwargs: Callable, exc: type, match: str) -> None:
    p = make_producer()
    with pytest.raises(exc, match=match):
        p.produce_batch(unique_topic, **make_kwargs())
    assert len(p) == 0


def test_too_many_positional_arguments(unique_topic: str, make_producer: Callable) -> None:
    with pytest.raises(TypeError, match=r"at most 5 arguments \(6 given\)"):
        make_producer().produce_batch(unique_topic, [b"a"], -1, None, None, [b"k"])


def test_full_queue_ends_the_batch_early_and_the_rest_follows(mock_cluster: Any, unique_topic: str,
                                                              make_producer: Callable, reports: Callable,
                                                              read_back: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer({"queue.buffering.max.messages": 10, "linger.ms": 1000}, on_delivery=dr)
    values = [b"%d" % i for i in range(25)]
    sent = p.produce_batch(unique_topic, values)
    assert sent == 10  # the queue holds ten
    with pytest.raises(BufferError):
        p.produce_batch(unique_topic, values[sent:])  # nothing fits: raises, as produce() would
    while sent < len(values):  # the documented loop: serve reports, go on from the count
        p.flush(30)
        sent += p.produce_batch(unique_topic, values[sent:])
    assert p.flush(30) == 0
    assert dr.errors == [None] * 25
    assert [m.value() for m in read_back(unique_topic, 0, 25)] == values


def test_refused_message_stops_the_batch_and_is_raised_next(mock_cluster: Any, unique_topic: str,
                                                            make_producer: Callable, reports: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer({"message.max.bytes": 2000}, on_delivery=dr)
    values = [b"ok", b"x" * 5000, b"after"]
    assert p.produce_batch(unique_topic, values) == 1
    with pytest.raises(KafkaException) as info:
        p.produce_batch(unique_topic, values[1:])
    assert info.value.args[0].code() == KafkaError.MSG_SIZE_TOO_LARGE
    assert p.produce_batch(unique_topic, values[2:]) == 1
    assert p.flush(30) == 0
    assert [m.value() for m in dr.messages] == [b"ok", b"after"]


def test_unknown_partition_is_refused(mock_cluster: Any, unique_topic: str, make_producer: Callable) -> None:
    mock_cluster.create_topic(unique_topic, partitions=1)
    p = make_producer()
    p.list_topics(unique_topic, timeout=10)  # the partition count is known
    with pytest.raises(KafkaException) as info:
        p.produce_batch(unique_topic, [b"a"], partition=5)
    assert info.value.args[0].code() == KafkaError._UNKNOWN_PARTITION


def test_errors_only_reports_carry_the_failed_messages(mock_cluster: Any, unique_topic: str,
                                                       make_producer: Callable, reports: Callable) -> None:
    """With delivery.report.only.error a batch keeps no per-message objects; a failed message's
    report still carries its value, key, headers and topic (copied back from librdkafka)."""
    mock_cluster.create_topic(unique_topic, partitions=1)
    dr = reports()
    p = make_producer({"delivery.report.only.error": True, "message.timeout.ms": 500})
    assert p.produce_batch(unique_topic, pa.array([b"ok0", b"ok1"]), on_delivery=dr) == 2
    assert p.flush(30) == 0
    assert len(dr) == 0  # successes are not reported
    p.list_topics(unique_topic, timeout=10)
    mock_cluster.broker_down(1)
    try:
        assert p.produce_batch(unique_topic, pa.array([b"x", None, b"z"]), keys=["k1", "k2", None],
                               headers=[[("h", b"1")], None, None], on_delivery=dr) == 3
        assert p.flush(30) == 0
    finally:
        mock_cluster.broker_up(1)
    assert [e.code() for e in dr.errors] == [KafkaError._MSG_TIMED_OUT] * 3
    assert [(m.value(), m.key(), m.headers(), m.topic()) for m in dr.messages] == [
        (b"x", b"k1", [("h", b"1")], unique_topic), (None, b"k2", None, unique_topic),
        (b"z", None, None, unique_topic)]
