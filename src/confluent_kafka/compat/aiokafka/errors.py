"""``aiokafka.errors`` of the aiokafka facade: the exception classes, by aiokafka's names.

Client-side errors are defined here; one class per broker error code comes from the table shared
with the kafka-python facade (:mod:`confluent_kafka.compat._errors`). ``for_code(errno)`` maps a
code to its class, and :func:`from_librdkafka` turns an error librdkafka reported into one.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Type

from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.compat._errors import broker_error_str, build_broker_errors, error_class, error_str


class KafkaError(RuntimeError):
    """Base of every aiokafka facade error (a RuntimeError, as in aiokafka)."""

    retriable = False
    invalid_metadata = False
    __str__ = error_str


class IllegalStateError(KafkaError):
    """A method was called in a state that does not allow it."""


class IllegalArgumentError(KafkaError):
    """A method got an argument it cannot use."""


def _flagged(name: str, doc: str, flags: str, base: Type[KafkaError] = KafkaError) -> Type[KafkaError]:
    """A client error whose flags differ from its base's (``r`` retriable, ``m`` invalid metadata)."""
    return error_class(__name__, name, doc, flags, base)


NoBrokersAvailable = _flagged("NoBrokersAvailable", "No broker could be reached.", "rm")
NodeNotReadyError = _flagged("NodeNotReadyError", "The broker connection is not ready.", "r")
KafkaProtocolError = _flagged("KafkaProtocolError", "The broker sent something the client could not understand.", "r")
CorrelationIdError = _flagged("CorrelationIdError", "A response did not match its request.", "r", KafkaProtocolError)
Cancelled = _flagged("Cancelled", "The request was cancelled.", "r")
TooManyInFlightRequests = _flagged("TooManyInFlightRequests", "Too many requests are waiting for an answer.", "r")
StaleMetadata = _flagged("StaleMetadata", "Cached metadata is out of date.", "rm")
MetadataEmptyBrokerList = _flagged("MetadataEmptyBrokerList", "The metadata named no broker.", "r")


class UnrecognizedBrokerVersion(KafkaError):
    """The broker's version could not be told."""


class IncompatibleBrokerVersion(KafkaError):
    """The broker is too old for the request."""


