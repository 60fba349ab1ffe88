"""The serde bases and the schema id framing, under upstream's module path."""

from ._async.serde import *  # noqa: F401,F403
from ._sync.serde import *  # noqa: F401,F403
from .common.serde import *  # noqa: F401,F403
from ._sync.serde import AssociatedNameStrategy, BaseDeserializer, BaseSerde, BaseSerializer  # noqa: F401
from ._async.serde import AsyncAssociatedNameStrategy, AsyncBaseDeserializer, AsyncBaseSerde  # noqa: F401
from ._async.serde import AsyncBaseSerializer  # noqa: F401
from .common.serde import Migration, ParsedSchemaCache, SchemaId, SubjectNameStrategyType  # noqa: F401

# Every public name the imports above bring in (upstream's module has no __all__; listing them
# keeps ``import *`` the same and lets the API reference check each one).
__all__ = sorted(_name for _name, _value in list(globals().items())
                 if not _name.startswith("_") and type(_value).__name__ != "module")
