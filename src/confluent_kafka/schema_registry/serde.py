"""The serde bases and the schema id framing, under upstream's module path."""

from ._async.serde import *  # noqa: F401,F403
from ._sync.serde import *  # noqa: F401,F403
from .common.serde import *  # noqa: F401,F403
from ._sync.serde import AssociatedNameStrategy, BaseDeserializer, BaseSerde, BaseSerializer  # noqa: F401
from ._async.serde import AsyncAssociatedNameStrategy, AsyncBaseDeserializer, AsyncBaseSerde  # noqa: F401
from ._async.serde import AsyncBaseSerializer  # noqa: F401
from .common.serde import Migration, ParsedSchemaCache, SchemaId, SubjectNameStrategyType  # noqa: F401
