"""SerializingProducer -> DeserializingConsumer through the mock cluster: objects round-trip,
deserializer failures raise with the message attached, and no message is skipped or reordered
around a failure, whether read with poll(), consume() or iteration."""

from __future__ import annotations

import time
from typing import Any, Callable, List, Tuple, Union

import pytest

from confluent_kafka import (
    OFFSET_BEGINNING,
    DeserializingConsumer,
    KafkaError,
    Message,
    Producer,
    SerializingProducer,
    TopicPartition,
)
from confluent_kafka.error import ConsumeError, KeyDeserializationError, ValueDeserializationError
from confluent_kafka.serialization import (
    IntegerDeserializer,
    IntegerSerializer,
    JsonDeserializer,
    JsonSerializer,
    MessageField,
    SerializationContext,
    StringDeserializer,
    StringSerializer,
)

Outcome = Union[Message, ConsumeError]


def consumer_conf(bootstrap: str, **extra: Any) -> dict:
    return {"bootstrap.servers": bootstrap, "group.id": "serde", "enable.auto.commit": False,
            "auto.offset.reset": "earliest", **extra}


@pytest.fixture
def deserializing(bootstrap: str) -> Any:
    made: List[DeserializingConsumer] = []

    def make(topic: str, **extra: Any) -> DeserializingConsumer:
        c = DeserializingConsumer(consumer_conf(bootstrap, **extra))
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def produce_raw(make_producer: Callable[..., Producer], topic: str, values: List[bytes],
                key: bytes = b"\x00\x00\x00\x01") -> None:
    p = make_producer()
    for v in values:
        p.produce(topic, v, key, partition=0)
    assert p.flush(30) == 0


def read_outcomes(step: Callable[[], List[Outcome]], want: int, timeout: float = 30) -> List[Outcome]:
    """Call ``step`` until ``want`` messages and errors were seen; the sequence, in order."""
    seen: List[Outcome] = []
    deadline = time.monotonic() + timeout
    while len(seen) < want:
        assert time.monotonic() < deadline, f"saw only {seen!r}"
        try:
            seen.extend(step())
        except ConsumeError as e:
            seen.append(e)
    assert len(seen) == want, seen
    return seen


def summary(outcomes: List[Outcome]) -> List[Tuple[str, Any]]:
    out: List[Tuple[str, Any]] = []
    for o in outcomes:
        if isinstance(o, ConsumeError):
            assert o.kafka_message is not None
            out.append((type(o).__name__, o.kafka_message.offset()))
        else:
            out.append(("ok", o.value()))
    return out


JSON_WITH_POISON = [b'{"n":0}', b'{"n":1}', b"{broken", b'{"n":3}', b'{"n":4}']
EXPECTED = [("ok", {"n": 0}), ("ok", {"n": 1}), ("ValueDeserializationError", 2),
            ("ok", {"n": 3}), ("ok", {"n": 4})]


def test_objects_round_trip_with_context(mock_cluster: Any, make_producer: Callable[..., Producer],
                                         deserializing: Any, bootstrap: str) -> None:
    topic = "serde-roundtrip"
    mock_cluster.create_topic(topic, 1, 1)
    seen_ctx: List[Tuple[Any, ...]] = []

    def json_value(data: Any, ctx: SerializationContext) -> Any:
        seen_ctx.append((ctx.topic, ctx.field, ctx.headers))
        return JsonDeserializer()(data, ctx)

    p = SerializingProducer({"bootstrap.servers": bootstrap, "key.serializer": StringSerializer(),
                             "value.serializer": JsonSerializer()})
    try:
        for i in range(20):
            p.produce(topic, key=f"k{i}", value={"i": i, "tags": ["a", "é"]}, headers=[("n", str(i))],
                      timestamp=1_700_000_000_000 + i)
        p.produce(topic, key="tombstone", value=None)
        assert p.flush(30) == 0
    finally:
        p.close()

    c = deserializing(topic, **{"key.deserializer": StringDeserializer(), "value.deserializer": json_value})
    got = read_outcomes(lambda: [m for m in [c.poll(1.0)] if m is not None], 21)
    assert [(m.key(), m.value()) for m in got[:20]] == [(f"k{i}", {"i": i, "tags": ["a", "é"]}) for i in range(20)]
    assert (got[20].key(), got[20].value()) == ("tombstone", None)
    assert [m.timestamp()[1] for m in got[:3]] == [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002]
    assert seen_ctx[0] == (topic, MessageField.VALUE, [("n", b"0")])


def test_poll_raises_for_a_bad_value_and_carries_on(mock_cluster: Any, make_producer: Callable[..., Producer],
                                                     deserializing: Any) -> None:
    mock_cluster.create_topic("serde-poll", 1, 1)
    produce_raw(make_producer, "serde-poll", JSON_WITH_POISON)
    c = deserializing("serde-poll", **{"value.deserializer": JsonDeserializer()})
    got = read_outcomes(lambda: [m for m in [c.poll(1.0)] if m is not None], 5)
    assert summary(got) == EXPECTED
    err = got[2]
    assert isinstance(err, ValueDeserializationError) and err.code == KafkaError._VALUE_DESERIALIZATION
    assert err.kafka_message is not None and err.kafka_message.value() == b"{broken"


