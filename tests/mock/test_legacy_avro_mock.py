"""The legacy AvroProducer -> AvroConsumer through the mock cluster, with a registry client whose
caches are filled in beforehand (so no HTTP): keys and values round-trip, a reader schema
applies, a message that does not decode raises SerializerError naming it, and the legacy frames
are the new AvroDeserializer's too."""

from __future__ import annotations

import time
import warnings
from typing import Any, Dict, List

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")
pytest.importorskip("avro", reason="the avro extra is not installed")

from confluent_kafka import OFFSET_BEGINNING, Message, TopicPartition  # noqa: E402
from confluent_kafka.avro import (  # noqa: E402
    AvroConsumer,
    AvroProducer,
    CachedSchemaRegistryClient,
    SerializerError,
    loads,
)

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')
KEY = '"string"'


def seeded(ids: Dict[int, str], subjects: Dict[str, int]) -> CachedSchemaRegistryClient:
    """A client for a registry that does not exist, whose caches already hold these schemas."""
    client = CachedSchemaRegistryClient({"url": "http://127.0.0.1:1"})
    for schema_id, text in ids.items():
        client.id_to_schema[schema_id] = loads(text)
    for subject, schema_id in subjects.items():
        client.subject_to_schema_ids[subject][client.id_to_schema[schema_id]] = schema_id
    return client


def read(consumer: AvroConsumer, topic: str, count: int) -> List[Any]:
    consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    got: List[Any] = []
    deadline = time.monotonic() + 30
    while len(got) < count and time.monotonic() < deadline:
        try:
            message = consumer.poll(0.5)
        except SerializerError as exc:
            got.append(exc)
            continue
        if message is not None and not message.error():
            got.append(message)
    return got


@pytest.fixture
def legacy(bootstrap: str) -> Any:
    made: List[Any] = []

    def make(kind: type, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            client = kind(*args, **kwargs)
        made.append(client)
        return client

    yield make
    for client in made:
        if isinstance(client, AvroConsumer):
            client.close()
        else:
            client.flush(10)


def test_round_trip_with_reader_schema(legacy: Any, bootstrap: str) -> None:
    registry = seeded({1: USER, 2: KEY}, {"people-value": 1, "people-key": 2})
    producer = legacy(AvroProducer, {"bootstrap.servers": bootstrap}, default_key_schema=loads(KEY),
                      default_value_schema=loads(USER), schema_registry=registry)
    producer.produce(topic="people", value={"name": "ann", "age": 30}, key="a", partition=0)
    producer.produce(topic="people", value={"name": "bo", "age": 4}, partition=0)
    producer.produce(topic="people", key="tombstone", partition=0)
    assert producer.flush(10) == 0

    conf = {"bootstrap.servers": bootstrap, "group.id": "legacy", "enable.auto.commit": False}
    consumer = legacy(AvroConsumer, conf, schema_registry=registry)
    got = read(consumer, "people", 3)
    assert [(m.key(), m.value()) for m in got] == [
        ("a", {"name": "ann", "age": 30}), (None, {"name": "bo", "age": 4}), ("tombstone", None)]

    evolved = legacy(AvroConsumer, dict(conf, **{"group.id": "legacy-v2"}), schema_registry=registry,
                     reader_value_schema=loads(USER_V2))
    assert [m.value() for m in read(evolved, "people", 2)] == [
        {"name": "ann", "age": 30, "email": "none"}, {"name": "bo", "age": 4, "email": "none"}]


def test_undecodable_message_names_it(legacy: Any, bootstrap: str, make_producer: Any) -> None:
    raw = make_producer()
    raw.produce("junk", b"\x01\x00\x00\x00\x01\x02", partition=0)
    raw.produce("junk", b"\x00\x00", partition=0)
    raw.flush(10)
    consumer = legacy(AvroConsumer, {"bootstrap.servers": bootstrap, "group.id": "junk"},
                      schema_registry=seeded({1: USER}, {}))
    first, second = read(consumer, "junk", 2)
    assert isinstance(first, SerializerError) and isinstance(second, SerializerError)
    assert str(first) == "Message deserialization failed for message at junk [0] offset 0: " \
                         "message does not start with magic byte"
    assert str(second).endswith("offset 1: message is too small to decode")


def test_consume_does_not_decode(legacy: Any, bootstrap: str) -> None:
    registry = seeded({1: USER}, {"raw-value": 1})
    producer = legacy(AvroProducer, {"bootstrap.servers": bootstrap}, default_value_schema=loads(USER),
                      schema_registry=registry)
    producer.produce(topic="raw", value={"name": "c", "age": 1}, partition=0)
    producer.flush(10)
    consumer = legacy(AvroConsumer, {"bootstrap.servers": bootstrap, "group.id": "raw"}, schema_registry=registry)
    consumer.assign([TopicPartition("raw", 0, OFFSET_BEGINNING)])
    messages: List[Message] = []
    deadline = time.monotonic() + 30
    while not messages and time.monotonic() < deadline:
        messages = [m for m in consumer.consume(1, 0.5) if not m.error()]
    assert messages[0].value() == b"\x00\x00\x00\x00\x01\x02c\x02"


def test_new_deserializer_reads_legacy_frames(legacy: Any, bootstrap: str, make_producer: Any) -> None:
    from confluent_kafka import DeserializingConsumer
    from confluent_kafka.schema_registry import Schema, SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer

    producer = legacy(AvroProducer, {"bootstrap.servers": bootstrap}, default_value_schema=loads(USER),
                      schema_registry=seeded({1: USER}, {"mixed-value": 1}))
    producer.produce(topic="mixed", value={"name": "dee", "age": 9}, partition=0)
    producer.flush(10)
    registry = SchemaRegistryClient.new_client({"url": "mock://legacy-mock-test"})
    assert registry.register_schema("mixed-value", Schema(USER, "AVRO")) == 1
    consumer = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "mixed",
                                      "value.deserializer": AvroDeserializer(registry)})
    try:
        consumer.assign([TopicPartition("mixed", 0, OFFSET_BEGINNING)])
        message = None
        deadline = time.monotonic() + 30
        while message is None and time.monotonic() < deadline:
            message = consumer.poll(0.5)
        assert message is not None and message.value() == {"name": "dee", "age": 9}
    finally:
        consumer.close()