class CommitFailedError(KafkaError):
    """An offset commit was refused because the group rebalanced."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("The commit failed: the group rebalanced and gave the partitions to another "
                         "member (raise max_poll_interval_ms, or take fewer records per getmany()).",
                         *args, **kwargs)


class AuthenticationMethodNotSupported(KafkaError):
    """The broker does not support the SASL mechanism."""


AuthenticationFailedError = _flagged("AuthenticationFailedError", "Authentication failed.", "")


class KafkaUnavailableError(KafkaError):
    """Kafka is unavailable."""


class KafkaTimeoutError(KafkaError):
    """An operation did not finish in time."""


KafkaConnectionError = _flagged("KafkaConnectionError", "A broker connection failed.", "rm")


class UnsupportedCodecError(KafkaError):
    """A compression codec is not available."""


class KafkaConfigurationError(KafkaError):
    """A configuration option is invalid, or has no equivalent in this facade."""


class QuotaViolationError(KafkaError):
    """A quota was exceeded."""


class ConsumerStoppedError(Exception):
    """A ``get*`` call of a stopped consumer (also one pending when it stopped)."""


class IllegalOperation(Exception):
    """An operation the configuration does not allow (e.g. commit() without a group_id)."""


class NoOffsetForPartitionError(KafkaError):
    """No offset to start from, and the reset policy is ``none``."""


class RecordTooLargeError(KafkaError):
    """A record is larger than the batch or request can hold."""


class ProducerClosed(KafkaError):
    """The producer was stopped."""


class ProducerFenced(KafkaError):
    """A newer producer with the same transactional_id took over (or the transaction timed out)."""

    def __init__(self, msg: str = ("A newer producer uses the same transactional_id, or the transaction "
                                   "timed out (keep processing below transaction_timeout_ms)")) -> None:
        super().__init__(msg)


class BrokerResponseError(KafkaError):
    """An error code the broker answered with (``errno``, ``message``, ``description``)."""

    errno: int
    message: str
    description: str = ""

    __str__ = broker_error_str


kafka_errors: Dict[int, type] = build_broker_errors("aiokafka", globals(), BrokerResponseError)

# The generated classes this package raises itself, named here for type checkers (same objects).
UnknownError: Type[BrokerResponseError] = kafka_errors[-1]
OffsetOutOfRangeError: Type[BrokerResponseError] = kafka_errors[1]
UnknownTopicOrPartitionError: Type[BrokerResponseError] = kafka_errors[3]
MessageSizeTooLargeError: Type[BrokerResponseError] = kafka_errors[10]


def for_code(error_code: int) -> type:
    """The class of broker error code ``error_code`` (``UnknownError`` for a code not in the table).

    :param error_code: a Kafka protocol error code.
    :returns: a subclass of :class:`BrokerResponseError`.
    """
    return kafka_errors.get(error_code, UnknownError)


_LOCAL: Dict[int, type] = {
    _RdKafkaError._TIMED_OUT: KafkaTimeoutError,
    _RdKafkaError._MSG_TIMED_OUT: KafkaTimeoutError,
    _RdKafkaError._TRANSPORT: KafkaConnectionError,
    _RdKafkaError._ALL_BROKERS_DOWN: NoBrokersAvailable,
    _RdKafkaError._AUTHENTICATION: AuthenticationFailedError,
    _RdKafkaError._FENCED: ProducerFenced,
    _RdKafkaError._STATE: IllegalStateError,
    _RdKafkaError._INVALID_ARG: IllegalArgumentError,
    _RdKafkaError._UNKNOWN_TOPIC: UnknownTopicOrPartitionError,
    _RdKafkaError._UNKNOWN_PARTITION: UnknownTopicOrPartitionError,
    _RdKafkaError._NO_OFFSET: NoOffsetForPartitionError,
    _RdKafkaError._AUTO_OFFSET_RESET: OffsetOutOfRangeError,
    _RdKafkaError._PURGE_QUEUE: ProducerClosed,
    _RdKafkaError._PURGE_INFLIGHT: ProducerClosed,
}


def from_librdkafka(err: Any, first: Optional[Any] = None) -> KafkaError:
    """The aiokafka error for a ``confluent_kafka.KafkaError`` (or KafkaException).

    :param err: a KafkaError, or a KafkaException carrying one.
    :param first: the exception's first argument; librdkafka's text when None.
    :returns: an instance of the matching class (broker codes by ``errno``, local ones by kind).
    """
    if not isinstance(err, _RdKafkaError):
        inner = err.args[0] if getattr(err, "args", None) else None
        err = inner if isinstance(inner, _RdKafkaError) else _RdKafkaError(_RdKafkaError._FAIL, str(err))
    code = err.code()
    if err.fatal() and code == _RdKafkaError._FENCED:
        return ProducerFenced()
    cls = kafka_errors.get(code) if code >= 0 else _LOCAL.get(code, KafkaError)
    if cls is None:
        cls = UnknownError
    exc: KafkaError = cls(err.str() if first is None else first)
    return exc


__all__ = [  # aiokafka's own order: its custom errors, kafka-python's, then the numbered ones
    "ConsumerStoppedError", "NoOffsetForPartitionError", "RecordTooLargeError", "ProducerClosed",
    "KafkaError", "IllegalStateError", "IllegalArgumentError", "NoBrokersAvailable", "NodeNotReadyError",
    "KafkaProtocolError", "CorrelationIdError", "Cancelled", "TooManyInFlightRequests", "StaleMetadata",
    "UnrecognizedBrokerVersion", "IncompatibleBrokerVersion", "CommitFailedError",
    "AuthenticationMethodNotSupported", "AuthenticationFailedError", "BrokerResponseError",
    *(cls.__name__ for code, cls in sorted(kafka_errors.items(), key=lambda kv: (kv[0] != 0, kv[0] != -1, kv[0]))
      if code <= 44),
    "KafkaUnavailableError", "KafkaTimeoutError", "KafkaConnectionError", "UnsupportedCodecError",
]
