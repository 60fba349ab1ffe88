"""AsyncSerializingProducer and AsyncDeserializingConsumer: the serializing clients on the asyncio
clients of this package (no thread pool).

Their builders and serdes may be asynchronous, so construction is awaited:
``producer = await AsyncSerializingProducer(conf)``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Callable, Deque, Dict, Generic, List, Mapping, Optional, Tuple

from .._types import HeadersType, K, V
from ..cimpl import KafkaError, Message
from ..deserializing_consumer import _Pending
from ..error import ConsumeError, KeyDeserializationError, KeySerializationError, ValueDeserializationError
from ..error import ValueSerializationError
from ..serialization import MessageField, SerializationContext
from ..serialization import _serdes
from ._consumer import AIOConsumer
from ._producer import AIOProducer

__all__ = ["AsyncDeserializingConsumer", "AsyncSerializingProducer"]

_PRODUCER_ARGS = ("max_workers", "executor", "batch_size", "buffer_timeout")
_CONSUMER_ARGS = ("max_workers", "executor")


def _split(kwargs: Dict[str, Any], names: Tuple[str, ...]) -> Dict[str, Any]:
    """Take the client's own keyword arguments out of ``kwargs`` (the rest is configuration)."""
    return {name: kwargs.pop(name) for name in names if name in kwargs}


