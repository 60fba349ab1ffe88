"""Protobuf serializers with Schema Registry framing, under upstream's module path."""

from ._async.protobuf import *  # noqa: F401,F403
from ._sync.protobuf import *  # type: ignore[assignment]  # noqa: F401,F403
from .common.protobuf import *  # noqa: F401,F403
from ._async.protobuf import AsyncProtobufDeserializer, AsyncProtobufSerializer  # noqa: F401
from ._sync.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: F401
from ._sync.protobuf import _resolve_named_schema  # type: ignore[assignment]  # noqa: F401
from .common.protobuf import PROTOBUF_TYPE, decimal_to_protobuf, protobuf_to_decimal  # noqa: F401

# Every public name the imports above bring in (upstream's module has no __all__; listing them
# keeps ``import *`` the same and lets the API reference check each one).
__all__ = sorted(_name for _name, _value in list(globals().items())
                 if not _name.startswith("_") and type(_value).__name__ != "module")
