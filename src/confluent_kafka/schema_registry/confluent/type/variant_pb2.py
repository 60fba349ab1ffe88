"""``confluent/type/variant.proto``: ``confluent.type.Variant``, a semi-structured value as its
metadata and value bytes."""

from __future__ import annotations

from google.protobuf import descriptor_pb2  # type: ignore[import-untyped,unused-ignore]

from .._descriptors import add_to_default_pool, field, message, message_classes

#: The file's descriptor, in the default pool.
DESCRIPTOR = add_to_default_pool(descriptor_pb2.FileDescriptorProto(
    name="confluent/type/variant.proto",
    package="confluent.type",
    syntax="proto3",
    message_type=[message("Variant", [field("metadata", 1, "bytes"), field("value", 2, "bytes")])],
))
(Variant,) = message_classes(DESCRIPTOR, "Variant")
