"""confluent_kafka.schema_registry.protobuf on mock:// with the shapes Karapace's ``serialized``
form mangles (proto3 ``optional``, maps, a nested message and enum, a oneof): what the serdes
write and read, ``use.latest.version`` both ways, and a schema registered as ``.proto`` text
(read back in the ``serialized`` form the mock does not make). On Karapace (tests/registry)
our serdes read these where upstream's fail; on mock:// both sides must stay the same."""
from __future__ import annotations

import asyncio
from typing import Any, Dict

from observe import data, outcome

_TYPES: Dict[str, Any] = {}


def _types() -> Dict[str, Any]:
    """``forms/order.proto`` as protoc writes it: Other, then Order (qty optional, counts and
    by_id maps, nested Line with an optional price, a pay oneof, a nested Color enum)."""
    if _TYPES:
        return _TYPES
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    pool = descriptor_pool.DescriptorPool()
    f = descriptor_pb2.FileDescriptorProto(name="forms/order.proto", package="forms", syntax="proto3")
    f.message_type.add(name="Other").field.add(name="x", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    order = f.message_type.add(name="Order")
    order.oneof_decl.add(name="pay")
    opt = F.LABEL_OPTIONAL

    def entry(name: str, key: int, value: int, value_type: str = "") -> None:
        e = order.nested_type.add(name=name)
        e.options.map_entry = True
        e.field.add(name="key", number=1, type=key, label=opt)
        added = e.field.add(name="value", number=2, type=value, label=opt)
        if value_type:
            added.type_name = value_type

    entry("CountsEntry", F.TYPE_STRING, F.TYPE_INT64)
    line = order.nested_type.add(name="Line")
    line.field.add(name="sku", number=1, type=F.TYPE_STRING, label=opt)
    line.field.add(name="price", number=2, type=F.TYPE_DOUBLE, label=opt, proto3_optional=True, oneof_index=0)
    line.oneof_decl.add(name="_price")
    entry("ByIdEntry", F.TYPE_INT32, F.TYPE_MESSAGE, ".forms.Order.Line")
    order.enum_type.add(name="Color").value.add(name="RED", number=0)
    order.enum_type[0].value.add(name="BLUE", number=1)
    order.field.add(name="card", number=8, type=F.TYPE_STRING, label=opt, oneof_index=0)
    order.field.add(name="counts", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                    type_name=".forms.Order.CountsEntry")
    order.field.add(name="line", number=3, type=F.TYPE_MESSAGE, label=opt, type_name=".forms.Order.Line")
    order.field.add(name="by_id", number=5, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                    type_name=".forms.Order.ByIdEntry")
    order.field.add(name="color", number=10, type=F.TYPE_ENUM, label=opt, type_name=".forms.Order.Color")
    order.field.add(name="qty", number=1, type=F.TYPE_INT32, label=opt, proto3_optional=True, oneof_index=1)
    order.oneof_decl.add(name="_qty")
    pool.AddSerializedFile(f.SerializeToString())
    for name in ("Order", "Order.Line", "Other"):
        _TYPES[name] = message_factory.GetMessageClass(pool.FindMessageTypeByName("forms." + name))
    return _TYPES


def _order() -> Any:
    order = _types()["Order"](qty=0, card="c", color=1)
    order.counts["a"] = 1
    order.line.sku = "s"
    order.line.price = 0.0
    order.by_id[7].sku = "seven"
    return order


def _view(msg: Any) -> Any:
    if isinstance(msg, BaseException):
        return {"raises": type(msg).__name__}  # (the texts differ on purpose: see deliberate.py)
    if msg is None:
        return None
    return {"bytes": data(msg.SerializeToString()), "qty set": msg.HasField("qty"),
            "counts": sorted(msg.counts.items()), "by_id": sorted((k, v.sku) for k, v in msg.by_id.items()),
            "pay": msg.WhichOneof("pay")}


def _sr(name: str) -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://compat-protobuf-forms-" + name, "max.retries": 0})


def _ctx(topic: str = "orders") -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, "value")


