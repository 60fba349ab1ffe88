"""The Schema Registry clients and data model, under upstream's module path."""

from ._async.schema_registry_client import *  # noqa: F401,F403
from ._sync.schema_registry_client import *  # noqa: F401,F403
from .common.schema_registry_client import *  # noqa: F401,F403
from .common.schema_registry_client import RulePhase, SchemaVersion  # noqa: F401
from .error import SchemaRegistryError  # noqa: F401
from ._async.schema_registry_client import AsyncSchemaRegistryClient  # noqa: F401
from ._sync.schema_registry_client import SchemaRegistryClient  # noqa: F401
