"""Protobuf serializers with Schema Registry framing, under upstream's module path."""

from ._async.protobuf import *  # noqa: F401,F403
from ._sync.protobuf import *  # noqa: F401,F403
from .common.protobuf import *  # noqa: F401,F403
from ._async.protobuf import AsyncProtobufDeserializer, AsyncProtobufSerializer  # noqa: F401
from ._sync.protobuf import ProtobufDeserializer, ProtobufSerializer, _resolve_named_schema  # noqa: F401
from .common.protobuf import PROTOBUF_TYPE, decimal_to_protobuf, protobuf_to_decimal  # noqa: F401
