"""The asynchronous serde bases: the shared steps (``common/serde.py``) awaited on an
:class:`AsyncSchemaRegistryClient`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Coroutine, Dict, Generic, Optional, Tuple, TypeVar, cast

from ...serialization import Deserializer, SerializationContext, Serializer
from ..common.serde import (
    FALLBACK_TYPE,
    KAFKA_CLUSTER_ID,
    AssociatedNameStrategy,
    SerdeBase,
    SerdeOp,
    build_serde_op,
    run_async,
)

if TYPE_CHECKING:
    from ..common._builders import SerdeBuilderBase

__all__ = ["AsyncAssociatedNameStrategy", "AsyncBaseSerde", "AsyncBaseSerializer", "AsyncBaseDeserializer",
           "async_build_serde", "KAFKA_CLUSTER_ID", "FALLBACK_TYPE"]


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

    def set_async_cluster_id_resolver(self, resolver: Callable[[], Awaitable[Any]]) -> None:
        """The coroutine function giving the Kafka cluster id, the namespace of the association
        lookups when ``subject.name.strategy.kafka.cluster.id`` is not set.

        :param resolver: awaited on a cache miss only.
        """
        self._cluster_id_resolver = resolver


_S = TypeVar("_S", bound="AsyncBaseSerde")


async def async_build_serde(schema_registry_client: Any, schema_registry_conf: Optional[Dict[str, Any]],
                            construct: Callable[[Any], Awaitable[_S]],
                            init: Optional[Callable[[_S], Awaitable[None]]] = None) -> _S:
    """The asyncio form of :func:`~confluent_kafka.schema_registry.serde.build_serde`:
    ``construct`` and ``init`` are awaited, and a client made here is an
    :class:`AsyncSchemaRegistryClient`.

    :param schema_registry_client: the application's client, or None.
    :param schema_registry_conf: the configuration of a client to make instead, or None.
    :param construct: makes the serde from the client (awaited).
    :param init: awaited with the serde once made.
    :returns: the serde.
    :raises ValueError: when both a client and a configuration are given.
    """
    from .schema_registry_client import AsyncSchemaRegistryClient

    serde: _S = await run_async(build_serde_op(schema_registry_client, schema_registry_conf,
                                               AsyncSchemaRegistryClient.new_client, construct, init, "aclose"), None)
    return serde

async def build_async(builder: "SerdeBuilderBase", conf: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
    """:func:`~confluent_kafka.schema_registry._sync.serde.build_sync` for the async builders (the
    serde is awaited, and so is ``init``)."""
    builder._ready()
    serde = await async_build_serde(builder._schema_registry_client, builder._schema_registry_conf,
                                    builder._construct, builder._init)
    return serde, dict(conf)


_T = TypeVar("_T")


class AsyncBuild(Generic[_T]):
    """``build()`` of the asynchronous serde builders, making a ``_T``."""

    def build(self, conf: Dict[str, Any], is_key: bool) -> Coroutine[Any, Any, Tuple[_T, Dict[str, Any]]]:
        """Make the serde (the asyncio serializing producer or deserializing consumer awaits this).

        :param conf: the client's configuration, handed back unchanged.
        :param is_key: whether the serde is for keys.
        :returns: a coroutine of the serde and the configuration.
        """
        return cast(Coroutine[Any, Any, Tuple[_T, Dict[str, Any]]], build_async(cast("SerdeBuilderBase", self), conf))


class AsyncBaseSerde(SerdeBase):
    """What every asynchronous Schema Registry serde has."""

    _registry: Any
    _owns_registry: bool = False

    async def _start(self, schema_registry_client: Any, init: SerdeOp, rule_conf: Optional[Dict[str, Any]],
                     rule_registry: Any) -> None:
        """What every constructor does (see the synchronous serde's ``_start``), the steps awaited."""
        self._registry = schema_registry_client
        await self._run(init)
        self._init_rules(rule_conf, rule_registry)

    def _new_associated_strategy(self) -> Any:
        return AsyncAssociatedNameStrategy()

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Give the associated subject name strategy the Kafka cluster id.

        :param resolver: returns the cluster id (or an awaitable of it).
        """
        strategy = self._conf.strategy
        if isinstance(strategy, AssociatedNameStrategy):
            strategy.set_cluster_id_resolver(resolver)

    def set_async_cluster_id_resolver(self, resolver: Callable[[], Awaitable[Any]]) -> None:
        """Give the associated subject name strategy the Kafka cluster id: the asyncio
        serializing clients call this with a coroutine function, awaited on the strategy's
        first lookup (not at all when ``subject.name.strategy.kafka.cluster.id`` is set).
        Other strategies ignore it.

        :param resolver: a coroutine function returning the cluster id.
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

    async def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:  # type: ignore[override]
        """Encode ``obj`` as the format's synchronous serializer does (JSON: validated first).

        :param obj: the value; None gives None.
        :param ctx: the serialization context.
        :returns: the framed bytes.
        """
        result: Optional[bytes] = await self._run(self._serialize_op(obj, ctx))
        return result


class AsyncBaseDeserializer(AsyncBaseSerde, Deserializer):
    """Base of the asynchronous Schema Registry deserializers."""

    async def __call__(self, data: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Decode framed bytes as the format's synchronous deserializer does.

        :param data: the bytes; None gives None.
        :param ctx: the serialization context.
        :returns: the record (for Protobuf, an instance of the message type).
        """
        return await self._run(self._deserialize_op(data, ctx))
