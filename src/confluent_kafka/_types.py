"""Type aliases shared by the client modules (the names confluent-kafka-python defines here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

#: Message headers: a dict of name to value, or a list of (name, value) pairs.
HeadersType = Union[Dict[str, Union[str, bytes, None]], List[Tuple[str, Union[str, bytes, None]]]]

#: ``serializer(obj, ctx) -> bytes``.
Serializer = Callable[[Any, Any], bytes]
#: ``deserializer(data, ctx) -> object``.
Deserializer = Callable[[Optional[bytes], Any], Any]
#: ``on_delivery(err, msg)``.
DeliveryCallback = Callable[[Optional[Any], Any], None]
#: ``on_assign(consumer, partitions)`` and the other rebalance callbacks.
RebalanceCallback = Callable[[Any, List[Any]], None]
#: ``on_commit(offsets, exception)`` of a share consumer's acknowledgements.
AcknowledgementCommitCallback = Callable[[Dict[Any, Any], Optional[Any]], None]

#: The key and value types of the serializing clients (``SerializingProducer[K, V]`` and the others).
if TYPE_CHECKING:
    # Defaults (PEP 696) so that an unparameterized client is [Any, Any] to a type checker,
    # not an error asking for annotations; type checkers always have typing_extensions.
    from typing_extensions import TypeVar

    K = TypeVar("K", default=Any)
    V = TypeVar("V", default=Any)
else:
    from typing import TypeVar

    K = TypeVar("K")
    V = TypeVar("V")
