"""SerializingProducer and DeserializingConsumer without a broker: configuration, serializer
failures, what ends up in the queue, and the context a serializer sees (the consuming side
runs against the mock cluster in tests/mock)."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator, List, Optional, Tuple

import pytest

from confluent_kafka import (
    Consumer,
    DeserializingConsumer,
    KafkaError,
    Message,
    Producer,
    SerializingProducer,
)
from confluent_kafka.error import KeySerializationError, ValueSerializationError
from confluent_kafka.serialization import (
    IntegerSerializer,
    MessageField,
    SerializationContext,
    StringSerializer,
)

NOWHERE = "127.0.0.1:1"  # nothing listens there: messages stay queued until purged


class Queued:
    """A SerializingProducer on NOWHERE with its delivery reports collected."""

    def __init__(self, **conf: Any) -> None:
        self.reports: List[Tuple[Optional[KafkaError], Message]] = []
        self.p = SerializingProducer({"bootstrap.servers": NOWHERE, "on_delivery": self._report, **conf})

    def _report(self, err: Optional[KafkaError], msg: Message) -> None:
        self.reports.append((err, msg))

    def drain(self) -> List[Message]:
        """Purge the queue and return the messages that were in it, in order."""
        before = len(self.reports)
        self.p.purge(in_queue=True, in_flight=True)
        deadline = time.monotonic() + 10
        while self.p.poll(0.1) or (len(self.p) and time.monotonic() < deadline):
            pass
        out = self.reports[before:]
        assert all(e is not None and e.code() == KafkaError._PURGE_QUEUE for e, _ in out), out
        return [m for _, m in out]


@pytest.fixture
def queued() -> Iterator[Callable[..., Queued]]:
    made: List[Queued] = []

    def make(**conf: Any) -> Queued:
        q = Queued(**conf)
        made.append(q)
        return q

    yield make
    for q in made:
        q.p.purge()
        q.p.close()


def test_is_a_producer_and_a_consumer() -> None:
    assert issubclass(SerializingProducer, Producer)
    assert issubclass(DeserializingConsumer, Consumer)


def test_serialized_bytes_are_what_is_enqueued(queued: Callable[..., Queued]) -> None:
    q = queued(**{"key.serializer": IntegerSerializer(), "value.serializer": StringSerializer()})
    q.p.produce("t", key=5, value="héllo", headers=[("h", b"1")])
    q.p.produce("t", key=None, value=None)
    msgs = q.drain()
    assert [(m.key(), m.value()) for m in msgs] == [(b"\x00\x00\x00\x05", "héllo".encode()), (None, None)]
    assert msgs[0].headers() == [("h", b"1")]


def test_non_callable_serializer_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="value.serializer must be callable"):
        SerializingProducer({"bootstrap.servers": NOWHERE, "value.serializer": "utf8"})
    with pytest.raises(TypeError, match="key.deserializer must be callable"):
        DeserializingConsumer({"group.id": "g", "key.deserializer": 42})
    with pytest.raises(TypeError, match="conf must be a dict"):
        SerializingProducer(["bootstrap.servers"])  # type: ignore[arg-type]


def test_unknown_config_still_fails_like_a_producer() -> None:
    with pytest.raises(Exception, match="no.such.key"):
        SerializingProducer({"no.such.key": 1, "value.serializer": StringSerializer()})


def test_kwargs_config_form() -> None:
    p = SerializingProducer(**{"bootstrap.servers": NOWHERE, "key.serializer": IntegerSerializer()})
    try:
        p.produce("t", key=7)
        with pytest.raises(KeySerializationError):
            p.produce("t", key="7")
    finally:
        p.purge()
        p.close()


def test_failing_serializers_raise_and_enqueue_nothing(queued: Callable[..., Queued]) -> None:
    q = queued(**{"key.serializer": IntegerSerializer(), "value.serializer": StringSerializer()})
    with pytest.raises(KeySerializationError) as ki:
        q.p.produce("t", key="not an int", value="v")
    assert ki.value.code == KafkaError._KEY_SERIALIZATION
    assert "IntegerSerializer" in str(ki.value.exception)
    with pytest.raises(ValueSerializationError) as vi:
        q.p.produce("t", key=1, value=b"not a str")
    assert vi.value.code == KafkaError._VALUE_SERIALIZATION
    assert isinstance(vi.value.__cause__, Exception)
    q.p.produce("t", key=2, value="ok")
    assert [m.value() for m in q.drain()] == [b"ok"]


def test_an_exception_of_any_kind_from_a_serializer_is_wrapped(queued: Callable[..., Queued]) -> None:
    def broken(obj: Any, ctx: SerializationContext) -> bytes:
        raise RuntimeError("boom")

    q = queued(**{"value.serializer": broken})
    with pytest.raises(ValueSerializationError, match="boom") as ei:
        q.p.produce("t", value=1)
    assert isinstance(ei.value.exception, RuntimeError)


def test_serializer_sees_topic_field_and_headers(queued: Callable[..., Queued]) -> None:
    seen: List[SerializationContext] = []

    def record(obj: Any, ctx: SerializationContext) -> bytes:
        seen.append(ctx)
        return str(obj).encode()

    q = queued(**{"key.serializer": record, "value.serializer": record})
    q.p.produce("orders", key=1, value=2, headers=[("trace", b"abc")])
    assert [(c.topic, c.field, c.headers) for c in seen] == [
        ("orders", MessageField.KEY, [("trace", b"abc")]),
        ("orders", MessageField.VALUE, [("trace", b"abc")]),
    ]
    assert [(m.key(), m.value()) for m in q.drain()] == [(b"1", b"2")]


def test_without_serializers_it_produces_like_a_producer(queued: Callable[..., Queued]) -> None:
    q = queued()
    q.p.produce("t", key=b"k", value="text")
    with pytest.raises(TypeError):
        q.p.produce("t", value=3.5)  # no serializer: the value must be str or bytes
    assert [(m.key(), m.value()) for m in q.drain()] == [(b"k", b"text")]


def test_produce_arguments_by_keyword(queued: Callable[..., Queued]) -> None:
    q = queued(**{"value.serializer": StringSerializer()})
    per_message: List[Message] = []
    q.p.produce(topic="t", key=b"k", value="v", partition=0, on_delivery=lambda e, m: per_message.append(m),
                timestamp=1_700_000_000_000, headers={"h": "x"})
    q.p.purge()
    deadline = time.monotonic() + 10
    while not per_message and time.monotonic() < deadline:
        q.p.poll(0.1)
    (m,) = per_message
    assert (m.key(), m.value(), m.partition(), m.headers()) == (b"k", b"v", 0, [("h", b"x")])
