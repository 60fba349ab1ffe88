"""An ``Order`` Protobuf message type for the Spark tests, built from descriptors at run time
(no generated code): ``shop/order.proto`` (proto3) with an enum, a nested message, repeated
fields, a map, a ``google.protobuf.Timestamp``, a wrapper type, an unsigned 64-bit integer and
a proto3 ``optional`` field; ``OrderV2`` adds a field (a compatible later version)."""

from __future__ import annotations

from typing import Any, Dict

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2, wrappers_pb2

_F = descriptor_pb2.FieldDescriptorProto
_made: Dict[str, Any] = {}


def order_file(version: int = 1) -> descriptor_pb2.FileDescriptorProto:
    """The ``FileDescriptorProto`` of ``shop/order.proto`` (version 2 adds ``channel``)."""
    f = descriptor_pb2.FileDescriptorProto(name="shop/order.proto", package="shop", syntax="proto3",
                                           dependency=["google/protobuf/timestamp.proto",
                                                       "google/protobuf/wrappers.proto"])
    f.enum_type.add(name="Status").value.extend([descriptor_pb2.EnumValueDescriptorProto(name="NEW", number=0),
                                                 descriptor_pb2.EnumValueDescriptorProto(name="PAID", number=1)])
    order = f.message_type.add(name="Order")

    def add(msg: Any, name: str, number: int, kind: int, type_name: str = "", repeated: bool = False,
            optional: bool = False) -> None:
        field = msg.field.add(name=name, number=number, type=kind,
                              label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
        if type_name:
            field.type_name = type_name
        if optional:
            field.proto3_optional = True
            field.oneof_index = len(msg.oneof_decl)
            msg.oneof_decl.add(name="_" + name)

    line = order.nested_type.add(name="Line")
    add(line, "sku", 1, _F.TYPE_STRING)
    add(line, "qty", 2, _F.TYPE_INT32)
    entry = order.nested_type.add(name="AttrsEntry")
    entry.options.map_entry = True
    add(entry, "key", 1, _F.TYPE_STRING)
    add(entry, "value", 2, _F.TYPE_STRING)
    add(order, "id", 1, _F.TYPE_INT64)
    add(order, "customer", 2, _F.TYPE_STRING, optional=True)
    add(order, "amount", 3, _F.TYPE_DOUBLE)
    add(order, "placed", 4, _F.TYPE_MESSAGE, ".google.protobuf.Timestamp")
    add(order, "status", 5, _F.TYPE_ENUM, ".shop.Status")
    add(order, "lines", 6, _F.TYPE_MESSAGE, ".shop.Order.Line", repeated=True)
    add(order, "attrs", 7, _F.TYPE_MESSAGE, ".shop.Order.AttrsEntry", repeated=True)
    add(order, "tags", 8, _F.TYPE_STRING, repeated=True)
    add(order, "note", 9, _F.TYPE_MESSAGE, ".google.protobuf.StringValue")
    add(order, "big", 10, _F.TYPE_UINT64)
    if version == 2:
        add(order, "channel", 11, _F.TYPE_STRING)
    return f


def types() -> Dict[str, Any]:
    """``{"Order": class, "OrderV2": class}``, each in a pool of its own."""
    if _made:
        return _made
    for version, key in ((1, "Order"), (2, "OrderV2")):
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
        pool.AddSerializedFile(wrappers_pb2.DESCRIPTOR.serialized_pb)
        pool.AddSerializedFile(order_file(version).SerializeToString())
        _made[key] = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Order"))
    return _made