def test_consume_stops_a_batch_at_a_bad_value_without_losing_the_rest(
        mock_cluster: Any, make_producer: Callable[..., Producer], deserializing: Any) -> None:
    mock_cluster.create_topic("serde-consume", 1, 1)
    produce_raw(make_producer, "serde-consume", JSON_WITH_POISON)
    c = deserializing("serde-consume", **{"value.deserializer": JsonDeserializer()})
    batches: List[List[Any]] = []

    def step() -> List[Outcome]:
        # All five were produced before the consumer started, so the first call gets them as
        # one batch (it returns as soon as five are there).
        batch = c.consume(5, 10.0)
        batches.append([m.offset() for m in batch])
        return list(batch)

    got = read_outcomes(step, 5)
    assert summary(got) == EXPECTED
    # The batch stopped before the failure; the call after it raised; the rest came next.
    assert batches == [[0, 1], [3, 4]], batches


def test_pending_messages_are_served_before_new_ones(
        mock_cluster: Any, make_producer: Callable[..., Producer], deserializing: Any) -> None:
    """After consume() stopped at a failure, poll() and consume(1) hand out the held-back
    messages one by one, in order."""
    mock_cluster.create_topic("serde-mixed", 1, 1)
    produce_raw(make_producer, "serde-mixed", [b"1", b"x", b"2", b"3"])
    c = deserializing("serde-mixed", **{"value.deserializer": JsonDeserializer()})
    out: List[Any] = []
    deadline = time.monotonic() + 30
    calls = [lambda: c.consume(10, 1.0), lambda: [m for m in [c.poll(1.0)] if m], lambda: c.consume(1, 1.0)]
    i = 0
    while len(out) < 4:
        assert time.monotonic() < deadline, out
        try:
            out.extend(m.value() for m in calls[i % 3]())
        except ValueDeserializationError as e:
            out.append(("error", e.kafka_message.offset() if e.kafka_message else None))
        i += 1
    assert out == [1, ("error", 1), 2, 3]
    assert c.consume(0, 0) == []  # as Consumer.consume(0)
    with pytest.raises(ValueError):
        c.consume(-1, 0)


def test_iteration_deserializes_and_survives_a_bad_value(
        mock_cluster: Any, make_producer: Callable[..., Producer], deserializing: Any) -> None:
    mock_cluster.create_topic("serde-iter", 1, 1)
    produce_raw(make_producer, "serde-iter", JSON_WITH_POISON)
    c = deserializing("serde-iter", consumer_timeout_ms=3000, **{"value.deserializer": JsonDeserializer()})
    got: List[Outcome] = []
    it = iter(c)
    assert it is c
    while True:
        try:
            got.append(next(it))
        except ConsumeError as e:
            got.append(e)
        except StopIteration:
            break
    assert summary(got) == EXPECTED


def test_bad_key_raises_key_deserialization_error(mock_cluster: Any, make_producer: Callable[..., Producer],
                                                  deserializing: Any) -> None:
    mock_cluster.create_topic("serde-key", 1, 1)
    p = make_producer()
    p.produce("serde-key", b"v", b"\x00\x00\x00\x2a", partition=0)
    p.produce("serde-key", b"v", b"short", partition=0)
    assert p.flush(30) == 0
    c = deserializing("serde-key", **{"key.deserializer": IntegerDeserializer()})
    got = read_outcomes(lambda: [m for m in [c.poll(1.0)] if m is not None], 2)
    assert isinstance(got[0], Message) and got[0].key() == 42 and got[0].value() == b"v"
    assert isinstance(got[1], KeyDeserializationError) and got[1].code == KafkaError._KEY_DESERIALIZATION
    assert "4 bytes" in str(got[1].exception)


def test_error_events_raise_consume_error(mock_cluster: Any, make_producer: Callable[..., Producer],
                                          deserializing: Any) -> None:
    mock_cluster.create_topic("serde-eof", 1, 1)
    produce_raw(make_producer, "serde-eof", [b"1"])
    c = deserializing("serde-eof", **{"enable.partition.eof": True, "value.deserializer": JsonDeserializer()})
    got = read_outcomes(lambda: [m for m in [c.poll(1.0)] if m is not None], 2)
    assert isinstance(got[0], Message) and got[0].value() == 1
    assert type(got[1]) is ConsumeError and got[1].code == KafkaError._PARTITION_EOF
    assert got[1].kafka_message is not None and got[1].kafka_message.error() is not None


def test_group_subscription_hands_itself_to_rebalance_callbacks(
        mock_cluster: Any, make_producer: Callable[..., Producer], bootstrap: str) -> None:
    mock_cluster.create_topic("serde-group", 2, 1)
    p = SerializingProducer({"bootstrap.servers": bootstrap, "value.serializer": IntegerSerializer()})
    for i in range(10):
        p.produce("serde-group", value=i, partition=i % 2)
    assert p.flush(30) == 0
    p.close()
    assigned: List[Any] = []
    c = DeserializingConsumer(consumer_conf(bootstrap, **{"group.id": "serde-g",
                                                          "value.deserializer": IntegerDeserializer()}))
    try:
        c.subscribe(["serde-group"], on_assign=lambda consumer, parts: assigned.append(consumer))
        values = [m.value() for m in read_outcomes(lambda: c.consume(10, 1.0), 10) if isinstance(m, Message)]
        assert sorted(values) == list(range(10))
        assert assigned and assigned[0] is c
    finally:
        c.close()
