"""The asynchronous serde bases: the shared steps (``common/serde.py``) awaited on an
:class:`AsyncSchemaRegistryClient`."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from ...serialization import Deserializer, SerializationContext, Serializer
from ..common.serde import FALLBACK_TYPE, KAFKA_CLUSTER_ID, SerdeBase, SerdeOp, run_async
from .._sync.serde import AssociatedNameStrategy

__all__ = ["AsyncAssociatedNameStrategy", "AsyncBaseSerde", "AsyncBaseSerializer", "AsyncBaseDeserializer",
           "KAFKA_CLUSTER_ID", "FALLBACK_TYPE"]


class AsyncAssociatedNameStrategy(AssociatedNameStrategy):
    """The asyncio form of :class:`AssociatedNameStrategy` (its call is a coroutine)."""

    async def __call__(self, ctx: Optional[SerializationContext], record_name: Optional[str],  # type: ignore[override]
                       schema_registry_client: Any = None,
                       conf: Optional[Dict[str, Any]] = None) -> Optional[str]:
        """The subject for ``ctx``'s topic and field (see :class:`AssociatedNameStrategy`).

        :param ctx: the serialization context (required).
        :param record_name: the record's name, for the fallback strategies.
        :param schema_registry_client: the async client to query.
        :param conf: the strategy's settings.
        :returns: the subject name.
        """
        found: Optional[str] = await run_async(
            self._op(ctx, record_name, conf, schema_registry_client is not None), schema_registry_client)
        return found

    async def clear_cache(self) -> None:  # type: ignore[override]
        """Forget the subjects found."""
        AssociatedNameStrategy.clear_cache(self)


class AsyncBaseSerde(SerdeBase):
    """What every asynchronous Schema Registry serde has."""

    _registry: Any
    _owns_registry: bool = False

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Give the associated subject name strategy the Kafka cluster id.

        :param resolver: returns the cluster id.
        """
        strategy = self._conf.strategy
        if isinstance(strategy, AssociatedNameStrategy):
            strategy.set_cluster_id_resolver(resolver)

    def own_schema_registry_client(self) -> None:
        """Make this serde close its Schema Registry client when it is closed."""
        self._owns_registry = True

    async def aclose(self) -> None:
        """Close the executors and actions of a rule registry of this serde's own (never the
        global one's) and the Schema Registry client if this serde owns it."""
        try:
            self._close_rule_registry()
        finally:
            if self._owns_registry:
                self._owns_registry = False
                if self._registry is not None:
                    await self._registry.aclose()

    async def _run(self, op: SerdeOp) -> Any:
        return await run_async(op, self._registry)


class AsyncBaseSerializer(AsyncBaseSerde, Serializer):
    """Base of the asynchronous Schema Registry serializers."""


class AsyncBaseDeserializer(AsyncBaseSerde, Deserializer):
    """Base of the asynchronous Schema Registry deserializers."""
