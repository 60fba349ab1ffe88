"""The serde builders on their own: settings from the constructor or chained setters reach the
serde, build() hands the configuration back, a client made from a configuration belongs to the
serde, and what is refused."""

from __future__ import annotations

import asyncio
from typing import Any, List

import pytest

from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import (AsyncAvroSerializerBuilder, AvroDeserializer,
                                                  AvroDeserializerBuilder, AvroSerializer, AvroSerializerBuilder)
from confluent_kafka.schema_registry.json_schema import JSONSerializer, JSONSerializerBuilder
from confluent_kafka.schema_registry.protobuf import (AsyncProtobufDeserializerBuilder, ProtobufDeserializerBuilder,
                                                      ProtobufSerializerBuilder)
from confluent_kafka.serialization import MessageField, SerializationContext, SerializerBuilder

USER = '{"type":"record","name":"U","fields":[{"name":"n","type":"string"}]}'
CTX = SerializationContext("t", MessageField.VALUE)


def test_settings_reach_the_serde_and_the_conf_comes_back() -> None:
    sr = SchemaRegistryClient.new_client({"url": "mock://b-unit"})
    inits: List[Any] = []
    builder = (AvroSerializerBuilder().set_schema_registry_client(sr).set_schema(USER)
               .set_to_dict(lambda obj, ctx: {"n": obj}).set_serializer_config({"subject.name.strategy.type": "TOPIC"})
               .set_serializer_init(inits.append))
    assert isinstance(builder, SerializerBuilder)
    conf = {"bootstrap.servers": "x"}
    ser, left = builder.build(conf, False)
    assert isinstance(ser, AvroSerializer) and inits == [ser]
    assert left == conf and left is not conf
    assert ser("x", CTX) == b"\x00\x00\x00\x00\x01\x02x"
    de, _ = AvroDeserializerBuilder(schema_registry_client=sr, from_dict=lambda d, ctx: d["n"]).build({}, False)
    assert isinstance(de, AvroDeserializer) and de(ser("y", CTX), CTX) == "y"
    js, _ = JSONSerializerBuilder(None, sr, '{"type":"string"}', json_encode=lambda v: '"always"').build({}, True)
    assert isinstance(js, JSONSerializer) and js("x", SerializationContext("t", MessageField.KEY)).endswith(b'"always"')


def test_a_client_made_from_a_configuration_is_closed_with_the_serde() -> None:
    ser, _ = AvroSerializerBuilder(schema_registry_config={"url": "mock://b-owned"}, schema=USER).build({}, False)
    closed: List[str] = []
    ser._registry.close = lambda: closed.append("closed")  # type: ignore[method-assign]
    ser.close()
    ser.close()
    assert closed == ["closed"]  # once


def test_refusals() -> None:
    sr = SchemaRegistryClient.new_client({"url": "mock://b-refuse"})
    with pytest.raises(ValueError, match="Cannot specify both a Schema Registry client and a configuration"):
        AvroSerializerBuilder({"url": "mock://other"}, sr, USER).build({}, False)
    with pytest.raises(ValueError, match="Protobuf serializer requires a message type; call set_message_type"):
        ProtobufSerializerBuilder(schema_registry_client=sr).build({}, False)
    with pytest.raises(ValueError, match="Protobuf deserializer requires a message type"):
        ProtobufDeserializerBuilder().build({}, False)
    closed: List[Any] = []

    def boom(serde: Any) -> None:
        serde.close = lambda: closed.append(serde)
        raise RuntimeError("init")

    with pytest.raises(RuntimeError, match="init"):
        AvroSerializerBuilder(None, sr, USER, serializer_init=boom).build({}, False)
    assert len(closed) == 1


def test_async_builders_return_coroutines() -> None:
    async def main() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://b-async"})
        pending = AsyncAvroSerializerBuilder(schema_registry_client=sr, schema=USER).build({"a": 1}, False)
        assert asyncio.iscoroutine(pending)
        ser, left = await pending
        assert left == {"a": 1}
        with pytest.raises(ValueError, match="requires a message type"):
            await AsyncProtobufDeserializerBuilder(schema_registry_client=sr).build({}, False)
        return await ser({"n": "z"}, CTX)

    assert asyncio.run(main()) == b"\x00\x00\x00\x00\x01\x02z"
