"""The Schema Registry clients and data model, under upstream's module path."""

from ._async.schema_registry_client import *  # noqa: F401,F403
from ._sync.schema_registry_client import *  # noqa: F401,F403
from .common.schema_registry_client import *  # noqa: F401,F403
from .common.schema_registry_client import RulePhase, SchemaVersion  # noqa: F401
from .error import SchemaRegistryError  # noqa: F401
from ._async.schema_registry_client import AsyncSchemaRegistryClient  # noqa: F401
from ._sync.schema_registry_client import SchemaRegistryClient  # noqa: F401

# Every public name the imports above bring in (upstream's module has no __all__; listing them
# keeps ``import *`` the same and lets the API reference check each one).
__all__ = sorted(_name for _name, _value in list(globals().items())
                 if not _name.startswith("_") and type(_value).__name__ != "module")
