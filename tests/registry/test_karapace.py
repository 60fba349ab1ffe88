"""The Schema Registry clients over real HTTP (Karapace), sync and async, and the Avro
serializing clients end to end on tansu."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Callable

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")

from confluent_kafka import DeserializingConsumer, SerializingProducer  # noqa: E402
from confluent_kafka.schema_registry import (  # noqa: E402
    AsyncSchemaRegistryClient,
    Schema,
    SchemaReference,
    SchemaRegistryClient,
    SchemaRegistryError,
    ServerConfig,
    ConfigCompatibilityLevel,
)
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.serialization import StringDeserializer, StringSerializer  # noqa: E402

pytestmark = pytest.mark.integration

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
USER_V2 = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
           '{"name":"age","type":"int"},{"name":"email","type":"string","default":"none"}]}')
BREAKING = '{"type":"record","name":"User","namespace":"ex","fields":[{"name":"id","type":"long"}]}'


class Caller:
    def __init__(self, client: Any, loop: Any) -> None:
        self.client, self.loop = client, loop

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return self.loop.run_until_complete(result) if asyncio.iscoroutine(result) else result

        return call


@pytest.fixture(params=["sync", "async"])
def sr(request: pytest.FixtureRequest, registry_url: str) -> Any:
    if request.param == "sync":
        client = SchemaRegistryClient({"url": registry_url})
        yield Caller(client, None)
        client.close()
        return
    loop = asyncio.new_event_loop()
    client = AsyncSchemaRegistryClient({"url": registry_url})
    yield Caller(client, loop)
    loop.run_until_complete(client.aclose())
    loop.close()


def subject() -> str:
    return f"s-{uuid.uuid4().hex[:10]}-value"


def test_register_lookup_and_versions(sr: Any) -> None:
    name = subject()
    first = sr.register_schema(name, Schema(USER))
    assert sr.register_schema(name, Schema(USER)) == first
    second = sr.register_schema_full_response(name, Schema(USER_V2))
    assert second.schema_id != first
    assert sr.get_versions(name) == [1, 2]
    assert name in sr.get_subjects()
    assert sr.lookup_schema(name, Schema(USER)).version == 1
    latest = sr.get_latest_version(name)
    assert (latest.version, latest.schema_id) == (2, second.schema_id)
    assert sr.get_version(name, 1).schema_id == first
    fetched = sr.get_schema(first)
    assert fetched.schema_type == "AVRO" and '"age"' in (fetched.schema_str or "")
    # Karapace has no GET /schemas/ids/{id}/subjects: its plain-text 404 decodes as an unknown error.
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_subjects_by_schema_id(first)
    assert (info.value.http_status_code, info.value.error_code) == (404, -1)
    # A registry gives one schema one id across subjects (the other client's test used it too).
    assert (name, 1) in [(v.subject, v.version) for v in sr.get_schema_versions(first)]
    assert "AVRO" in sr.get_schema_types()


def test_errors_carry_the_registry_codes(sr: Any) -> None:
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_versions(subject())
    assert (info.value.http_status_code, info.value.error_code) == (404, 40401)
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_schema(987654)
    assert info.value.http_status_code == 404 and info.value.error_code == 40403


def test_compatibility(sr: Any) -> None:
    name = subject()
    sr.register_schema(name, Schema(USER))
    assert sr.test_compatibility(name, Schema(USER_V2)) is True
    assert sr.test_compatibility(name, Schema(BREAKING)) is False
    # Karapace has no POST /compatibility/subjects/{s}/versions (all versions): plain 404.
    with pytest.raises(SchemaRegistryError) as info:
        sr.test_compatibility_all_versions(name, Schema(USER_V2))
    assert (info.value.http_status_code, info.value.error_code) == (404, -1)
    with pytest.raises(SchemaRegistryError) as info:
        sr.register_schema(name, Schema(BREAKING))
    assert info.value.http_status_code == 409
    sr.set_compatibility(name, "NONE")
    assert sr.get_compatibility(name) == "NONE"
    assert sr.register_schema(name, Schema(BREAKING)) > 0
    sr.set_config(name, ServerConfig(compatibility=ConfigCompatibilityLevel.FULL))
    assert sr.get_config(name).compatibility_level == ConfigCompatibilityLevel.FULL
    # Karapace answers the level in force afterwards, under "compatibility" (not the one removed).
    assert sr.delete_config(name).compatibility == ConfigCompatibilityLevel.BACKWARD


def test_references_and_deletes(sr: Any) -> None:
    base, box = subject(), subject()
    sr.register_schema(base, Schema(USER))
    box_schema = Schema('{"type":"record","name":"Box","namespace":"ex","fields":[{"name":"u","type":"ex.User"}]}',
                        references=[SchemaReference("ex.User", base, 1)])
    box_id = sr.register_schema(box, box_schema)
    assert sr.get_referenced_by(base, 1) == [box_id]
    assert sr.delete_subject(box) == [1]
    assert sr.delete_subject(box, permanent=True) == [1]
    sr.register_schema(base, Schema(USER_V2))
    assert sr.delete_version(base, 2) == 2
    assert sr.get_versions(base) == [1]


def test_modes(sr: Any) -> None:
    assert sr.get_global_mode() in ("READWRITE", "READONLY", "IMPORT")


def test_avro_end_to_end_on_tansu(registry_url: str, kafka_bootstrap: str, unique_topic: str,
                                  consumer_conf: Any) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    producer = SerializingProducer({
        "bootstrap.servers": kafka_bootstrap,
        "key.serializer": StringSerializer(),
        "value.serializer": AvroSerializer(client, USER, conf={"subject.name.strategy.type": "TOPIC"}),
    })
    for i in range(3):
        producer.produce(unique_topic, key=str(i), value={"name": f"u{i}", "age": i})
    assert producer.flush(30) == 0
    consumer = DeserializingConsumer(consumer_conf({
        "key.deserializer": StringDeserializer(),
        "value.deserializer": AvroDeserializer(client, USER_V2),
    }))
    consumer.subscribe([unique_topic])
    got = []
    try:
        for _ in range(60):
            msg = consumer.poll(1.0)
            if msg is None or msg.error():
                continue
            got.append((msg.key(), msg.value()))
            if len(got) == 3:
                break
    finally:
        consumer.close()
        client.close()
    assert sorted(got) == [(str(i), {"name": f"u{i}", "age": i, "email": "none"}) for i in range(3)]
