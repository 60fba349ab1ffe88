"""A Producer that serializes keys and values with the serializers given in its config."""

from __future__ import annotations

from typing import Any, Generic, List, Mapping, Optional

from ._types import DeliveryCallback, HeadersType, K, V
from .cimpl import Producer
from .error import KeySerializationError, ValueSerializationError
from .serialization import MessageField, SerializationContext
from .serialization import _serdes

__all__ = ["SerializingProducer"]


class SerializingProducer(Producer, Generic[K, V]):
    """A :class:`~confluent_kafka.Producer` that runs keys and values through serializers.

    Besides the usual client settings the config takes these Python-only keys:

    * ``key.serializer``: ``fn(key, ctx) -> bytes | None`` (e.g. a
      :class:`~confluent_kafka.serialization.StringSerializer`); without it keys are sent as given.
    * ``value.serializer``: the same for values.
    * ``key.serializer.builder`` / ``value.serializer.builder``: a
      :class:`~confluent_kafka.serialization.SerializerBuilder` that makes the serializer from
      the configuration instead (one or the other, not both). The producer owns what a builder
      made and closes it in :meth:`close`; ready-made serializers stay the caller's.

    ``ctx`` is a :class:`~confluent_kafka.serialization.SerializationContext` with the topic, the
    field and the headers. A serializer that raises makes :meth:`produce` raise
    :class:`~confluent_kafka.error.KeySerializationError` or
    :class:`~confluent_kafka.error.ValueSerializationError`; nothing is enqueued then.
    Serializers that need the cluster id get a resolver through ``set_cluster_id_resolver``.

    The class is generic in the key and value types ``produce()`` takes
    (``SerializingProducer[str, dict]``).

    :param conf: the configuration; keyword arguments are merged over it.
    :raises ValueError: if a serializer and its builder are both configured.
    """

    _key_serializer: Any
    _value_serializer: Any
    _owned_serdes: List[Any]

    def __init__(self, conf: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        self._closed = False
        _serdes.start(self, ("key.serializer", "value.serializer"), ("_key_serializer", "_value_serializer"),
                      conf, kwargs, super().__init__)

    def produce(  # type: ignore[override]  # key before value, as upstream's SerializingProducer
        self,
        topic: str,
        key: Optional[K] = None,
        value: Optional[V] = None,
        partition: int = -1,
        on_delivery: Optional[DeliveryCallback] = None,
        timestamp: int = 0,
        headers: Optional[HeadersType] = None,
    ) -> None:
        """Serialize ``key`` and ``value``, then enqueue the message like ``Producer.produce``.

        The key serializer runs first, then the value serializer, with one context whose
        ``field`` changes from KEY to VALUE in between.

        :param topic: the topic to produce to.
        :param key: the key, handed to ``key.serializer``.
        :param value: the value, handed to ``value.serializer``.
        :param partition: the partition, or -1 for the configured partitioner.
        :param on_delivery: ``on_delivery(err, msg)`` for this message.
        :param timestamp: CreateTime in milliseconds since the epoch; 0 for now.
        :param headers: the headers (a dict or a list of (name, value) pairs).
        :raises RuntimeError: if the producer was closed (before any serializer runs).
        :raises TypeError: if ``topic`` is not a str (before any serializer runs).
        :raises ~confluent_kafka.error.KeySerializationError: if the key serializer raised.
        :raises ~confluent_kafka.error.ValueSerializationError: if the value serializer raised.
        :raises BufferError: if the local queue is full.
        :raises ~confluent_kafka.KafkaException: for other errors.
        """
        # Checked before the serializers run: they may have side effects (schema registration).
        if self._closed:
            raise RuntimeError("Producer has been closed")
        if not isinstance(topic, str):
            raise TypeError(f"topic must be a str, not {type(topic).__name__}")
        key_data: Any = key
        value_data: Any = value
        ctx = SerializationContext(topic, MessageField.KEY, headers)
        if self._key_serializer is not None:
            try:
                key_data = self._key_serializer(key, ctx)
            except Exception as e:
                raise KeySerializationError(e) from e
        ctx.field = MessageField.VALUE
        if self._value_serializer is not None:
            try:
                value_data = self._value_serializer(value, ctx)
            except Exception as e:
                raise ValueSerializationError(e) from e
        super().produce(topic, value_data, key_data, partition=partition, on_delivery=on_delivery,
                        timestamp=timestamp, headers=headers)

    def close(self, *args: Any, **kwargs: Any) -> bool:
        """Flush and close the producer (as ``Producer.close``), then the serializers it built.

        Idempotent. If closing the producer raises, the serializers are kept for the next call.

        :returns: what ``Producer.close`` returned.
        """
        result: bool = super().close(*args, **kwargs)
        self._closed = True
        owned, self._owned_serdes = self._owned_serdes, []
        _serdes.close_all(owned)
        return result

    def __exit__(self, *exc: object) -> None:
        """Close the producer and its serializers (see :meth:`close`)."""
        self.close()
        return None
