"""The synchronous serde bases: the shared steps (``common/serde.py``) run on a
:class:`SchemaRegistryClient`."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar

from ...serialization import Deserializer, MessageField, SerializationContext, Serializer
from ..common.serde import FALLBACK_TYPE, KAFKA_CLUSTER_ID, SerdeBase, SerdeOp, associated_subject_op, run_sync

__all__ = ["AssociatedNameStrategy", "BaseSerde", "BaseSerializer", "BaseDeserializer", "build_serde",
           "KAFKA_CLUSTER_ID", "FALLBACK_TYPE"]

log = logging.getLogger("confluent_kafka.schema_registry.serde")

DEFAULT_CACHE_CAPACITY = 1000


class AssociatedNameStrategy:
    """The subject associated with the topic in the registry (key or value association),
    falling back to ``topic_subject_name_strategy`` when there is none (or to the strategy
    named by ``subject.name.strategy.fallback.type``: TOPIC, RECORD, TOPIC_RECORD or NONE).
    Found subjects are cached (LRU).

    :param cache_capacity: how many (topic, key/value, record name) answers to keep.
    """

    def __init__(self, cache_capacity: int = DEFAULT_CACHE_CAPACITY) -> None:
        self._capacity = cache_capacity
        self._cache: "OrderedDict[Tuple[str, bool, Optional[str]], str]" = OrderedDict()
        self._lock = threading.Lock()
        self._cluster_id_resolver: Optional[Callable[[], Any]] = None

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """The function giving the Kafka cluster id, the namespace of the association lookups
        when ``subject.name.strategy.kafka.cluster.id`` is not set.

        :param resolver: called on a cache miss only.
        """
        self._cluster_id_resolver = resolver

    def _op(self, ctx: Optional[SerializationContext], record_name: Optional[str], conf: Optional[Dict[str, Any]],
            has_client: bool) -> SerdeOp:
        if ctx is None:
            raise ValueError("SerializationContext is required for AssociatedNameStrategy. "
                             "Either provide a SerializationContext or use a different strategy.")
        if ctx.topic is None:
            return None
        key = (ctx.topic, ctx.field == MessageField.KEY, record_name)
        with self._lock:
            known = self._cache.get(key)
            if known is not None:
                self._cache.move_to_end(key)
                return known
        found = yield from associated_subject_op(ctx, record_name, conf, has_client, self._cluster_id_resolver)
        if found is not None:
            with self._lock:
                self._cache[key] = found
                while len(self._cache) > self._capacity:
                    self._cache.popitem(last=False)
        return found

    def __call__(self, ctx: Optional[SerializationContext], record_name: Optional[str],
                 schema_registry_client: Any = None, conf: Optional[Dict[str, Any]] = None) -> Optional[str]:
        """The subject for ``ctx``'s topic and field.

        :param ctx: the serialization context (required).
        :param record_name: the record's name, for the fallback strategies.
        :param schema_registry_client: the client to query.
        :param conf: ``subject.name.strategy.kafka.cluster.id`` and
            ``subject.name.strategy.fallback.type``.
        :returns: the subject name.
        :raises ValueError: when ``ctx`` is None.
        :raises ~confluent_kafka.serialization.SerializationError: for several associated subjects, or none with
            fallback NONE.
        """
        found: Optional[str] = run_sync(self._op(ctx, record_name, conf, schema_registry_client is not None),
                                        schema_registry_client)
        return found

    def clear_cache(self) -> None:
        """Forget the subjects found."""
        with self._lock:
            self._cache.clear()


_S = TypeVar("_S", bound="BaseSerde")


def check_client_or_conf(schema_registry_client: Any, schema_registry_conf: Optional[Dict[str, Any]]) -> None:
    """A serde builder takes a Schema Registry client or the configuration to make one, not both.

    :raises ValueError: when both are given.
    """
    if schema_registry_client is not None and schema_registry_conf is not None:
        raise ValueError("Cannot specify both a Schema Registry client and a configuration; use one or the other")


def build_serde(schema_registry_client: Any, schema_registry_conf: Optional[Dict[str, Any]],
                construct: Callable[[Any], _S], init: Optional[Callable[[_S], None]] = None) -> _S:
    """Make a serde for a builder: ``construct(client)``, with the client given, or made from
    ``schema_registry_conf`` (then owned by the serde, which closes it when it is closed), or
    None when neither is given; then ``init(serde)`` for the application's own setup. A client
    made here is closed if ``construct`` fails; the serde is closed if ``init`` fails.

    :param schema_registry_client: the application's client, or None.
    :param schema_registry_conf: the configuration of a client to make instead, or None.
    :param construct: makes the serde from the client.
    :param init: called with the serde once made.
    :returns: the serde.
    :raises ValueError: when both a client and a configuration are given.
    """
    from .schema_registry_client import SchemaRegistryClient

    check_client_or_conf(schema_registry_client, schema_registry_conf)
    client = schema_registry_client
    owned = client is None and schema_registry_conf is not None
    if owned:
        assert schema_registry_conf is not None
        client = SchemaRegistryClient.new_client(schema_registry_conf)
    try:
        serde = construct(client)
    except BaseException:
        if owned:
            try:
                client.close()
            except Exception:
                log.warning("Failed to close the Schema Registry client of a serde that failed to build",
                            exc_info=True)
        raise
    if owned:
        serde.own_schema_registry_client()
    if init is not None:
        try:
            init(serde)
        except BaseException:
            try:
                serde.close()
            except Exception:
                log.warning("Failed to close a serde whose init callback failed", exc_info=True)
            raise
    return serde


class BaseSerde(SerdeBase):
    """What every synchronous Schema Registry serde has."""

    _registry: Any
    _owns_registry: bool = False

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Give the associated subject name strategy the Kafka cluster id (ignored by the other
        strategies).

        :param resolver: returns the cluster id.
        """
        strategy = self._conf.strategy
        if isinstance(strategy, AssociatedNameStrategy):
            strategy.set_cluster_id_resolver(resolver)

    def own_schema_registry_client(self) -> None:
        """Make this serde close its Schema Registry client when it is closed."""
        self._owns_registry = True

    def close(self) -> None:
        """Close the executors and actions of a rule registry of this serde's own (never the
        global one's) and the Schema Registry client if this serde owns it. Safe to call more
        than once."""
        try:
            self._close_rule_registry()
        finally:
            if self._owns_registry:
                self._owns_registry = False
                if self._registry is not None:
                    self._registry.close()

    def _run(self, op: SerdeOp) -> Any:
        return run_sync(op, self._registry)


class BaseSerializer(BaseSerde, Serializer):
    """Base of the synchronous Schema Registry serializers."""


class BaseDeserializer(BaseSerde, Deserializer):
    """Base of the synchronous Schema Registry deserializers."""
