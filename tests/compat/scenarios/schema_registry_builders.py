"""The Schema Registry serde builders (Avro, JSON, Protobuf; sync and async): their settings and
build(), and records going end to end through SerializingProducer / DeserializingConsumer (and
the asyncio clients) configured with ``*.serializer.builder`` keys, on librdkafka's built-in mock
cluster (``test.mock.num.brokers``) and a mock:// registry."""
from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, List

from observe import data, outcome, raised

USER = ('{"type":"record","name":"User","namespace":"ex","fields":[{"name":"name","type":"string"},'
        '{"name":"age","type":"int"}]}')
JUSER = '{"title":"User","type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}'
_TYPES: Dict[str, Any] = {}


def _proto_user() -> Any:
    if "User" not in _TYPES:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

        F = descriptor_pb2.FieldDescriptorProto
        f = descriptor_pb2.FileDescriptorProto(name="bld/user.proto", package="bld", syntax="proto3")
        user = f.message_type.add(name="User")
        user.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
        user.field.add(name="age", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(f.SerializeToString())
        _TYPES["User"] = message_factory.GetMessageClass(pool.FindMessageTypeByName("bld.User"))
    return _TYPES["User"]


def _sr() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://builders"})


def _ctx(field: str = "value", topic: str = "users") -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, field)


def _serde(made: Any) -> Any:
    serde, conf = made
    return {"type": type(serde).__name__, "conf": data(conf)}


def scenario_builder_settings() -> Any:
    """Constructors, chained setters and what build() returns or raises."""
    from confluent_kafka.schema_registry.avro import AvroDeserializerBuilder, AvroSerializerBuilder
    from confluent_kafka.schema_registry.json_schema import JSONDeserializerBuilder, JSONSerializerBuilder
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializerBuilder, ProtobufSerializerBuilder
    from confluent_kafka.serialization import DeserializerBuilder, SerializerBuilder

    sr = _sr()
    conf = {"bootstrap.servers": "x", "other": 1}
    b = AvroSerializerBuilder()
    chained = [b.set_schema_registry_client(sr) is b, b.set_schema(USER) is b, b.set_to_dict(None) is b,
               b.set_serializer_config({"auto.register.schemas": True}) is b, b.set_rule_config({}) is b,
               b.set_rule_registry(None) is b, b.set_serializer_init(None) is b,
               b.set_schema_registry_config(None) is b]
    d = AvroDeserializerBuilder()
    chained += [d.set_schema_registry_client(sr) is d, d.set_return_record_name(True) is d,
                d.set_from_dict(None) is d, d.set_deserializer_config(None) is d, d.set_deserializer_init(None) is d]
    j = JSONSerializerBuilder()
    chained += [j.set_json_encode(None) is j, JSONDeserializerBuilder().set_json_decode(None) is not None]
    p = ProtobufSerializerBuilder()
    chained += [p.set_message_type(_proto_user()) is p]
    built = b.build(conf, False)
    ser = built[0]
    out: Dict[str, Any] = {
        "chained": chained,
        "bases": [isinstance(b, SerializerBuilder), isinstance(d, DeserializerBuilder),
                  isinstance(p, SerializerBuilder), isinstance(ProtobufDeserializerBuilder(), DeserializerBuilder)],
        "avro": _serde(built),
        "conf copied": built[1] is not conf and built[1] == conf,
        "encodes": outcome(ser, {"name": "a", "age": 1}, _ctx()),
        "avro de": outcome(lambda: _serde(d.build({}, True))),
        "json": outcome(lambda: _serde(JSONSerializerBuilder(None, sr, JUSER).build({}, False))),
        "json de": outcome(lambda: _serde(JSONDeserializerBuilder(schema_registry_client=sr).build({}, True))),
        "protobuf": outcome(lambda: _serde(p.set_schema_registry_client(sr).build({"a": 2}, True))),
        "protobuf de": outcome(lambda: _serde(ProtobufDeserializerBuilder(None, sr, _proto_user()).build({}, False))),
        "protobuf no type": outcome(lambda: ProtobufSerializerBuilder(schema_registry_client=sr).build({}, False)),
        "protobuf de no type": outcome(lambda: ProtobufDeserializerBuilder().build({}, False)),
        "client and conf": outcome(lambda: AvroSerializerBuilder({"url": "mock://x"}, sr, USER).build({}, False)),
        "no client": outcome(lambda: _serde(AvroSerializerBuilder(schema=USER).build({}, False))),
        "bad serializer conf": outcome(lambda: AvroSerializerBuilder(None, sr, USER, serializer_config={"x": 1})
                                       .build({}, False)),
        "bad schema": outcome(lambda: JSONSerializerBuilder(None, sr, "{not json").build({}, False)),
    }
    return out


