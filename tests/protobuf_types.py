"""Protobuf message types for the Schema Registry tests, built from descriptors at run time
(no generated code): ``ex/common.proto`` (Address), and ``ex/user.proto`` importing it and
``google/protobuf/timestamp.proto`` (Other, then User with a nested Nick)."""

from __future__ import annotations

from typing import Any, Dict

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2

_F = descriptor_pb2.FieldDescriptorProto
_made: Dict[str, Any] = {}


def _field(message: Any, name: str, number: int, kind: int, type_name: str = "") -> None:
    added = message.field.add(name=name, number=number, type=kind, label=_F.LABEL_OPTIONAL)
    if type_name:
        added.type_name = type_name


def types() -> Dict[str, Any]:
    """The message classes by name: ``User``, ``Other``, ``Nick``, ``Address`` (and
    ``UserV2``, a compatible later ``ex/user.proto`` with an ``email`` field, in a pool of its
    own)."""
    if _made:
        return _made
    for version in (1, 2):
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
        common = descriptor_pb2.FileDescriptorProto(name="ex/common.proto", package="ex", syntax="proto3")
        _field(common.message_type.add(name="Address"), "city", 1, _F.TYPE_STRING)
        pool.AddSerializedFile(common.SerializeToString())
        user_file = descriptor_pb2.FileDescriptorProto(
            name="ex/user.proto", package="ex", syntax="proto3",
            dependency=["ex/common.proto", "google/protobuf/timestamp.proto"])
        _field(user_file.message_type.add(name="Other"), "x", 1, _F.TYPE_INT32)
        user = user_file.message_type.add(name="User")
        _field(user, "name", 1, _F.TYPE_STRING)
        _field(user, "age", 2, _F.TYPE_INT32)
        _field(user, "address", 3, _F.TYPE_MESSAGE, ".ex.Address")
        _field(user, "born", 4, _F.TYPE_MESSAGE, ".google.protobuf.Timestamp")
        if version == 2:
            _field(user, "email", 5, _F.TYPE_STRING)
        _field(user.nested_type.add(name="Nick"), "nick", 1, _F.TYPE_STRING)
        pool.AddSerializedFile(user_file.SerializeToString())

        def get(name: str) -> Any:
            return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))

        if version == 1:
            _made.update(User=get("ex.User"), Other=get("ex.Other"), Nick=get("ex.User.Nick"),
                         Address=get("ex.Address"))
        else:
            _made["UserV2"] = get("ex.User")
    return _made
