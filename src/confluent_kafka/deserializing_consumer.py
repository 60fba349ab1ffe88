"""A Consumer that deserializes keys and values with the deserializers given in its config."""

from __future__ import annotations

from collections import deque
from typing import Any, Deque, Generic, List, Mapping, Optional, Union

from ._types import K, V
from .cimpl import Consumer, Message
from .error import ConsumeError, KeyDeserializationError, ValueDeserializationError
from .serialization import MessageField, SerializationContext
from .serialization import _serdes

__all__ = ["DeserializingConsumer"]

# A message still to be deserialized, or the error a batch stopped at (raised on the next call).
_Pending = Union[Message, ConsumeError]


def deserialize(msg: Message, key_deserializer: Any, value_deserializer: Any) -> Message:
    """``msg`` with its key and value deserialized in place (the key first, then the value, with
    one context whose ``field`` changes in between); both are set only once both succeeded.

    :raises ~confluent_kafka.error.KeyDeserializationError: if the key deserializer raised.
    :raises ~confluent_kafka.error.ValueDeserializationError: if the value deserializer raised.
    """
    ctx = SerializationContext(msg.topic(), MessageField.KEY, msg.headers())  # type: ignore[arg-type]
    key: Any = msg.key()
    if key_deserializer is not None:
        try:
            key = key_deserializer(key, ctx)
        except Exception as e:
            raise KeyDeserializationError(exception=e, kafka_message=msg) from e
    value: Any = msg.value()
    if value_deserializer is not None:
        ctx.field = MessageField.VALUE
        try:
            value = value_deserializer(value, ctx)
        except Exception as e:
            raise ValueDeserializationError(exception=e, kafka_message=msg) from e
    msg.set_key(key)
    msg.set_value(value)
    return msg