def scenario_builder_init_and_ownership() -> Any:
    """serializer_init is called with the serde; when it fails the serde is closed; a client made
    from the configuration is the serde's own."""
    from confluent_kafka.schema_registry.rule_registry import RuleRegistry
    from confluent_kafka.schema_registry.avro import AvroSerializerBuilder
    from confluent_kafka.schema_registry.json_schema import JSONDeserializerBuilder
    from confluent_kafka.schema_registry.serde import RuleExecutor

    seen: List[Any] = []

    class Closing(RuleExecutor):
        def type(self) -> str:
            return "CLOSING"

        def transform(self, ctx: Any, message: Any) -> Any:
            return message

        def close(self) -> None:
            seen.append("executor closed")

    def boom(serde: Any) -> None:
        seen.append(["init", type(serde).__name__])
        raise RuntimeError("init failed")

    registry = RuleRegistry()
    registry.register_executor(Closing())
    out = {
        "init": outcome(lambda: _serde(AvroSerializerBuilder({"url": "mock://own"}, None, USER,
                                                             serializer_init=lambda s: seen.append(
                                                                 ["init", type(s).__name__])).build({}, False))),
        "init fails": outcome(lambda: AvroSerializerBuilder({"url": "mock://own"}, None, USER, rule_registry=registry,
                                                            serializer_init=boom).build({}, False)),
        "deserializer init": outcome(lambda: _serde(JSONDeserializerBuilder(
            schema_registry_config={"url": "mock://own"}, deserializer_init=seen.append).build({}, True))),
    }
    out["seen"] = [s if isinstance(s, (str, list)) else type(s).__name__ for s in seen]
    return out


def scenario_async_builder_settings() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AsyncAvroDeserializerBuilder, AsyncAvroSerializerBuilder
    from confluent_kafka.schema_registry.json_schema import AsyncJSONDeserializerBuilder, AsyncJSONSerializerBuilder
    from confluent_kafka.schema_registry.protobuf import (AsyncProtobufDeserializerBuilder,
                                                          AsyncProtobufSerializerBuilder)

    async def main() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://abuilders"})
        inits: List[Any] = []

        async def init(serde: Any) -> None:
            inits.append(type(serde).__name__)

        async def made(builder: Any, conf: Any = None) -> Any:
            pending = builder.build(conf or {}, False)
            kind = type(pending).__name__
            try:
                serde, left = await pending
            except Exception as exc:  # noqa: BLE001
                return {"pending": kind, **raised(exc)}
            return {"pending": kind, "type": type(serde).__name__, "conf": data(left)}

        ser_b = AsyncAvroSerializerBuilder(schema_registry_client=sr, schema=USER, serializer_init=init)
        out = {
            "chained": ser_b.set_to_dict(None) is ser_b and ser_b.set_rule_config({}) is ser_b,
            "avro": await made(ser_b, {"k": 1}),
            "avro de": await made(AsyncAvroDeserializerBuilder(None, sr, return_record_name=True)),
            "json": await made(AsyncJSONSerializerBuilder(None, sr, JUSER, json_encode=None)),
            "json de": await made(AsyncJSONDeserializerBuilder(schema_registry_client=sr, deserializer_init=init)),
            "protobuf": await made(AsyncProtobufSerializerBuilder(None, sr, _proto_user())),
            "protobuf de": await made(AsyncProtobufDeserializerBuilder().set_message_type(_proto_user())
                                      .set_schema_registry_client(sr)),
            "protobuf no type": await made(AsyncProtobufSerializerBuilder(None, sr)),
            "client and conf": await made(AsyncAvroSerializerBuilder({"url": "mock://x"}, sr, USER)),
            "own client": await made(AsyncAvroSerializerBuilder({"url": "mock://y"}, None, USER)),
        }
        s, _ = await AsyncAvroSerializerBuilder(schema_registry_client=sr, schema=USER).build({}, False)
        out["encodes"] = data(await s({"name": "a", "age": 2}, _ctx()))
        out["inits"] = inits
        return out

    return asyncio.run(main())


# -- end to end on the mock cluster --------------------------------------------------------------


def _mock_bootstrap() -> Any:
    from confluent_kafka import Producer

    owner = Producer({"test.mock.num.brokers": 1, "log_level": 0})
    md = owner.list_topics(timeout=10)
    broker = sorted(md.brokers.values(), key=lambda b: b.id)[0]
    return owner, f"{broker.host}:{broker.port}"


def _consume(consumer: Any, topic: str, n: int) -> List[Any]:
    from confluent_kafka import OFFSET_BEGINNING, TopicPartition

    consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    got: List[Any] = []
    end = time.monotonic() + 15
    while len(got) < n and time.monotonic() < end:
        msg = consumer.poll(0.2)
        if msg is not None:
            got.append([data(msg.key()), _record(msg.value())])
    return got


