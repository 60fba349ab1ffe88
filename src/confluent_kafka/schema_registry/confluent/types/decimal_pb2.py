"""``confluent/types/decimal.proto``: declares nothing and publicly imports
``confluent/type/decimal.proto``, so schemas importing the former path still resolve
``confluent.type.Decimal``."""

from __future__ import annotations

from google.protobuf import descriptor_pb2  # type: ignore[import-untyped,unused-ignore]

from ..type import decimal_pb2 as confluent_dot_type_dot_decimal__pb2
from .._descriptors import add_to_default_pool

#: The file's descriptor, in the default pool.
DESCRIPTOR = add_to_default_pool(descriptor_pb2.FileDescriptorProto(
    name="confluent/types/decimal.proto",
    dependency=["confluent/type/decimal.proto"],
    public_dependency=[0],
    syntax="proto3",
))
Decimal = confluent_dot_type_dot_decimal__pb2.Decimal
