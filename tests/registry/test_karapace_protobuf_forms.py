"""The Protobuf serdes on Karapace's ``serialized`` form (real HTTP, a fresh client for every
reader, so that nothing comes from the writer's cache).

Karapace keeps every Protobuf schema as ``.proto`` text and answers ``format=serialized`` only
for a schema fetched by id (a subject version comes back as text), from its own parse of the
text: without the synthetic oneofs of proto3 ``optional`` fields, without the ``map_entry``
option of map entry types (and, for a map written in ``.proto`` text, with the field's type
named ``map<K, V>`` and no entry type). The serdes fetch such a version again by id and repair
the file (``repair_registry_file``). A schema with references has no ``serialized`` form on
Karapace at all: it answers 500 (pinned below)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Dict, List

import pytest

pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2  # noqa: E402

from confluent_kafka.schema_registry import (  # noqa: E402
    AsyncSchemaRegistryClient,
    Schema,
    SchemaRegistryClient,
    SchemaRegistryError,
)
from confluent_kafka.schema_registry.protobuf import (  # noqa: E402
    AsyncProtobufDeserializer,
    AsyncProtobufSerializer,
    ProtobufDeserializer,
    ProtobufSerializer,
)
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

pytestmark = pytest.mark.integration

F = descriptor_pb2.FieldDescriptorProto


def _field(msg: Any, name: str, number: int, kind: int, type_name: str = "", repeated: bool = False,
           optional: bool = False) -> None:
    added = msg.field.add(name=name, number=number, type=kind,
                          label=F.LABEL_REPEATED if repeated else F.LABEL_OPTIONAL)
    if type_name:
        added.type_name = type_name
    if optional:
        added.proto3_optional = True


def _entry(msg: Any, name: str, key: int, value: int, value_type: str = "") -> None:
    entry = msg.nested_type.add(name=name)
    entry.options.map_entry = True
    _field(entry, "key", 1, key)
    _field(entry, "value", 2, value, value_type)


def _synthetic_oneofs(msg: Any) -> None:
    for nested in msg.nested_type:
        _synthetic_oneofs(nested)
    for fd in msg.field:
        if fd.proto3_optional:
            fd.oneof_index = len(msg.oneof_decl)
            msg.oneof_decl.add(name="_" + fd.name)


def _types(package: str, note: bool = False) -> Dict[str, Any]:
    """``<package>/order.proto`` as protoc writes it (synthetic oneofs, map entry types):
    Other, then Order with proto3 optionals, two maps, a nested message and enum, a oneof and a
    timestamp; ``note`` adds an optional field 11 (a compatible later version)."""
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
    file = descriptor_pb2.FileDescriptorProto(name=f"{package}/order.proto", package=package, syntax="proto3",
                                              dependency=["google/protobuf/timestamp.proto"])
    _field(file.message_type.add(name="Other"), "x", 1, F.TYPE_INT32)
    order = file.message_type.add(name="Order")
    p = f".{package}.Order"
    order.oneof_decl.add(name="pay")
    _field(order, "qty", 1, F.TYPE_INT32, optional=True)
    _entry(order, "CountsEntry", F.TYPE_STRING, F.TYPE_INT64)
    _field(order, "counts", 2, F.TYPE_MESSAGE, p + ".CountsEntry", repeated=True)
    line = order.nested_type.add(name="Line")
    _field(line, "sku", 1, F.TYPE_STRING)
    _field(line, "price", 2, F.TYPE_DOUBLE, optional=True)
    _field(order, "line", 3, F.TYPE_MESSAGE, p + ".Line")
    _field(order, "lines", 4, F.TYPE_MESSAGE, p + ".Line", repeated=True)
    _entry(order, "ByIdEntry", F.TYPE_INT32, F.TYPE_MESSAGE, p + ".Line")
    _field(order, "by_id", 5, F.TYPE_MESSAGE, p + ".ByIdEntry", repeated=True)
    _field(order, "at", 7, F.TYPE_MESSAGE, ".google.protobuf.Timestamp")
    _field(order, "card", 8, F.TYPE_STRING)
    _field(order, "cash", 9, F.TYPE_INT64)
    order.field[-1].oneof_index = order.field[-2].oneof_index = 0
    order.enum_type.add(name="Color").value.add(name="RED", number=0)
    order.enum_type[0].value.add(name="BLUE", number=1)
    _field(order, "color", 10, F.TYPE_ENUM, p + ".Color")
    if note:
        _field(order, "note", 11, F.TYPE_STRING, optional=True)
    _synthetic_oneofs(order)
    pool.AddSerializedFile(file.SerializeToString())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{name}"))
            for name in ("Order", "Order.Line", "Other")}


def _order(types: Dict[str, Any]) -> Any:
    order = types["Order"](qty=0, card="c", color=1)  # qty=0 is set: presence must survive
    order.counts["a"] = 1
    order.counts["b"] = 2
    order.line.sku = "s"
    order.line.price = 0.0
    order.lines.add(sku="l1")
    order.lines.add(sku="l2", price=2.5)
    order.by_id[7].sku = "seven"
    order.at.seconds = 9
    return order


def _package() -> str:
    return "kp" + uuid.uuid4().hex[:10]


def test_karapace_answers_a_version_in_text_and_an_id_without_synthetic_oneofs_or_map_entries(
        registry_url: str) -> None:
    """The facts the serdes work around, pinned."""
    types = _types(_package())
    client = SchemaRegistryClient({"url": registry_url})
    ctx = SerializationContext(f"t-{uuid.uuid4().hex[:10]}", MessageField.VALUE)
    ProtobufSerializer(types["Order"], client, {})(_order(types), ctx)
    fresh = SchemaRegistryClient({"url": registry_url})
    version = fresh.get_latest_version(ctx.topic + "-value", fmt="serialized")
    assert version.schema.schema_str.startswith('syntax = "proto3";')
    assert "repeated " in version.schema.schema_str and "map<" not in version.schema.schema_str
    by_id = fresh.get_schema(version.schema_id, fmt="serialized")
    file = descriptor_pb2.FileDescriptorProto.FromString(__import__("base64").b64decode(by_id.schema_str))
    order = file.message_type[1]
    assert [d.name for d in order.oneof_decl] == ["pay"]  # no "_qty"
    assert [f.proto3_optional for f in order.field if f.name == "qty"] == [True]
    assert not any(n.options.map_entry for n in order.nested_type)
    client.close()
    fresh.close()


def test_sync_serdes_read_karapace_serialized_form(registry_url: str) -> None:
    types = _types(_package())
    client = SchemaRegistryClient({"url": registry_url})
    ctx = SerializationContext(f"t-{uuid.uuid4().hex[:10]}", MessageField.VALUE)
    data = ProtobufSerializer(types["Order"], client, {})(_order(types), ctx)

    def fresh() -> SchemaRegistryClient:
        return SchemaRegistryClient({"url": registry_url})

    by_id = ProtobufDeserializer(types["Order"], {}, fresh())(data, ctx)
    assert by_id == _order(types) and by_id.HasField("qty") and dict(by_id.counts) == {"a": 1, "b": 2}
    assert ProtobufDeserializer(types["Order"], {"use.latest.version": True}, fresh())(data, ctx) == _order(types)
    latest = ProtobufSerializer(types["Order"], fresh(), {"use.latest.version": True, "auto.register.schemas": False})
    assert latest(_order(types), ctx) == data
    by_schema_id = ProtobufSerializer(types["Order"], fresh(), {"use.schema.id": int.from_bytes(data[1:5], "big"),
                                                                "auto.register.schemas": False})
    assert by_schema_id(_order(types), ctx) == data
    line_ctx = SerializationContext(ctx.topic + "-line", MessageField.VALUE)
    line = ProtobufSerializer(types["Order.Line"], client, {})(types["Order.Line"](sku="n", price=1.0), line_ctx)
    assert line[5:8] == b"\x04\x02\x02"  # two indexes (zig-zag): Order is message 1, Line its nested type 1
    assert ProtobufDeserializer(types["Order.Line"], {}, fresh())(line, line_ctx).price == 1.0
    client.close()


def test_schema_evolution_on_karapace(registry_url: str) -> None:
    package = _package()
    v1, v2 = _types(package), _types(package, note=True)
    client = SchemaRegistryClient({"url": registry_url})
    ctx = SerializationContext(f"t-{uuid.uuid4().hex[:10]}", MessageField.VALUE)
    old = ProtobufSerializer(v1["Order"], client, {})(_order(v1), ctx)
    newer = _order(v2)
    newer.note = ""
    new = ProtobufSerializer(v2["Order"], client, {})(newer, ctx)
    assert new[1:5] != old[1:5]
    reader = ProtobufDeserializer(v2["Order"], {"use.latest.version": True},
                                  SchemaRegistryClient({"url": registry_url}))
    assert not reader(old, ctx).HasField("note") and reader(new, ctx).HasField("note")
    pinned = ProtobufSerializer(v1["Order"], SchemaRegistryClient({"url": registry_url}),
                                {"use.latest.version": True, "auto.register.schemas": False})
    assert pinned(_order(v1), ctx)[1:5] == new[1:5]  # framed with the latest version's id
    client.close()


def test_async_serdes_read_karapace_serialized_form(registry_url: str) -> None:
    types = _types(_package())
    ctx = SerializationContext(f"t-{uuid.uuid4().hex[:10]}", MessageField.VALUE)

    async def run() -> List[Any]:
        writer = AsyncSchemaRegistryClient({"url": registry_url})
        data = await (await AsyncProtobufSerializer(types["Order"], writer, {}))(_order(types), ctx)
        got: List[Any] = [data]
        for conf in ({}, {"use.latest.version": True}):
            reader = AsyncSchemaRegistryClient({"url": registry_url})
            got.append(await (await AsyncProtobufDeserializer(types["Order"], conf, reader))(data, ctx))
            await reader.aclose()
        reader = AsyncSchemaRegistryClient({"url": registry_url})
        latest = await AsyncProtobufSerializer(types["Order"], reader, {"use.latest.version": True,
                                                                       "auto.register.schemas": False})
        got.append(await latest(_order(types), ctx))
        await reader.aclose()
        await writer.aclose()
        return got

    data, by_id, by_latest, again = asyncio.run(run())
    assert by_id == _order(types) and by_latest == _order(types) and again == data


def test_a_schema_registered_as_proto_text_with_maps_and_optionals_is_read(registry_url: str) -> None:
    package = _package()
    text = (f'syntax = "proto3";\npackage {package};\n\nmessage Order {{\n  optional int32 qty = 1;\n'
            '  map<string, int64> counts = 2;\n  message Line {\n    string sku = 1;\n  }\n'
            '  map<int32, Line> by_id = 5;\n  Line line = 3;\n}\n')
    client = SchemaRegistryClient({"url": registry_url})
    subject = f"t-{uuid.uuid4().hex[:10]}-value"
    schema_id = client.register_schema(subject, Schema(text, "PROTOBUF"))
    types = _types(package)
    written = types["Order"](qty=0)
    written.counts["k"] = 5
    written.by_id[1].sku = "one"
    written.line.sku = "l"
    data = b"\x00" + schema_id.to_bytes(4, "big") + b"\x00" + written.SerializeToString()
    ctx = SerializationContext(subject[:-len("-value")], MessageField.VALUE)
    back = ProtobufDeserializer(types["Order"], {}, SchemaRegistryClient({"url": registry_url}))(data, ctx)
    assert back == written and back.HasField("qty")
    # the nested message keeps its index (entry types made for the text's maps come after it)
    line = types["Order.Line"](sku="n")
    framed = b"\x00" + schema_id.to_bytes(4, "big") + b"\x04\x00\x00" + line.SerializeToString()
    assert ProtobufDeserializer(types["Order.Line"], {}, SchemaRegistryClient({"url": registry_url}))(
        framed, ctx) == line
    client.close()


def test_karapace_has_no_serialized_form_for_a_schema_with_references(registry_url: str) -> None:
    """Karapace parses the schema without its references to serialize it, and answers 500;
    the same client that registered the schema reads it from its cache."""
    from protobuf_types import types

    T = types()
    client = SchemaRegistryClient({"url": registry_url})
    topic = f"t-{uuid.uuid4().hex[:10]}"
    ctx = SerializationContext(topic, MessageField.VALUE)
    conf = {"reference.subject.name.strategy": lambda c, dep: f"{topic}-{dep.name}"}
    user = T["User"](name="a")
    data = ProtobufSerializer(T["User"], client, conf)(user, ctx)
    assert ProtobufDeserializer(T["User"], {}, client)(data, ctx) == user
    with pytest.raises(SchemaRegistryError) as info:
        ProtobufDeserializer(T["User"], {}, SchemaRegistryClient({"url": registry_url}))(data, ctx)
    assert info.value.http_status_code == 500
    client.close()
