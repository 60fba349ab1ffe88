"""The JSON Schema and Protobuf serdes against a real registry (Karapace over HTTP): schemas and
their references registered and read back (Protobuf in the registry's ``serialized`` form), sync
and async, and SerializingProducer/DeserializingConsumer end to end on tansu for each format."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any, List

import pytest

pytest.importorskip("jsonschema", reason="the json extra is not installed")
pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")

from protobuf_types import types  # noqa: E402

from confluent_kafka import DeserializingConsumer, SerializingProducer  # noqa: E402
from confluent_kafka.schema_registry import (  # noqa: E402
    AsyncSchemaRegistryClient,
    Schema,
    SchemaRegistryClient,
)
from confluent_kafka.schema_registry.json_schema import (  # noqa: E402
    AsyncJSONDeserializer,
    AsyncJSONSerializer,
    JSONDeserializer,
    JSONSerializer,
)
from confluent_kafka.schema_registry.protobuf import (  # noqa: E402
    AsyncProtobufDeserializer,
    AsyncProtobufSerializer,
    ProtobufDeserializer,
    ProtobufSerializer,
)
from confluent_kafka.serialization import (  # noqa: E402
    MessageField,
    SerializationContext,
    SerializationError,
    StringDeserializer,
    StringSerializer,
)

pytestmark = pytest.mark.integration

USER = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]})
T = types()


def _topic() -> str:
    return f"t-{uuid.uuid4().hex[:10]}"


def _user(name: str = "ann", age: int = 3) -> Any:
    user = T["User"](name=name, age=age)
    user.address.city = "Oslo"
    user.born.seconds = 5
    return user


def test_json_schema_registered_validated_and_read(registry_url: str) -> None:
    # (Karapace refuses references for JSON schemas (422, 44302); they are tested on mock://.)
    client = SchemaRegistryClient({"url": registry_url})
    ctx = SerializationContext(_topic(), MessageField.VALUE)
    conf = {"subject.name.strategy.type": "TOPIC"}
    ser = JSONSerializer(USER, client, conf=conf)
    data = ser({"name": "ann", "age": 3}, ctx)
    registered = client.get_latest_version(ctx.topic + "-value")
    assert registered.schema.schema_type == "JSON" and data[1:5] == registered.schema_id.to_bytes(4, "big")
    assert data[5:] == b'{"name":"ann","age":3}'
    de = JSONDeserializer(None, schema_registry_client=client, conf=dict(conf, **{"use.latest.version": True}))
    assert de(data, ctx) == {"name": "ann", "age": 3}
    with pytest.raises(SerializationError, match=r"at \$\.age: 'x' is not of type 'integer'"):
        ser({"name": "a", "age": "x"}, ctx)
    lookup = JSONSerializer(USER, client, conf=dict(conf, **{"auto.register.schemas": False}))
    assert lookup({"name": "b"}, ctx)[:5] == data[:5]
    client.close()


def test_protobuf_file_and_imports_are_registered_and_read_back(registry_url: str) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    topic = _topic()
    ctx = SerializationContext(topic, MessageField.VALUE)
    strategy = {"subject.name.strategy.type": "TOPIC",
                "reference.subject.name.strategy": lambda c, dep: f"{topic}-{dep.name}"}
    data = ProtobufSerializer(T["User"], client, strategy)(_user(), ctx)
    registered = client.get_latest_version(topic + "-value")
    assert registered.schema.schema_type == "PROTOBUF"
    assert [(r.name, r.subject) for r in registered.schema.references] == [
        ("ex/common.proto", f"{topic}-ex/common.proto")]
    assert data[1:5] == registered.schema_id.to_bytes(4, "big") and data[5:7] == b"\x02\x02"
    assert "message User" in (client.get_schema(registered.schema_id).schema_str or "")  # Karapace keeps text
    de = ProtobufDeserializer(T["UserV2"], {"subject.name.strategy.type": "TOPIC"}, client)
    back = de(data, ctx)
    assert (back.name, back.age, back.address.city, back.born.seconds) == ("ann", 3, "Oslo", 5)
    nick = ProtobufSerializer(T["Nick"], client, strategy)(T["Nick"](nick="z"), ctx)
    assert nick[5:8] == b"\x04\x02\x00" and de.__class__(T["Nick"], None, client)(nick, ctx).nick == "z"
    client.close()


def test_protobuf_schema_registered_as_text_is_read(registry_url: str) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    subject = _topic() + "-value"
    text = 'syntax = "proto3";\npackage ex;\n\nmessage Other {\n  int32 x = 1;\n}\n'
    schema_id = client.register_schema(subject, Schema(text, "PROTOBUF"))
    data = b"\x00" + schema_id.to_bytes(4, "big") + b"\x00" + T["Other"](x=7).SerializeToString()
    assert ProtobufDeserializer(T["Other"], None, client)(data, SerializationContext("x", MessageField.VALUE)).x == 7
    client.close()


def test_async_serdes_on_a_real_registry(registry_url: str) -> None:
    async def run() -> List[Any]:
        client = AsyncSchemaRegistryClient({"url": registry_url})
        ctx = SerializationContext(_topic(), MessageField.VALUE)
        conf = {"subject.name.strategy.type": "TOPIC"}
        json_bytes = await (await AsyncJSONSerializer(USER, client, conf=conf))({"name": "a", "age": 1}, ctx)
        json_back = await (await AsyncJSONDeserializer(None, schema_registry_client=client, conf=conf))(json_bytes, ctx)
        pctx = SerializationContext(_topic(), MessageField.VALUE)
        pconf = dict(conf, **{"reference.subject.name.strategy": lambda c, dep: f"{pctx.topic}-{dep.name}"})
        proto_bytes = await (await AsyncProtobufSerializer(T["User"], client, pconf))(_user(), pctx)
        proto_back = await (await AsyncProtobufDeserializer(T["User"], conf, client))(proto_bytes, pctx)
        await client.aclose()
        return [json_back, proto_back]

    json_back, proto_back = asyncio.run(run())
    assert json_back == {"name": "a", "age": 1} and proto_back == _user()


def _consume(consumer_conf: Any, topic: str, deserializer: Any, count: int) -> List[Any]:
    consumer = DeserializingConsumer(consumer_conf({"key.deserializer": StringDeserializer(),
                                                    "value.deserializer": deserializer}))
    consumer.subscribe([topic])
    got: List[Any] = []
    try:
        for _ in range(60):
            msg = consumer.poll(1.0)
            if msg is None or msg.error():
                continue
            got.append((msg.key(), msg.value()))
            if len(got) == count:
                break
    finally:
        consumer.close()
    return got


def test_json_end_to_end_on_tansu(registry_url: str, kafka_bootstrap: str, unique_topic: str,
                                  consumer_conf: Any) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    conf = {"subject.name.strategy.type": "TOPIC"}
    producer = SerializingProducer({"bootstrap.servers": kafka_bootstrap, "key.serializer": StringSerializer(),
                                    "value.serializer": JSONSerializer(USER, client, conf=conf)})
    with pytest.raises(SerializationError):
        producer.produce(unique_topic, key="bad", value={"age": 1})  # no name: nothing is produced
    for i in range(3):
        producer.produce(unique_topic, key=str(i), value={"name": f"u{i}", "age": i})
    assert producer.flush(30) == 0
    got = _consume(consumer_conf, unique_topic,
                   JSONDeserializer(None, schema_registry_client=client, conf=conf), 3)
    client.close()
    assert sorted(got) == [(str(i), {"name": f"u{i}", "age": i}) for i in range(3)]


def test_protobuf_end_to_end_on_tansu(registry_url: str, kafka_bootstrap: str, unique_topic: str,
                                      consumer_conf: Any) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    conf = {"subject.name.strategy.type": "TOPIC",
            "reference.subject.name.strategy": lambda c, dep: f"{unique_topic}-{dep.name}"}
    producer = SerializingProducer({"bootstrap.servers": kafka_bootstrap, "key.serializer": StringSerializer(),
                                    "value.serializer": ProtobufSerializer(T["User"], client, conf)})
    with pytest.raises(SerializationError):
        producer.produce(unique_topic, key="bad", value=T["Other"](x=1))  # the wrong type: nothing is produced
    for i in range(3):
        producer.produce(unique_topic, key=str(i), value=_user(f"u{i}", i))
    assert producer.flush(30) == 0
    got = _consume(consumer_conf, unique_topic,
                   ProtobufDeserializer(T["User"], {"subject.name.strategy.type": "TOPIC"}, client), 3)
    client.close()
    assert sorted((k, v.name, v.age) for k, v in got) == [(str(i), f"u{i}", i) for i in range(3)]