class DeserializingConsumer(Consumer, Generic[K, V]):
    """A :class:`~confluent_kafka.Consumer` whose messages come back deserialized.

    Besides the usual client settings the config takes these Python-only keys:

    * ``key.deserializer``: ``fn(data, ctx) -> object`` (e.g. a
      :class:`~confluent_kafka.serialization.StringDeserializer`); without it keys stay bytes.
    * ``value.deserializer``: the same for values.
    * ``key.deserializer.builder`` / ``value.deserializer.builder``: a
      :class:`~confluent_kafka.serialization.DeserializerBuilder` that makes the deserializer
      from the configuration instead (one or the other, not both). The consumer owns what a
      builder made and closes it in :meth:`close`; ready-made deserializers stay the caller's.

    :meth:`poll`, :meth:`consume` and iteration return :class:`~confluent_kafka.Message` objects
    whose ``key()`` and ``value()`` are the deserialized objects. An error event raises
    :class:`~confluent_kafka.error.ConsumeError`, a failing deserializer
    :class:`~confluent_kafka.error.KeyDeserializationError` or
    :class:`~confluent_kafka.error.ValueDeserializationError`; the message concerned is the
    exception's ``kafka_message``, and consumption continues after it on the next call.
    Deserializers that need the cluster id get a resolver through ``set_cluster_id_resolver``.

    :param conf: the configuration; keyword arguments are merged over it.
    :raises ValueError: if a deserializer and its builder are both configured.
    """

    _key_deserializer: Any
    _value_deserializer: Any
    _owned_serdes: List[Any]

    def __init__(self, conf: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        # Messages of a batch left over when consume() stopped at a failing one.
        self._pending: Deque[_Pending] = deque()
        _serdes.start(self, ("key.deserializer", "value.deserializer"), ("_key_deserializer", "_value_deserializer"),
                      conf, kwargs, super().__init__)

    def _deserialize(self, msg: Message) -> Message:
        """``msg`` deserialized in place; raises ConsumeError and kin."""
        err = msg.error()
        if err is not None:
            raise ConsumeError(err, kafka_message=msg)
        return deserialize(msg, self._key_deserializer, self._value_deserializer)

    def close(self) -> None:
        """Leave the group and close the consumer (as ``Consumer.close``), then the
        deserializers it built. Idempotent; if closing the consumer raises, the deserializers
        are kept for the next call."""
        super().close()
        owned, self._owned_serdes = self._owned_serdes, []
        _serdes.close_all(owned)

    def __exit__(self, *exc: object) -> None:
        """Close the consumer and its deserializers (see :meth:`close`)."""
        self.close()
        return None

    def _take_pending(self, limit: int) -> List[_Pending]:
        return [self._pending.popleft() for _ in range(min(limit, len(self._pending)))]

    def _deserialize_all(self, batch: List[_Pending]) -> List[Message]:
        """Deserialize ``batch`` in order. At the first failure: return what came before it and
        keep the failure and the rest for the next call, or raise it if nothing came before."""
        out: List[Message] = []
        for i, item in enumerate(batch):
            try:
                if isinstance(item, ConsumeError):
                    raise item
                out.append(self._deserialize(item))
            except ConsumeError as e:
                rest = batch[i + 1:]
                if out:
                    rest.insert(0, e)
                self._pending.extendleft(reversed(rest))
                if out:
                    return out
                raise
        return out

    def poll(self, timeout: Optional[float] = -1) -> Optional[Message]:
        """The next message, deserialized, or None when none arrived within ``timeout`` seconds.

        Raises ConsumeError for an error event (including end-of-partition notices when
        ``enable.partition.eof`` is set), Key/ValueDeserializationError when a deserializer fails.

        :param timeout: seconds to wait; None or negative waits without limit.
        :returns: the deserialized Message, or None on timeout.
        :raises ~confluent_kafka.error.ConsumeError: for an error event.
        :raises ~confluent_kafka.error.KeyDeserializationError: when the key deserializer fails.
        :raises ~confluent_kafka.error.ValueDeserializationError: when the value deserializer fails.
        """
        if self._pending:
            return self._deserialize_all(self._take_pending(1))[0]
        msg = super().poll(timeout)
        if msg is None:
            return None
        return self._deserialize(msg)

    def consume(self, num_messages: int = 1, timeout: Optional[float] = -1) -> List[Message]:
        """Up to ``num_messages`` messages, deserialized, waiting at most ``timeout`` seconds.

        If a message of the batch fails (an error event or a deserializer error), the messages
        before it are returned and the next call raises its error; a batch whose first message
        fails raises at once. No message is skipped: later calls carry on after the failure.

        :param num_messages: the most messages to return (1 to 1000000).
        :param timeout: seconds to wait; None or negative waits without limit.
        :returns: list of deserialized Message.
        :raises ~confluent_kafka.error.ConsumeError: for an error event first in the batch.
        :raises ~confluent_kafka.error.KeyDeserializationError: when the key deserializer fails.
        :raises ~confluent_kafka.error.ValueDeserializationError: when the value deserializer fails.
        """
        if self._pending:
            if isinstance(num_messages, bool) or not isinstance(num_messages, int):
                raise TypeError(f"num_messages must be an int, not {type(num_messages).__name__}")
            if not 1 <= num_messages <= 1_000_000:
                raise ValueError(f"num_messages must be between 1 and 1000000, got {num_messages}")
            return self._deserialize_all(self._take_pending(num_messages))
        batch: List[_Pending] = list(super().consume(num_messages, timeout))
        return self._deserialize_all(batch)

    def __iter__(self) -> "DeserializingConsumer[K, V]":
        """Iterate over deserialized messages; ``consumer_timeout_ms`` of idleness ends the loop."""
        super().__iter__()
        return self

    def __next__(self) -> Message:
        """The next deserialized message; error events raise KafkaException, failing
        deserializers Key/ValueDeserializationError."""
        if self._pending:
            return self._deserialize_all(self._take_pending(1))[0]
        return self._deserialize(super().__next__())