async def _construct(cls: type, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    obj: Any = object.__new__(cls)
    await obj._init(*args, **kwargs)
    return obj


async def _start(client: Any, base_init: Callable[..., None], own_args: Tuple[str, ...], keys: Tuple[str, str],
                 attrs: Tuple[str, str], conf: Optional[Mapping[str, Any]], kwargs: Dict[str, Any]) -> None:
    """What both constructors do (:func:`_serdes.start_async`), the base client also given the
    ``own_args`` of ``kwargs``."""
    own = _split(kwargs, own_args)
    await _serdes.start_async(client, keys, attrs, conf, kwargs,
                              lambda client_conf: base_init(client, client_conf, **own))


class AsyncSerializingProducer(AIOProducer, Generic[K, V]):
    """An :class:`AIOProducer` that runs keys and values through serializers.

    ``producer = await AsyncSerializingProducer(conf, **kwargs)``: construction is awaited,
    since a serializer builder may be asynchronous. The configuration takes the keys of
    :class:`~confluent_kafka.SerializingProducer` (``key.serializer``, ``value.serializer`` and
    their ``.builder`` forms); a serializer may be a plain callable or return an awaitable.
    Serializers run on the event loop, so keep blocking ones cheap. Those with a
    ``set_async_cluster_id_resolver`` method get ``await resolver()`` for the cluster id. The
    producer closes in :meth:`close` what its builders made.

    :param conf: the configuration.
    :param kwargs: :class:`AIOProducer`'s ``max_workers``, ``executor``, ``batch_size`` and
        ``buffer_timeout`` (accepted and unused, see there); other keywords are configuration.
    :raises ValueError: if a serializer and its builder are both configured.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return _construct(cls, args, kwargs)

    _key_serializer: Any
    _value_serializer: Any
    _owned_serdes: List[Any]

    async def _init(self, conf: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        await _start(self, AIOProducer.__init__, _PRODUCER_ARGS, ("key.serializer", "value.serializer"),
                     ("_key_serializer", "_value_serializer"), conf, kwargs)

    __init__ = _init  # awaited by _construct, through __new__

    async def produce(  # type: ignore[override]  # key before value, as upstream's
        self,
        topic: str,
        key: Optional[K] = None,
        value: Optional[V] = None,
        partition: int = -1,
        timestamp: int = 0,
        headers: Optional[HeadersType] = None,
    ) -> "asyncio.Future[Message]":
        """Serialize ``key`` and ``value``, then enqueue the message like :meth:`AIOProducer.produce`.

        :param topic: the topic to produce to.
        :param key: the key, handed to ``key.serializer``.
        :param value: the value, handed to ``value.serializer``.
        :param partition: the partition, or -1 for the configured partitioner.
        :param timestamp: CreateTime in milliseconds since the epoch; 0 for now.
        :param headers: the headers (a dict or a list of (name, value) pairs); they are produced.
        :returns: a future resolving to the delivered Message.
        :raises RuntimeError: if the producer was closed (before any serializer runs).
        :raises TypeError: if ``topic`` is not a str (before any serializer runs).
        :raises ~confluent_kafka.error.KeySerializationError: if the key serializer raised.
        :raises ~confluent_kafka.error.ValueSerializationError: if the value serializer raised.
        """
        if self._closed:
            raise RuntimeError("Producer has been closed")
        if not isinstance(topic, str):
            raise TypeError(f"topic must be a str, not {type(topic).__name__}")
        key_data: Any = key
        value_data: Any = value
        ctx = SerializationContext(topic, MessageField.KEY, headers)
        if self._key_serializer is not None:
            try:
                key_data = await _serdes.maybe_await(self._key_serializer(key, ctx))
            except Exception as e:
                raise KeySerializationError(e) from e
        ctx.field = MessageField.VALUE
        if self._value_serializer is not None:
            try:
                value_data = await _serdes.maybe_await(self._value_serializer(value, ctx))
            except Exception as e:
                raise ValueSerializationError(e) from e
        return await AIOProducer.produce(self, topic, value_data, key_data, partition,
                                         timestamp=timestamp or None, headers=headers)

    async def close(self, timeout: Optional[float] = None) -> None:
        """Close the producer (see :meth:`AIOProducer.close`), then the serializers it built.

        :param timeout: seconds for the flush; None waits for every delivery.
        """
        if not self._closed:
            await AIOProducer.close(self, timeout)
        owned, self._owned_serdes = self._owned_serdes, []
        await _serdes.close_all_async(owned)


class AsyncDeserializingConsumer(AIOConsumer, Generic[K, V]):
    """An :class:`AIOConsumer` whose messages come back deserialized.

    ``consumer = await AsyncDeserializingConsumer(conf, **kwargs)``: construction is awaited,
    since a deserializer builder may be asynchronous. The configuration takes the keys of
    :class:`~confluent_kafka.DeserializingConsumer` (``key.deserializer``,
    ``value.deserializer`` and their ``.builder`` forms); a deserializer may be a plain callable
    or return an awaitable. They run on the event loop.

    :meth:`poll` raises :class:`~confluent_kafka.error.ConsumeError` for an error event;
    :meth:`consume` returns error events as they are, among the deserialized messages.
    A failing deserializer raises :class:`~confluent_kafka.error.KeyDeserializationError` or
    :class:`~confluent_kafka.error.ValueDeserializationError` with the raw message as
    ``kafka_message``; when it fails in the middle of a ``consume()`` batch, the messages before
    it are returned, the next call raises, and the calls after continue with the rest, so no
    message is lost. ``async for`` yields deserialized messages too.

    :param conf: the configuration.
    :param kwargs: :class:`AIOConsumer`'s ``max_workers`` and ``executor`` (accepted and unused);
        other keywords are configuration.
    :raises ValueError: if a deserializer and its builder are both configured.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return _construct(cls, args, kwargs)

    _key_deserializer: Any
    _value_deserializer: Any
    _owned_serdes: List[Any]

    async def _init(self, conf: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        self._backlog: Deque[_Pending] = deque()
        await _start(self, AIOConsumer.__init__, _CONSUMER_ARGS, ("key.deserializer", "value.deserializer"),
                     ("_key_deserializer", "_value_deserializer"), conf, kwargs)

    __init__ = _init  # awaited by _construct, through __new__

    async def _deserialize(self, msg: Message) -> Message:
        """``msg`` with key then value deserialized in place (set once both succeeded)."""
        ctx = SerializationContext(msg.topic(), MessageField.KEY, msg.headers())  # type: ignore[arg-type]
        key: Any = msg.key()
        if self._key_deserializer is not None:
            try:
                key = await _serdes.maybe_await(self._key_deserializer(key, ctx))
            except Exception as e:
                raise KeyDeserializationError(exception=e, kafka_message=msg) from e
        value: Any = msg.value()
        if self._value_deserializer is not None:
            ctx.field = MessageField.VALUE
            try:
                value = await _serdes.maybe_await(self._value_deserializer(value, ctx))
            except Exception as e:
                raise ValueDeserializationError(exception=e, kafka_message=msg) from e
        msg.set_key(key)
        msg.set_value(value)
        return msg

    async def _one(self, msg: Message) -> Message:
        err = msg.error()
        if err is not None:
            raise ConsumeError(err, kafka_message=msg)
        return await self._deserialize(msg)

    async def _all(self, batch: List[_Pending]) -> List[Message]:
        """Deserialize ``batch`` in order, error events passed through. At the first failure:
        return what came before it and keep the failure and the rest, or raise it if nothing
        came before."""
        out: List[Message] = []
        for i, item in enumerate(batch):
            try:
                if isinstance(item, ConsumeError):
                    raise item
                out.append(item if item.error() is not None else await self._deserialize(item))
            except ConsumeError as e:
                rest = batch[i + 1:]
                if out:
                    rest.insert(0, e)
                self._backlog.extendleft(reversed(rest))
                if out:
                    return out
                raise
        return out

    def _take(self, limit: int) -> List[_Pending]:
        return [self._backlog.popleft() for _ in range(min(limit, len(self._backlog)))]

    async def poll(self, timeout: Optional[float] = -1) -> Optional[Message]:
        """The next message, deserialized, or None when none arrived within ``timeout`` seconds.

        :param timeout: seconds to wait; -1 or None waits as long as it takes.
        :raises ~confluent_kafka.error.ConsumeError: for an error event.
        :raises ~confluent_kafka.error.KeyDeserializationError: if the key deserializer raised.
        :raises ~confluent_kafka.error.ValueDeserializationError: if the value deserializer raised.
        """
        if self._backlog:
            item = self._backlog.popleft()
            if isinstance(item, ConsumeError):
                raise item
            return await self._one(item)
        msg = await AIOConsumer.poll(self, timeout)
        if msg is None:
            return None
        return await self._one(msg)

    async def consume(self, num_messages: int = 1, timeout: Optional[float] = -1  # type: ignore[override]
                      ) -> List[Message]:
        """Up to ``num_messages`` messages, deserialized (see :meth:`AIOConsumer.consume`).

        Error events are returned as they are; check ``msg.error()``.

        :param num_messages: the most messages to return.
        :param timeout: seconds to wait while nothing is ready; -1 or None waits as long as it takes.
        :raises ~confluent_kafka.error.KeyDeserializationError: if the key deserializer raised.
        :raises ~confluent_kafka.error.ValueDeserializationError: if the value deserializer raised.
        """
        if self._backlog:
            if isinstance(num_messages, bool) or not isinstance(num_messages, int):
                raise TypeError(f"num_messages must be an int, not {type(num_messages).__name__}")
            return await self._all(self._take(max(num_messages, 1)))
        msgs: List[_Pending] = list(await AIOConsumer.consume(self, num_messages, timeout))
        return await self._all(msgs)

    async def __anext__(self) -> Message:
        """The next deserialized message; error events raise ConsumeError."""
        if self._backlog:
            item = self._backlog.popleft()
            if isinstance(item, ConsumeError):
                raise item
            return await self._one(item)
        return await AIOConsumer.__anext__(self)

    async def _iterated(self, msg: Message) -> Message:
        return await self._deserialize(msg)

    def _iteration_error(self, err: KafkaError, msg: Message) -> Exception:
        return ConsumeError(err, kafka_message=msg)

    async def close(self) -> None:
        """Close the consumer (see :meth:`AIOConsumer.close`), then the deserializers it built."""
        if not self._closed:
            await AIOConsumer.close(self)
        owned, self._owned_serdes = self._owned_serdes, []
        await _serdes.close_all_async(owned)
