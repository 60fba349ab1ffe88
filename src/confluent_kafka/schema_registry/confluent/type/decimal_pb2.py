"""``confluent/type/decimal.proto``: ``confluent.type.Decimal``, an arbitrary-precision decimal
as its unscaled value (big-endian two's-complement bytes), precision and scale. Convert with
:mod:`confluent_kafka.schema_registry.confluent.type.decimal_utils`."""

from __future__ import annotations

from google.protobuf import descriptor_pb2  # type: ignore[import-untyped,unused-ignore]

from .._descriptors import add_to_default_pool, field, message, message_classes

#: The file's descriptor, in the default pool.
DESCRIPTOR = add_to_default_pool(descriptor_pb2.FileDescriptorProto(
    name="confluent/type/decimal.proto",
    package="confluent.type",
    syntax="proto3",
    message_type=[message("Decimal", [field("value", 1, "bytes"), field("precision", 2, "uint32"),
                                      field("scale", 3, "int32")])],
))
(Decimal,) = message_classes(DESCRIPTOR, "Decimal")
