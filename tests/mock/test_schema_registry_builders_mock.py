"""The Schema Registry serde builders end to end on the mock cluster with a mock:// registry:
SerializingProducer / DeserializingConsumer (and the asyncio clients) configured only with
``*.serializer.builder`` keys build, use, own and close their serdes, and hand the associated
subject name strategy the cluster's id."""

from __future__ import annotations

import time
from typing import Any, Dict, List

import pytest

from aio_support import run
from confluent_kafka import OFFSET_BEGINNING, DeserializingConsumer, SerializingProducer, TopicPartition
from confluent_kafka.aio import AsyncDeserializingConsumer, AsyncSerializingProducer
from confluent_kafka.schema_registry import Association, AsyncSchemaRegistryClient, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import (AsyncAvroDeserializerBuilder, AsyncAvroSerializerBuilder,
                                                  AvroDeserializerBuilder, AvroSerializerBuilder)
from confluent_kafka.schema_registry.json_schema import (AsyncJSONDeserializerBuilder, AsyncJSONSerializerBuilder,
                                                         JSONDeserializerBuilder, JSONSerializerBuilder)
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializerBuilder, ProtobufSerializerBuilder
from confluent_kafka.serialization import StringDeserializer, StringSerializer

pytestmark = pytest.mark.mock

USER = ('{"type":"record","name":"User","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
JUSER = '{"title":"User","type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}'


def _proto_user() -> Any:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    f = descriptor_pb2.FileDescriptorProto(name="mockb/user.proto", package="mockb", syntax="proto3")
    user = f.message_type.add(name="User")
    user.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    user.field.add(name="age", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(f.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("mockb.User"))


def _consume(c: Any, topic: str, n: int) -> List[Any]:
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    got: List[Any] = []
    end = time.monotonic() + 30
    while len(got) < n and time.monotonic() < end:
        msg = c.poll(0.5)
        if msg is not None:
            assert msg.error() is None, msg.error()
            got.append(msg)
    return got


@pytest.mark.parametrize("fmt", ["avro", "json", "protobuf"])
def test_each_format_round_trips_through_builders(mock_cluster: Any, fmt: str) -> None:
    bootstrap = str(mock_cluster.bootstrap_servers)
    registry = SchemaRegistryClient.new_client({"url": "mock://builders-" + fmt})
    user = _proto_user()
    ser, de, records = {
        "avro": (AvroSerializerBuilder(schema_registry_client=registry, schema=USER),
                 AvroDeserializerBuilder().set_schema_registry_client(registry),
                 [{"name": "ann", "age": 3}, {"name": "bob", "age": 4}]),
        "json": (JSONSerializerBuilder().set_schema_registry_client(registry).set_schema(JUSER),
                 JSONDeserializerBuilder(schema_registry_client=registry, schema=JUSER), [{"name": "cy", "age": 5}]),
        "protobuf": (ProtobufSerializerBuilder(schema_registry_client=registry).set_message_type(user),
                     ProtobufDeserializerBuilder(schema_registry_client=registry, message_type=user),
                     [user(name="di", age=6)]),
    }[fmt]
    topic = "builders-" + fmt
    producer = SerializingProducer({"bootstrap.servers": bootstrap, "key.serializer": StringSerializer(),
                                    "value.serializer.builder": ser})
    for i, record in enumerate(records):
        producer.produce(topic, key=str(i), value=record, partition=0)
    assert producer.flush(10) == 0
    producer.close()
    consumer = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "b-" + fmt,
                                      "key.deserializer": StringDeserializer(), "value.deserializer.builder": de})
    try:
        got = _consume(consumer, topic, len(records))
    finally:
        consumer.close()
    assert [m.key() for m in got] == [str(i) for i in range(len(records))]
    assert [m.value() for m in got] == records
    assert registry.get_subjects() == [topic + "-value"]


def test_the_client_owns_what_its_builders_made(mock_cluster: Any) -> None:
    bootstrap = str(mock_cluster.bootstrap_servers)
    made: List[Any] = []
    builder = AvroSerializerBuilder(schema_registry_config={"url": "mock://owned"}, schema=USER,
                                    serializer_init=made.append)
    producer = SerializingProducer({"bootstrap.servers": bootstrap, "value.serializer.builder": builder})
    (serializer,) = made
    closed: List[str] = []
    registry = serializer._registry
    original_close = registry.close
    registry.close = lambda: (closed.append("registry"), original_close())  # type: ignore[method-assign]
    producer.produce("owned", value={"name": "a", "age": 1}, partition=0)
    assert producer.flush(10) == 0
    assert closed == []
    producer.close()
    assert closed == ["registry"]  # the serializer owned the client it made, the producer the serializer


def test_the_associated_strategy_gets_the_cluster_id(mock_cluster: Any) -> None:
    bootstrap = str(mock_cluster.bootstrap_servers)
    registry = SchemaRegistryClient.new_client({"url": "mock://associated"})
    seen: List[Dict[str, Any]] = []
    original = registry.get_associations_by_resource_name

    def recording(*args: Any, **kwargs: Any) -> List[Association]:
        seen.append(kwargs)
        return original(*args, **kwargs)

    registry.get_associations_by_resource_name = recording  # type: ignore[method-assign]
    producer = SerializingProducer({"bootstrap.servers": bootstrap, "value.serializer.builder":
                                    AvroSerializerBuilder(schema_registry_client=registry, schema=USER)})
    producer.produce("assoc", value={"name": "a", "age": 1}, partition=0)
    assert producer.flush(10) == 0
    cluster_id = producer.cluster_id(timeout=10)
    producer.close()
    assert [call["resource_namespace"] for call in seen] == [cluster_id]
    assert cluster_id


def test_async_builders_round_trip(mock_cluster: Any) -> None:
    bootstrap = str(mock_cluster.bootstrap_servers)

    async def main() -> List[Any]:
        registry = AsyncSchemaRegistryClient.new_client({"url": "mock://abuilders"})
        namespaces: List[str] = []
        original = registry.get_associations_by_resource_name

        async def recording(*args: Any, **kwargs: Any) -> Any:
            namespaces.append(kwargs["resource_namespace"])
            return await original(*args, **kwargs)

        registry.get_associations_by_resource_name = recording  # type: ignore[method-assign]
        out = []
        for topic, ser, de, record in [
            ("a-avro", AsyncAvroSerializerBuilder(schema_registry_client=registry, schema=USER),
             AsyncAvroDeserializerBuilder(schema_registry_client=registry), {"name": "x", "age": 1}),
            ("a-json", AsyncJSONSerializerBuilder(schema_registry_client=registry, schema=JUSER),
             AsyncJSONDeserializerBuilder(schema_registry_client=registry), {"name": "y", "age": 2}),
        ]:
            producer = await AsyncSerializingProducer({"bootstrap.servers": bootstrap,
                                                       "value.serializer.builder": ser})
            delivered = await (await producer.produce(topic, value=record, partition=0))
            cluster_id = await producer.cluster_id(timeout=10)
            await producer.close()
            consumer = await AsyncDeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g-" + topic,
                                                         "value.deserializer.builder": de})
            await consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
            got = None
            end = time.monotonic() + 30
            while got is None and time.monotonic() < end:
                got = await consumer.poll(0.5)
            await consumer.close()
            assert got is not None
            out.append((delivered.value()[:1], got.value()))
        assert namespaces and set(namespaces) == {cluster_id}
        return out

    assert run(main) == [(b"\x00", {"name": "x", "age": 1}), (b"\x00", {"name": "y", "age": 2})]
