"""Serializers and deserializers for message keys and values.

A :class:`Serializer` turns a Python object into the ``bytes`` that are produced; a
:class:`Deserializer` turns consumed ``bytes`` back into an object. Both are callables taking
``(obj, ctx)``, where ``ctx`` is a :class:`SerializationContext` saying which topic and which
field (key or value) is being handled. :class:`~confluent_kafka.SerializingProducer` and
:class:`~confluent_kafka.DeserializingConsumer` call them for every message; a
:class:`SerializerBuilder` / :class:`DeserializerBuilder` lets those clients build (and own) a
serializer from their own configuration.

Every serializer here maps ``None`` to ``None`` (a null key or value, e.g. a tombstone). Input
that has the right type but cannot be encoded (a number out of range, bytes of the wrong length,
text the codec cannot represent) raises :class:`SerializationError`; input of the wrong type
raises what Python raises for it (``AttributeError``, ``TypeError``), as in
confluent-kafka-python.
"""

from __future__ import annotations

import struct
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Tuple

from .._types import HeadersType
from ..cimpl import KafkaException

__all__ = [
    "Deserializer",
    "DeserializerBuilder",
    "DoubleDeserializer",
    "DoubleSerializer",
    "IntegerDeserializer",
    "IntegerSerializer",
    "JsonDeserializer",
    "JsonSerializer",
    "MessageField",
    "SerializationContext",
    "SerializationError",
    "Serializer",
    "SerializerBuilder",
    "StringDeserializer",
    "StringSerializer",
]


class SerializationError(KafkaException):
    """A key or value could not be serialized or deserialized."""


class MessageField(str, Enum):
    """Which part of a message a serializer is working on.

    The members are strings too: ``MessageField.KEY == "key"``, ``str(MessageField.KEY)`` is
    ``"key"``, and ``MessageField("key")`` is ``MessageField.KEY``.
    """

    #: Neither the key nor the value.
    NONE = "none"
    #: The message key.
    KEY = "key"
    #: The message value.
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)


class SerializationContext:
    """What a serializer is told about the message it works on.

    A plain object: a serializer may set attributes of its own on it (the clients pass the same
    context to the key serializer, then, with :attr:`field` changed, to the value serializer).

    :param topic: the topic the message is produced to or was consumed from.
    :param field: :attr:`MessageField.KEY` or :attr:`MessageField.VALUE`.
    :param headers: the message headers, as given to ``produce()`` or as consumed.
    """

    def __init__(self, topic: str, field: MessageField, headers: Optional[HeadersType] = None) -> None:
        #: The topic the message is produced to or was consumed from.
        self.topic = topic
        #: Which part of the message: :attr:`MessageField.KEY` or :attr:`MessageField.VALUE`.
        self.field = field
        #: The message headers, as given to ``produce()`` or as consumed (None if none).
        self.headers = headers


