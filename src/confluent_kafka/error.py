"""Exception and error types of the client.

``KafkaError`` describes one error (a librdkafka or broker error code plus text and flags);
``KafkaException`` is the exception that carries it as ``args[0]``. The serializing clients
raise the subclasses defined here: :class:`ProduceError` (and its key and value serialization
forms) from :meth:`SerializingProducer.produce`, :class:`ConsumeError` (and its key and value
deserialization forms) from :meth:`DeserializingConsumer.poll`.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from .cimpl import KafkaError, KafkaException, Message
from .serialization import SerializationError

__all__ = [
    "ConsumeError",
    "KafkaError",
    "KafkaException",
    "KeyDeserializationError",
    "KeySerializationError",
    "ProduceError",
    "SerializationError",
    "ValueDeserializationError",
    "ValueSerializationError",
]


class _KafkaClientError(KafkaException):
    """A KafkaException raised by a serializing client, with the exception that caused it."""

    def __init__(self, kafka_error: KafkaError, exception: Optional[BaseException] = None,
                 kafka_message: Optional[Message] = None) -> None:
        super().__init__(kafka_error)
        #: The exception raised by the (de)serializer, if one did.
        self.exception = exception
        #: The message being consumed when the error happened (consume errors only).
        self.kafka_message = kafka_message

    def __reduce__(self) -> Tuple[Any, ...]:
        # Rebuilt through the constructor of the concrete class, which upstream's classes of
        # the same names take too: a pickle made here loads there, and back.
        return (type(self), self._init_args(), self.__dict__)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.args[0], self.exception, self.kafka_message)

    @property
    def code(self) -> int:
        """The error code of ``args[0]``."""
        err: KafkaError = self.args[0]
        return err.code()

    @property
    def name(self) -> str:
        """The symbolic name of the error code, e.g. ``"_VALUE_SERIALIZATION"``."""
        err: KafkaError = self.args[0]
        return err.name()


def _error_for(code: int, exception: Optional[BaseException]) -> KafkaError:
    # The text is str(exception) even for None ("None"), as in confluent-kafka 2.x.
    return KafkaError(code, str(exception))


class ConsumeError(_KafkaClientError):
    """A message could not be consumed: an error event, or a failed deserialization.

    ``kafka_message`` is the message (or error event) concerned.
    """

    def __init__(self, kafka_error: KafkaError, exception: Optional[BaseException] = None,
                 kafka_message: Optional[Message] = None) -> None:
        super().__init__(kafka_error, exception, kafka_message)


class KeyDeserializationError(ConsumeError, SerializationError):
    """The key deserializer failed; ``exception`` is what it raised."""

    def __init__(self, exception: Optional[BaseException] = None, kafka_message: Optional[Message] = None) -> None:
        super().__init__(_error_for(KafkaError._KEY_DESERIALIZATION, exception), exception, kafka_message)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.exception, self.kafka_message)


class ValueDeserializationError(ConsumeError, SerializationError):
    """The value deserializer failed; ``exception`` is what it raised."""

    def __init__(self, exception: Optional[BaseException] = None, kafka_message: Optional[Message] = None) -> None:
        super().__init__(_error_for(KafkaError._VALUE_DESERIALIZATION, exception), exception, kafka_message)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.exception, self.kafka_message)


class ProduceError(_KafkaClientError):
    """A message could not be produced."""

    def __init__(self, kafka_error: KafkaError, exception: Optional[BaseException] = None) -> None:
        super().__init__(kafka_error, exception)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.args[0], self.exception)


class KeySerializationError(ProduceError, SerializationError):
    """The key serializer failed; ``exception`` is what it raised."""

    def __init__(self, exception: Optional[BaseException] = None) -> None:
        super().__init__(_error_for(KafkaError._KEY_SERIALIZATION, exception), exception)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.exception,)


class ValueSerializationError(ProduceError, SerializationError):
    """The value serializer failed; ``exception`` is what it raised."""

    def __init__(self, exception: Optional[BaseException] = None) -> None:
        super().__init__(_error_for(KafkaError._VALUE_SERIALIZATION, exception), exception)

    def _init_args(self) -> Tuple[Any, ...]:
        return (self.exception,)
