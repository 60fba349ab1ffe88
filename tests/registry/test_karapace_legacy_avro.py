"""The legacy confluent_kafka.avro API against Karapace: every CachedSchemaRegistryClient call,
and AvroProducer -> AvroConsumer through tansu, mixed with the new serializing clients both ways
(the same bytes on the topic)."""

from __future__ import annotations

import uuid
from typing import Any, Callable, List, Tuple

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")
pytest.importorskip("avro", reason="the avro extra is not installed")

from confluent_kafka import DeserializingConsumer, SerializingProducer  # noqa: E402
from confluent_kafka.avro import (  # noqa: E402
    AvroConsumer,
    AvroProducer,
    CachedSchemaRegistryClient,
    ClientError,
    loads,
)
from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.serialization import StringDeserializer, StringSerializer  # noqa: E402

pytestmark = [pytest.mark.integration, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

USER = ('{"type":"record","name":"User","namespace":"legacy","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"legacy","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')
BREAKING = '{"type":"record","name":"User","namespace":"legacy","fields":[{"name":"id","type":"long"}]}'
KEY = '"string"'


def poll_all(poll: Callable[[float], Any], count: int) -> List[Tuple[Any, Any]]:
    got: List[Tuple[Any, Any]] = []
    for _ in range(60):
        message = poll(1.0)
        if message is None or message.error():
            continue
        got.append((message.key(), message.value()))
        if len(got) == count:
            break
    return got


def test_registry_calls(registry_url: str) -> None:
    subject = f"legacy-{uuid.uuid4().hex[:8]}-value"
    client = CachedSchemaRegistryClient({"url": registry_url})
    user, v2 = loads(USER), loads(USER_V2)

    first = client.register(subject, user)
    assert client.register(subject, loads(USER)) == first  # answered from the cache
    assert client.check_registration(subject, user) == first
    fresh = CachedSchemaRegistryClient({"url": registry_url + "/"})
    assert fresh.check_registration(subject, loads(USER)) == first
    assert fresh.get_by_id(first) == user
    assert fresh.get_by_id(999999) is None
    assert fresh.get_version(subject, loads(USER)) == 1
    assert fresh.get_version(f"nope-{subject}", user) is None
    with pytest.raises(ClientError, match="Schema or subject not found:404"):
        fresh.check_registration(subject, v2)

    assert client.test_compatibility(subject, v2) is True
    assert client.test_compatibility(subject, loads(BREAKING)) is False
    assert client.test_compatibility(f"nope-{subject}", v2) is False
    second = client.register(subject, v2)
    assert second != first
    schema_id, latest, version = client.get_latest_schema(subject)
    assert (schema_id, latest, version) == (second, v2, 2)
    assert client.get_by_version(subject, 1) == (first, user, 1)
    assert client.get_by_version(subject, 7) == (None, None, None)
    assert client.get_by_version(f"nope-{subject}", 1) == (None, None, None)

    with pytest.raises(ClientError, match="^Incompatible Avro schema:409 message:"):
        client.register(subject, loads(BREAKING))
    assert client.update_compatibility("NONE", subject) == "NONE"
    assert client.get_compatibility(subject) == "NONE"
    assert client.get_compatibility() in ("NONE", "FULL", "FORWARD", "BACKWARD")
    assert client.register(subject, loads(BREAKING)) not in (first, second)
    with pytest.raises(ClientError, match="Invalid level specified: SIDEWAYS"):
        client.update_compatibility("SIDEWAYS", subject)

    assert client.delete_subject(subject) == [1, 2, 3]
    with pytest.raises(ClientError, match="^Unable to delete subject: "):
        client.delete_subject(subject)
    assert client.get_latest_schema(subject) == (None, None, None)
    client.close()
    fresh.close()


def test_avro_producer_to_avro_consumer(registry_url: str, kafka_bootstrap: str, unique_topic: str,
                                        consumer_conf: Any) -> None:
    producer = AvroProducer({"bootstrap.servers": kafka_bootstrap, "schema.registry.url": registry_url},
                            default_key_schema=loads(KEY), default_value_schema=loads(USER))
    for i in range(3):
        producer.produce(topic=unique_topic, key=f"k{i}", value={"name": f"u{i}", "age": i})
    producer.produce(topic=unique_topic, key="gone")
    assert producer.flush(30) == 0

    consumer = AvroConsumer(dict(consumer_conf(), **{"schema.registry.url": registry_url}),
                            reader_value_schema=loads(USER_V2))
    consumer.subscribe([unique_topic])
    try:
        got = poll_all(consumer.poll, 4)
    finally:
        consumer.close()
    assert sorted(got, key=lambda kv: kv[0]) == [("gone", None)] + [
        (f"k{i}", {"name": f"u{i}", "age": i, "email": "none"}) for i in range(3)]
    registry = SchemaRegistryClient({"url": registry_url})
    assert registry.get_latest_version(f"{unique_topic}-key").schema.schema_str.strip('"') == "string"
    registry.close()


def test_legacy_and_new_clients_share_a_topic(registry_url: str, kafka_bootstrap: str, unique_topic: str,
                                             consumer_conf: Any) -> None:
    registry = SchemaRegistryClient({"url": registry_url})
    legacy = AvroProducer({"bootstrap.servers": kafka_bootstrap, "schema.registry.url": registry_url},
                          default_value_schema=loads(USER))
    legacy.produce(topic=unique_topic, key=None, value={"name": "old", "age": 1})
    assert legacy.flush(30) == 0
    new = SerializingProducer({"bootstrap.servers": kafka_bootstrap, "key.serializer": StringSerializer(),
                               "value.serializer": AvroSerializer(registry, USER)})
    # No key: AvroConsumer decodes keys as Avro too.
    new.produce(unique_topic, value={"name": "new", "age": 2})
    assert new.flush(30) == 0

    reader = DeserializingConsumer(consumer_conf({"key.deserializer": StringDeserializer(),
                                                  "value.deserializer": AvroDeserializer(registry)}))
    reader.subscribe([unique_topic])
    try:
        by_new = poll_all(reader.poll, 2)
    finally:
        reader.close()
    assert sorted(v["name"] for _, v in by_new) == ["new", "old"]

    old_reader = AvroConsumer(consumer_conf({"group.id": f"legacy-{uuid.uuid4().hex}",
                                             "schema.registry.url": registry_url}))
    old_reader.subscribe([unique_topic])
    try:
        values = [v for _, v in poll_all(old_reader.poll, 2)]
    finally:
        old_reader.close()
    assert sorted(v["name"] for v in values) == ["new", "old"]
    registry.close()

