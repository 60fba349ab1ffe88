"""Building the Confluent Protobuf files from their descriptors (no generated code)."""

from __future__ import annotations

from typing import Any, Iterable, Optional, Tuple

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory  # type: ignore[import-untyped,unused-ignore]

_F = descriptor_pb2.FieldDescriptorProto

#: Field kinds by the name used in a ``.proto`` file.
TYPES = {
    "string": _F.TYPE_STRING,
    "bytes": _F.TYPE_BYTES,
    "uint32": _F.TYPE_UINT32,
    "int32": _F.TYPE_INT32,
    "message": _F.TYPE_MESSAGE,
}


def field(name: str, number: int, kind: str, repeated: bool = False, type_name: Optional[str] = None,
          extendee: Optional[str] = None) -> descriptor_pb2.FieldDescriptorProto:
    """One field (or extension) of a message.

    :param name: the field's name.
    :param number: its number.
    :param kind: its type, as named in ``TYPES``.
    :param repeated: whether it is repeated.
    :param type_name: the fully qualified message type, for a message field.
    :param extendee: the extended message, for an extension.
    :returns: the field's descriptor.
    """
    made = _F(name=name, number=number, type=TYPES[kind],
              label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
    if type_name is not None:
        made.type_name = type_name
    if extendee is not None:
        made.extendee = extendee
    return made


def message(name: str, fields: Iterable[descriptor_pb2.FieldDescriptorProto],
            nested: Iterable[descriptor_pb2.DescriptorProto] = (), map_entry: bool = False) -> descriptor_pb2.DescriptorProto:
    """A message type.

    :param name: its name.
    :param fields: its fields, in order.
    :param nested: its nested message types.
    :param map_entry: whether it is the entry type of a map field.
    :returns: its descriptor.
    """
    made = descriptor_pb2.DescriptorProto(name=name, field=list(fields), nested_type=list(nested))
    if map_entry:
        made.options.map_entry = True
    return made


def add_to_default_pool(file_proto: descriptor_pb2.FileDescriptorProto) -> Any:
    """Add a file to protobuf's default pool, as a generated module does.

    :param file_proto: the file's descriptor.
    :returns: the pool's :class:`~google.protobuf.descriptor.FileDescriptor`.
    """
    pool = descriptor_pool.Default()
    return pool.AddSerializedFile(file_proto.SerializeToString())


def message_classes(file_descriptor: Any, *names: str) -> Tuple[Any, ...]:
    """The message classes of a file's top-level messages.

    :param file_descriptor: the file.
    :param names: the messages' names.
    :returns: their classes, in order.
    """
    return tuple(message_factory.GetMessageClass(file_descriptor.message_types_by_name[name]) for name in names)