def scenario_protobuf_optional_and_maps_round_trip() -> Any:
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer

    t = _types()
    sr = _sr("trip")
    written = ProtobufSerializer(t["Order"], sr, {})(_order(), _ctx())
    line = ProtobufSerializer(t["Order.Line"], sr, {})(t["Order.Line"](sku="n", price=1.5), _ctx("lines"))
    out: Dict[str, Any] = {"written": data(written), "line": data(line)}
    for label, conf in (("by id", {}), ("latest", {"use.latest.version": True})):
        out[label] = _view(_safe(lambda c=conf: ProtobufDeserializer(t["Order"], c, sr)(written, _ctx())))
    out["line back"] = outcome(lambda: ProtobufDeserializer(t["Order.Line"], {}, sr)(line, _ctx("lines")).price)
    out["serializer latest"] = outcome(ProtobufSerializer(t["Order"], sr, {"use.latest.version": True,
                                                                          "auto.register.schemas": False}),
                                       _order(), _ctx())
    out["serializer metadata"] = outcome(ProtobufSerializer(t["Order"], sr, {"use.latest.with.metadata": {"a": "b"},
                                                                            "auto.register.schemas": False}),
                                         _order(), _ctx())
    out["latest serialized"] = outcome(
        lambda: sr.get_latest_version("orders-value", fmt="serialized").schema.schema_str[:16])
    return out


def _safe(fn: Any) -> Any:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - recorded as the observation
        return exc


def scenario_protobuf_schema_registered_as_text() -> Any:
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer

    t = _types()
    sr = _sr("text")
    text = ('syntax = "proto3";\npackage forms;\n\nmessage Other {\n  int32 x = 1;\n}\nmessage Order {\n'
            '  optional int32 qty = 1;\n  map<string, int64> counts = 2;\n}\n')
    schema_id = sr.register_schema("orders-value", Schema(text, "PROTOBUF"))
    payload = b"\x00" + schema_id.to_bytes(4, "big") + b"\x02\x02" + _order().SerializeToString()
    return {
        "id": schema_id,
        "by id": _view(_safe(lambda: ProtobufDeserializer(t["Order"], {}, sr)(payload, _ctx()))),
        "no client": _view(_safe(lambda: ProtobufDeserializer(t["Order"], {}, None)(payload, _ctx()))),
        "latest": _view(_safe(lambda: ProtobufDeserializer(t["Order"], {"use.latest.version": True}, sr)(
            payload, _ctx()))),
        "serializer latest": _view(_safe(lambda: ProtobufSerializer(
            t["Order"], sr, {"use.latest.version": True, "auto.register.schemas": False})(_order(), _ctx()))),
        "fetched": outcome(lambda: sr.get_latest_version("orders-value", fmt="serialized").schema.schema_str == text),
    }


def scenario_async_protobuf_optional_and_maps() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.protobuf import AsyncProtobufDeserializer, AsyncProtobufSerializer

    t = _types()

    async def run() -> Any:
        sr = await AsyncSchemaRegistryClient.new_client({"url": "mock://compat-protobuf-forms-async"}) \
            if asyncio.iscoroutinefunction(AsyncSchemaRegistryClient.new_client) else \
            AsyncSchemaRegistryClient.new_client({"url": "mock://compat-protobuf-forms-async"})
        written = await (await AsyncProtobufSerializer(t["Order"], sr, {}))(_order(), _ctx())
        back = await (await AsyncProtobufDeserializer(t["Order"], {"use.latest.version": True}, sr))(written, _ctx())
        again = await (await AsyncProtobufSerializer(t["Order"], sr, {"use.latest.version": True,
                                                                      "auto.register.schemas": False}))(
            _order(), _ctx())
        return {"written": data(written), "back": _view(back), "again": data(again)}

    return asyncio.run(run())