class Serializer:
    """Base class of serializers: ``serializer(obj, ctx) -> bytes | None``.

    Subclasses implement :meth:`__call__`; any callable with that signature can be used
    wherever a serializer is expected.
    """

    __slots__: List[str] = []

    def __call__(self, obj: Any, ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """Serialize ``obj``.

        :param obj: the object to serialize.
        :param ctx: the topic, field and headers of the message.
        :returns: the bytes, or None for a null key or value.
        :raises ~confluent_kafka.serialization.SerializationError: when ``obj`` cannot be serialized.
        """
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Take a callable that returns the id of the Kafka cluster the client is connected to.

        The serializing clients call this once, right after creating their Kafka client. The
        resolver may wait for broker metadata, so call it only when the id is needed, never
        from this method. The base class ignores it.

        :param resolver: ``resolver() -> str``.
        """

    def close(self) -> None:
        """Release what this serializer created for itself.

        A client calls this when it is closed, for the serializers it built from a
        :class:`SerializerBuilder`. The base class has nothing to release.
        """


class Deserializer:
    """Base class of deserializers: ``deserializer(value, ctx) -> object``.

    Subclasses implement :meth:`__call__`; any callable with that signature can be used
    wherever a deserializer is expected.
    """

    __slots__: List[str] = []

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Any:
        """Deserialize ``value``.

        :param value: the consumed bytes, or None for a null key or value.
        :param ctx: the topic, field and headers of the message.
        :returns: the object.
        :raises ~confluent_kafka.serialization.SerializationError: when ``value`` cannot be deserialized.
        """
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Take a callable that returns the id of the Kafka cluster the client is connected to.

        See :meth:`Serializer.set_cluster_id_resolver`; the deserializing clients call it. The
        base class ignores it.

        :param resolver: ``resolver() -> str``.
        """

    def close(self) -> None:
        """Release what this deserializer created for itself.

        See :meth:`Serializer.close`. The base class has nothing to release.
        """


class SerializerBuilder:
    """Builds a :class:`Serializer` when the client is created.

    Give one to :class:`~confluent_kafka.SerializingProducer` as ``key.serializer.builder`` or
    ``value.serializer.builder`` instead of a ready serializer: the builder sees the client's
    configuration (and may take its own settings out of it), and the client closes the
    serializer it built when the client is closed.
    """

    __slots__: List[str] = []

    def build(self, conf: Dict[str, Any], is_key: bool) -> Tuple[Serializer, Dict[str, Any]]:
        """Make the serializer.

        :param conf: a copy of the client configuration.
        :param is_key: True for the key serializer, False for the value serializer.
        :returns: the serializer, and the configuration left for the client (``conf`` without
            the settings the builder consumed).
        """
        raise NotImplementedError


class DeserializerBuilder:
    """Builds a :class:`Deserializer` when the client is created.

    The deserializing counterpart of :class:`SerializerBuilder`, given to
    :class:`~confluent_kafka.DeserializingConsumer` as ``key.deserializer.builder`` or
    ``value.deserializer.builder``.
    """

    __slots__: List[str] = []

    def build(self, conf: Dict[str, Any], is_key: bool) -> Tuple[Deserializer, Dict[str, Any]]:
        """Make the deserializer.

        :param conf: a copy of the client configuration.
        :param is_key: True for the key deserializer, False for the value deserializer.
        :returns: the deserializer, and the configuration left for the client.
        """
        raise NotImplementedError


def _bytes_of(value: Any, what: str) -> bytes:
    """``value`` as bytes, or SerializationError naming ``what`` was expected."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise SerializationError(f"{what} expects bytes, got {type(value).__name__}")


_INT32 = struct.Struct(">i")
_FLOAT64 = struct.Struct(">d")


def _pack(fmt: struct.Struct, obj: Any) -> Optional[bytes]:
    if obj is None:
        return None
    try:
        return fmt.pack(obj)
    except struct.error as e:  # wrong type or out of range; struct says which
        raise SerializationError(str(e)) from e


def _unpack(fmt: struct.Struct, value: Any) -> Any:
    if value is None:
        return None
    try:
        return fmt.unpack(value)[0]
    except struct.error as e:  # wrong length (a non-buffer raises TypeError, unwrapped)
        raise SerializationError(str(e)) from e


class IntegerSerializer(Serializer):
    """Serializes an ``int`` as a 32-bit signed big-endian integer (Java's IntegerSerializer)."""

    def __call__(self, obj: Optional[int], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """The four bytes of ``obj``, or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if ``obj`` is not an int, or out of the int32 range.
        """
        return _pack(_INT32, obj)


class IntegerDeserializer(Deserializer):
    """Reads a 32-bit signed big-endian integer (Java's IntegerDeserializer)."""

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[int]:
        """The int held in the four bytes of ``value`` (any bytes-like object), or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if ``value`` is not four bytes long.
        :raises TypeError: if ``value`` is not bytes-like.
        """
        result: Optional[int] = _unpack(_INT32, value)
        return result


class DoubleSerializer(Serializer):
    """Serializes a ``float`` (or int) as an IEEE 754 binary64 big-endian (Java's DoubleSerializer)."""

    def __call__(self, obj: Optional[float], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """The eight bytes of ``obj``, or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if ``obj`` is not a number.
        """
        return _pack(_FLOAT64, obj)


class DoubleDeserializer(Deserializer):
    """Reads an IEEE 754 binary64 big-endian (Java's DoubleDeserializer)."""

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[float]:
        """The float held in the eight bytes of ``value``, or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if ``value`` is not eight bytes long.
        :raises TypeError: if ``value`` is not bytes-like.
        """
        result: Optional[float] = _unpack(_FLOAT64, value)
        return result


class StringSerializer(Serializer):
    """Encodes a ``str`` with a codec (UTF-8 by default; any name :mod:`codecs` knows).

    :param codec: the codec's name; an unknown one raises ``LookupError`` on the first call.
    """

    def __init__(self, codec: str = "utf_8") -> None:
        #: The name of the codec that encodes the strings, e.g. ``utf_8``.
        self.codec = codec

    def __call__(self, obj: Optional[str], ctx: Optional[SerializationContext] = None) -> Optional[bytes]:
        """``obj`` encoded, or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if the codec cannot encode ``obj``.
        :raises AttributeError: if ``obj`` is not a str.
        """
        if obj is None:
            return None
        try:
            return obj.encode(self.codec)
        except UnicodeError as e:
            raise SerializationError(str(e)) from e


class StringDeserializer(Deserializer):
    """Decodes bytes with a codec (UTF-8 by default) into a ``str``.

    :param codec: the codec's name; an unknown one raises ``LookupError`` on the first call.
    """

    def __init__(self, codec: str = "utf_8") -> None:
        #: The name of the codec that decodes the bytes, e.g. ``utf_8``.
        self.codec = codec

    def __call__(self, value: Optional[bytes], ctx: Optional[SerializationContext] = None) -> Optional[str]:
        """``value`` (bytes or bytearray) decoded, or None for None.

        :raises ~confluent_kafka.serialization.SerializationError: if ``value`` is not valid in the codec.
        :raises AttributeError: if ``value`` is not bytes or bytearray.
        """
        if value is None:
            return None
        try:
            return value.decode(self.codec)
        except UnicodeError as e:
            raise SerializationError(str(e)) from e


from ._json import JsonDeserializer, JsonSerializer  # noqa: E402  (needs the classes above)
