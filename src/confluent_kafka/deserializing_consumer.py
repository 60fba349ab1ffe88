"""A Consumer that deserializes keys and values with the deserializers given in its config."""

from __future__ import annotations

from collections import deque
from typing import Any, Callable, Deque, List, Mapping, Optional, Union

from .cimpl import Consumer, Message
from .error import ConsumeError, KeyDeserializationError, ValueDeserializationError
from .serialization import MessageField, SerializationContext
from .serializing_producer import _split_conf

__all__ = ["DeserializingConsumer"]

_DeserializerFn = Callable[[Optional[bytes], SerializationContext], Any]
# A message still to be deserialized, or the error a batch stopped at (raised on the next call).
_Pending = Union[Message, ConsumeError]


class DeserializingConsumer(Consumer):
    """A :class:`~confluent_kafka.Consumer` whose messages come back deserialized.

    Besides the usual client settings the config takes two Python-only keys:

    * ``key.deserializer``: ``fn(data, ctx) -> object`` (e.g. a
      :class:`~confluent_kafka.serialization.StringDeserializer`); without it keys stay bytes.
    * ``value.deserializer``: the same for values.

    :meth:`poll`, :meth:`consume` and iteration return :class:`~confluent_kafka.Message` objects
    whose ``key()`` and ``value()`` are the deserialized objects. An error event raises
    :class:`~confluent_kafka.error.ConsumeError`, a failing deserializer
    :class:`~confluent_kafka.error.KeyDeserializationError` or
    :class:`~confluent_kafka.error.ValueDeserializationError`; the message concerned is the
    exception's ``kafka_message``, and consumption continues after it on the next call.
    """

    def __init__(self, conf: Optional[Mapping[str, Any]] = None, /, **kwargs: Any) -> None:
        client_conf, taken = _split_conf(conf, kwargs, ("key.deserializer", "value.deserializer"))
        self._key_deserializer: Optional[_DeserializerFn] = taken.get("key.deserializer")
        self._value_deserializer: Optional[_DeserializerFn] = taken.get("value.deserializer")
        # Messages of a batch left over when consume() stopped at a failing one.
        self._pending: Deque[_Pending] = deque()
        super().__init__(client_conf)

    def _deserialize(self, msg: Message) -> Message:
        """``msg`` with its key and value deserialized in place; raises ConsumeError and kin."""
        err = msg.error()
        if err is not None:
            raise ConsumeError(err, kafka_message=msg)
        headers = msg.headers()
        if self._value_deserializer is not None:
            ctx = SerializationContext(msg.topic(), MessageField.VALUE, headers)
            try:
                value = self._value_deserializer(msg.value(), ctx)
            except Exception as e:
                raise ValueDeserializationError(e, msg) from e
        if self._key_deserializer is not None:
            ctx = SerializationContext(msg.topic(), MessageField.KEY, headers)
            try:
                key = self._key_deserializer(msg.key(), ctx)
            except Exception as e:
                raise KeyDeserializationError(e, msg) from e
            msg.set_key(key)
        if self._value_deserializer is not None:
            msg.set_value(value)
        return msg

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
        """
        if self._pending:
            if isinstance(num_messages, bool) or not isinstance(num_messages, int):
                raise TypeError(f"num_messages must be an int, not {type(num_messages).__name__}")
            if not 1 <= num_messages <= 1_000_000:
                raise ValueError(f"num_messages must be between 1 and 1000000, got {num_messages}")
            return self._deserialize_all(self._take_pending(num_messages))
        batch: List[_Pending] = list(super().consume(num_messages, timeout))
        return self._deserialize_all(batch)

    def __iter__(self) -> "DeserializingConsumer":
        """Iterate over deserialized messages; ``consumer_timeout_ms`` of idleness ends the loop."""
        super().__iter__()
        return self

    def __next__(self) -> Message:
        """The next deserialized message; error events raise KafkaException, failing
        deserializers Key/ValueDeserializationError."""
        if self._pending:
            return self._deserialize_all(self._take_pending(1))[0]
        return self._deserialize(super().__next__())
