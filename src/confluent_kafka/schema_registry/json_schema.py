"""JSON Schema serializers with Schema Registry framing, under upstream's module path."""

from ._async.json_schema import *  # noqa: F401,F403
from ._sync.json_schema import *  # noqa: F401,F403
from .common.json_schema import *  # noqa: F401,F403
from ._async.json_schema import AsyncJSONDeserializer, AsyncJSONSerializer  # noqa: F401
from ._sync.json_schema import JSONDeserializer, JSONSerializer, _resolve_named_schema  # noqa: F401
from .common.json_schema import DEFAULT_SPEC, JsonMessage, JsonSchema, _json_dumps, _json_loads  # noqa: F401

# Every public name the imports above bring in (upstream's module has no __all__; listing them
# keeps ``import *`` the same and lets the API reference check each one).
__all__ = sorted(_name for _name, _value in list(globals().items())
                 if not _name.startswith("_") and type(_value).__name__ != "module")
