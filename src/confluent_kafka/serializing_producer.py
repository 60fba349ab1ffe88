"""A Producer that serializes keys and values with the serializers given in its config."""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

from .cimpl import KafkaError, Message, Producer
from .error import KeySerializationError, ValueSerializationError
from .serialization import MessageField, SerializationContext

__all__ = ["SerializingProducer"]

_SerializerFn = Callable[[Any, SerializationContext], Optional[bytes]]
_Headers = Union[Sequence[Tuple[str, Union[str, bytes, None]]], Mapping[str, Union[str, bytes, None]]]


def _split_conf(conf: Optional[Mapping[str, Any]], kwargs: Dict[str, Any], names: Sequence[str]
                ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(client config, the Python-only ``names`` taken out of it); kwargs merge over conf."""
    if conf is not None and not isinstance(conf, Mapping):
        raise TypeError(f"conf must be a dict, not {type(conf).__name__}")
    merged = {**(conf or {}), **kwargs}
    taken = {n: merged.pop(n) for n in names if n in merged}
    for name, fn in taken.items():
        if fn is not None and not callable(fn):
            raise TypeError(f"{name} must be callable as fn(obj, ctx), not {type(fn).__name__}")
    return merged, taken


class SerializingProducer(Producer):
    """A :class:`~confluent_kafka.Producer` that runs keys and values through serializers.

    Besides the usual client settings the config takes two Python-only keys:

    * ``key.serializer``: ``fn(key, ctx) -> bytes | None`` (e.g. a
      :class:`~confluent_kafka.serialization.StringSerializer`); without it keys are sent as given.
    * ``value.serializer``: the same for values.

    ``ctx`` is a :class:`~confluent_kafka.serialization.SerializationContext` with the topic, the
    field and the headers. A serializer that raises makes :meth:`produce` raise
    :class:`~confluent_kafka.error.KeySerializationError` or
    :class:`~confluent_kafka.error.ValueSerializationError`; nothing is enqueued then.
    """

    def __init__(self, conf: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> None:
        client_conf, taken = _split_conf(conf, kwargs, ("key.serializer", "value.serializer"))
        self._key_serializer: Optional[_SerializerFn] = taken.get("key.serializer")
        self._value_serializer: Optional[_SerializerFn] = taken.get("value.serializer")
        super().__init__(client_conf)

    def produce(  # type: ignore[override]  # key before value, as upstream's SerializingProducer
        self,
        topic: str,
        key: Any = None,
        value: Any = None,
        partition: int = -1,
        on_delivery: Optional[Callable[[Optional[KafkaError], Message], object]] = None,
        timestamp: int = 0,
        headers: Optional[_Headers] = None,
    ) -> None:
        """Serialize ``key`` and ``value``, then enqueue the message like ``Producer.produce``.

        Raises KeySerializationError / ValueSerializationError when a serializer fails,
        BufferError when the local queue is full, KafkaException for other errors.
        """
        if self._key_serializer is not None:
            ctx = SerializationContext(topic, MessageField.KEY, headers)
            try:
                key = self._key_serializer(key, ctx)
            except Exception as e:
                raise KeySerializationError(e) from e
        if self._value_serializer is not None:
            ctx = SerializationContext(topic, MessageField.VALUE, headers)
            try:
                value = self._value_serializer(value, ctx)
            except Exception as e:
                raise ValueSerializationError(e) from e
        super().produce(topic, value, key, partition=partition, on_delivery=on_delivery,
                        timestamp=timestamp, headers=headers)
