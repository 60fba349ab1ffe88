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
    KafkaException,
    Message,
    Producer,
    SerializingProducer,
)
from confluent_kafka.error import KeySerializationError, ValueSerializationError
from confluent_kafka.serialization import (
    DeserializerBuilder,
    IntegerDeserializer,
    IntegerSerializer,
    MessageField,
    SerializationContext,
    Serializer,
    SerializerBuilder,
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


def test_non_callable_serializer_fails_when_used(queued: Callable[..., Queued]) -> None:
    q = queued(**{"value.serializer": "utf8"})
    with pytest.raises(ValueSerializationError, match="'str' object is not callable"):
        q.p.produce("t", value="x")
    with pytest.raises(TypeError, match="conf must be a dict"):
        SerializingProducer(["bootstrap.servers"])  # type: ignore[arg-type]


def test_conf_by_keyword() -> None:
    p = SerializingProducer(conf={"bootstrap.servers": NOWHERE, "key.serializer": IntegerSerializer()})
    try:
        with pytest.raises(KeySerializationError):
            p.produce("t", key="7")
    finally:
        p.close()
    DeserializingConsumer(conf={"group.id": "g", "value.deserializer": IntegerDeserializer()}).close()


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
    assert str(ki.value.exception) == "required argument is not an integer"
    assert ki.value.args[0].str() == "required argument is not an integer"
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

    fields: List[MessageField] = []

    def record_field(obj: Any, ctx: SerializationContext) -> bytes:
        fields.append(ctx.field)
        return record(obj, ctx)

    q = queued(**{"key.serializer": record_field, "value.serializer": record_field})
    q.p.produce("orders", key=1, value=2, headers=[("trace", b"abc")])
    # One context for both, as upstream: its field is KEY for the key, then VALUE.
    assert fields == [MessageField.KEY, MessageField.VALUE]
    assert seen[0] is seen[1]
    assert (seen[0].topic, seen[0].headers) == ("orders", [("trace", b"abc")])
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


def test_closed_producer_and_bad_topic_fail_before_the_serializers_run() -> None:
    calls: List[Any] = []

    def record(obj: Any, ctx: SerializationContext) -> bytes:
        calls.append(obj)
        return b"x"

    p = SerializingProducer({"bootstrap.servers": NOWHERE, "value.serializer": record})
    with pytest.raises(TypeError, match="topic must be a str, not int"):
        p.produce(5, value=1)  # type: ignore[arg-type]
    p.close()
    with pytest.raises(RuntimeError, match="Producer has been closed"):
        p.produce("t", value=1)
    assert calls == []


class Recorder(Serializer):
    def __init__(self, log: List[str], name: str) -> None:
        self.log, self.name = log, name

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        return str(obj).encode()

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        self.log.append(f"{self.name}: resolver")
        self.resolver = resolver

    def close(self) -> None:
        self.log.append(f"{self.name}: close")


class Builder(SerializerBuilder, DeserializerBuilder):
    """Builds a Recorder and takes ``custom.<name>`` out of the configuration."""

    def __init__(self, log: List[str], name: str) -> None:
        self.log, self.name = log, name

    def build(self, conf: Any, is_key: bool) -> Any:
        self.log.append(f"{self.name}: build is_key={is_key} custom={conf.get('custom.' + self.name)}")
        return Recorder(self.log, self.name), {k: v for k, v in conf.items() if k != "custom." + self.name}


def test_builders_build_take_their_settings_and_are_closed_with_the_client() -> None:
    log: List[str] = []
    ready = Recorder(log, "ready")
    p = SerializingProducer({"bootstrap.servers": NOWHERE, "key.serializer.builder": Builder(log, "k"),
                             "value.serializer": ready, "custom.k": 1})
    p.produce("t", key=1, value=2)
    p.purge()
    assert p.close() is True
    p.close()
    # custom.k never reached librdkafka (it would have refused it); only the built one is closed.
    assert log == ["k: build is_key=True custom=1", "k: resolver", "ready: resolver", "k: close"]


def test_a_setting_any_builder_consumes_is_kept_from_the_client() -> None:
    log: List[str] = []
    c = DeserializingConsumer({"group.id": "g", "key.deserializer.builder": Builder(log, "k"),
                               "value.deserializer.builder": Builder(log, "v"), "custom.k": 1, "custom.v": 2})
    with c:
        pass
    assert log == ["k: build is_key=True custom=1", "v: build is_key=False custom=2", "k: resolver",
                   "v: resolver", "k: close", "v: close"]


def test_serde_and_builder_together_are_refused() -> None:
    with pytest.raises(ValueError, match="Cannot configure both value.serializer and value.serializer.builder"):
        SerializingProducer({"value.serializer": StringSerializer(), "value.serializer.builder": Builder([], "v")})


@pytest.mark.parametrize("result, text", [
    (None, "value.serializer.builder must return a (serde, configuration) tuple from build(), got NoneType"),
    ((StringSerializer(), []), "value.serializer.builder returned list as the leftover configuration"),
])
def test_a_builder_returning_something_else_is_refused(result: Any, text: str) -> None:
    class Odd(SerializerBuilder):
        def build(self, conf: Any, is_key: bool) -> Any:
            return result

    with pytest.raises(ValueError) as ei:
        SerializingProducer({"value.serializer.builder": Odd()})
    assert str(ei.value).startswith(text)


def test_what_was_built_is_closed_when_construction_fails() -> None:
    log: List[str] = []

    class Failing(SerializerBuilder):
        def build(self, conf: Any, is_key: bool) -> Any:
            raise RuntimeError("no registry")

    with pytest.raises(RuntimeError, match="no registry"):
        SerializingProducer({"key.serializer.builder": Builder(log, "k"), "value.serializer.builder": Failing()})
    with pytest.raises(Exception, match="no.such.key"):
        SerializingProducer({"no.such.key": 1, "key.serializer.builder": Builder(log, "k2")})
    assert log == ["k: build is_key=True custom=None", "k: close", "k2: build is_key=True custom=None", "k2: close"]


def test_cluster_id_unreachable_times_out() -> None:
    p = SerializingProducer({"bootstrap.servers": NOWHERE})
    try:
        start = time.monotonic()
        with pytest.raises(KafkaException) as ei:
            p.cluster_id(0.2)
        assert ei.value.args[0].code() == KafkaError._TIMED_OUT
        assert time.monotonic() - start < 10
    finally:
        p.close()


def test_classes_are_generic() -> None:
    assert SerializingProducer[str, int].__origin__ is SerializingProducer  # type: ignore[attr-defined]
    assert DeserializingConsumer[str, bytes].__origin__ is DeserializingConsumer  # type: ignore[attr-defined]