def _record(value: Any) -> Any:
    if hasattr(value, "ListFields"):
        return {"proto": type(value).__name__, "name": value.name, "age": value.age}
    return data(value)


def _formats(sr: Any) -> List[Any]:
    from confluent_kafka.schema_registry.avro import AvroDeserializerBuilder, AvroSerializerBuilder
    from confluent_kafka.schema_registry.json_schema import JSONDeserializerBuilder, JSONSerializerBuilder
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializerBuilder, ProtobufSerializerBuilder

    user = _proto_user()
    return [
        ("avro", AvroSerializerBuilder(schema_registry_client=sr, schema=USER),
         AvroDeserializerBuilder(schema_registry_client=sr), [{"name": "a", "age": 1}, {"name": "b", "age": 2}]),
        ("json", JSONSerializerBuilder(schema_registry_client=sr, schema=JUSER),
         JSONDeserializerBuilder(schema_registry_client=sr, schema=JUSER), [{"name": "c", "age": 3}]),
        ("protobuf", ProtobufSerializerBuilder(schema_registry_client=sr, message_type=user),
         ProtobufDeserializerBuilder(schema_registry_client=sr, message_type=user), [user(name="d", age=4)]),
    ]


def scenario_builders_end_to_end() -> Any:
    """Each format's builders as value.serializer.builder / value.deserializer.builder; the key is
    a string through key.serializer."""
    from confluent_kafka import DeserializingConsumer, SerializingProducer
    from confluent_kafka.serialization import StringDeserializer, StringSerializer

    owner, bootstrap = _mock_bootstrap()
    sr = _sr()
    out: Dict[str, Any] = {}
    try:
        for name, ser_b, de_b, records in _formats(sr):
            topic = "e2e-" + name
            reports: List[Any] = []
            p = SerializingProducer({"bootstrap.servers": bootstrap, "log_level": 0,
                                     "key.serializer": StringSerializer(), "value.serializer.builder": ser_b})
            for i, record in enumerate(records):
                p.produce(topic, key=f"k{i}", value=record, partition=0,
                          on_delivery=lambda err, msg: reports.append([data(err), data(msg.value())]))
            p.flush(10)
            p.close()
            c = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "g-" + name, "log_level": 0,
                                       "key.deserializer": StringDeserializer(),
                                       "value.deserializer.builder": de_b})
            try:
                out[name] = {"delivered": reports, "consumed": _consume(c, topic, len(records))}
            finally:
                c.close()
        out["subjects"] = outcome(lambda: sorted(sr.get_subjects()))
        out["both serde and builder"] = outcome(lambda: SerializingProducer(
            {"bootstrap.servers": bootstrap, "value.serializer": StringSerializer(),
             "value.serializer.builder": _formats(sr)[0][1]}))
    finally:
        owner.close()
    return out


def scenario_async_builders_end_to_end() -> Any:
    from confluent_kafka.aio import AsyncDeserializingConsumer, AsyncSerializingProducer
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AsyncAvroDeserializerBuilder, AsyncAvroSerializerBuilder
    from confluent_kafka.schema_registry.json_schema import AsyncJSONDeserializerBuilder, AsyncJSONSerializerBuilder

    owner, bootstrap = _mock_bootstrap()

    async def main() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://abuilders-e2e"})
        out: Dict[str, Any] = {}
        for name, ser_b, de_b, record in [
            ("avro", AsyncAvroSerializerBuilder(schema_registry_client=sr, schema=USER),
             AsyncAvroDeserializerBuilder(schema_registry_client=sr), {"name": "a", "age": 1}),
            ("json", AsyncJSONSerializerBuilder(schema_registry_client=sr, schema=JUSER),
             AsyncJSONDeserializerBuilder(schema_registry_client=sr), {"name": "b", "age": 2}),
        ]:
            topic = "ae2e-" + name
            p = await AsyncSerializingProducer({"bootstrap.servers": bootstrap, "log_level": 0,
                                                "value.serializer.builder": ser_b})
            delivered = await (await p.produce(topic, value=record, partition=0))
            await p.flush()
            await p.close()
            c = await AsyncDeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": "ag-" + name,
                                                  "log_level": 0, "value.deserializer.builder": de_b})
            from confluent_kafka import OFFSET_BEGINNING, TopicPartition

            await c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
            got = None
            end = time.monotonic() + 15
            while got is None and time.monotonic() < end:
                got = await c.poll(0.2)
            out[name] = {"delivered": data(delivered.value()), "consumed": None if got is None else data(got.value())}
            await c.close()
        return out

    try:
        return asyncio.run(main())
    finally:
        owner.close()
