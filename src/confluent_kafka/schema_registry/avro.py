"""Avro serializers with Schema Registry framing, under upstream's module path."""

from ._async.avro import *  # noqa: F401,F403
from ._sync.avro import *  # noqa: F401,F403
from .common.avro import *  # noqa: F401,F403
from ._async.avro import AsyncAvroDeserializer, AsyncAvroSerializer  # noqa: F401
from ._sync.avro import AvroDeserializer, AvroSerializer  # noqa: F401
from .common.avro import AvroMessage, AvroSchema, LocalSchemaRepository, parse_schema_with_repo  # noqa: F401

# Every public name the imports above bring in (upstream's module has no __all__; listing them
# keeps ``import *`` the same and lets the API reference check each one).
__all__ = sorted(_name for _name, _value in list(globals().items())
                 if not _name.startswith("_") and type(_value).__name__ != "module")
