"""The synchronous serde bases: the shared steps (``common/serde.py``) run on a
:class:`SchemaRegistryClient`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Generic, Optional, Tuple, TypeVar, cast

from ...serialization import Deserializer, Serializer
from ..common.serde import (  # noqa: F401 - AssociatedNameStrategy, check_client_or_conf: their old import paths
    FALLBACK_TYPE,
    KAFKA_CLUSTER_ID,
    AssociatedNameStrategy,
    SerdeBase,
    SerdeOp,
    build_serde_op,
    check_client_or_conf,
    run_sync,
)

if TYPE_CHECKING:
    from ..common._builders import SerdeBuilderBase

__all__ = ["AssociatedNameStrategy", "BaseSerde", "BaseSerializer", "BaseDeserializer", "build_serde",
           "KAFKA_CLUSTER_ID", "FALLBACK_TYPE"]

_S = TypeVar("_S", bound="BaseSerde")


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

    serde: _S = run_sync(build_serde_op(schema_registry_client, schema_registry_conf, SchemaRegistryClient.new_client,
                                        construct, init, "close"), None)
    return serde

def build_sync(builder: "SerdeBuilderBase", conf: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
    """Build ``builder``'s serde (see ``common/_builders.py``).

    :returns: (serde, a copy of ``conf``).
    :raises ValueError: when both a client and a client configuration are set, or a setting
        the serde needs is missing.
    """
    builder._ready()
    serde = build_serde(builder._schema_registry_client, builder._schema_registry_conf, builder._construct,
                        builder._init)
    return serde, dict(conf)


_T = TypeVar("_T")


class SyncBuild(Generic[_T]):
    """``build()`` of the synchronous serde builders, making a ``_T``."""

    def build(self, conf: Dict[str, Any], is_key: bool) -> Tuple[_T, Dict[str, Any]]:
        """Make the serde (the serializing producer or deserializing consumer calls this).

        :param conf: the client's configuration, handed back unchanged.
        :param is_key: whether the serde is for keys.
        :returns: the serde and the configuration.
        :raises ValueError: when a setting the serde needs is missing (a Protobuf message type), or both a
            client and a client configuration are set.
        """
        return cast(Tuple[_T, Dict[str, Any]], build_sync(cast("SerdeBuilderBase", self), conf))


class BaseSerde(SerdeBase):
    """What every synchronous Schema Registry serde has."""

    _registry: Any
    _owns_registry: bool = False

    def _start(self, schema_registry_client: Any, init: SerdeOp, rule_conf: Optional[Dict[str, Any]],
               rule_registry: Any) -> None:
        """What every constructor does: keep the client, run the format's first steps (``init``:
        the configuration and the schema) on it, then configure the rule executors and actions."""
        self._registry = schema_registry_client
        self._run(init)
        self._init_rules(rule_conf, rule_registry)

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
