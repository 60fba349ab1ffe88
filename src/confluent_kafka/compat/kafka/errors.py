"""``kafka.errors`` of the kafka-python facade: the exception classes, by their kafka-python names.

Client-side errors are defined here; one class per broker error code is generated from the shared
table in :mod:`confluent_kafka.compat._errors`. ``for_code(errno)`` maps a code to its class.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from confluent_kafka.compat._errors import broker_error_str, build_broker_errors, error_str, make_for_code


class KafkaError(Exception):
    """Base of every kafka-python facade error."""

    retriable = False
    invalid_metadata = False
    __str__ = error_str

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.args == getattr(other, "args", None)

    __hash__ = Exception.__hash__


class RetriableError(KafkaError):
    """An error after which the same request may succeed."""

    retriable = True


class InvalidMetadataError(RetriableError):
    """A retriable error that also means cached cluster metadata is stale."""

    invalid_metadata = True


class Cancelled(RetriableError):
    """The request was cancelled (its client was closed)."""


class CommitFailedError(KafkaError):
    """An offset commit was refused because the group rebalanced."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*(args or ("The commit failed: the group rebalanced and its partitions "
                                    "now belong to another member.",)))


class IllegalArgumentError(KafkaError):
    """A method got an argument it cannot use."""


class IllegalStateError(KafkaError):
    """A method was called in a state that does not allow it."""


class KafkaConfigurationError(KafkaError):
    """A configuration option is unknown, invalid, or has no equivalent here."""


class KafkaConnectionError(InvalidMetadataError):
    """A broker connection failed."""


class KafkaProtocolError(KafkaError):
    """The broker sent something the client could not understand."""


class CorrelationIdError(RetriableError, KafkaProtocolError):
    """A response did not match its request."""


class InvalidReceiveError(KafkaProtocolError):
    """A response could not be read."""


class KafkaTimeoutError(RetriableError):
    """An operation did not finish within its timeout."""


class MetadataEmptyBrokerList(RetriableError):
    """No broker could be reached to fetch metadata."""


class NoOffsetForPartitionError(KafkaError):
    """A partition has no committed offset and the reset policy is ``none``."""


class LogTruncationError(KafkaError):
    """The partition's log was truncated below the consumer's position.

    ``divergent_offsets`` maps each affected partition to the offset to seek back to (or None).
    """

    def __init__(self, divergent_offsets: Dict[Any, Any], *args: Any) -> None:
        self.divergent_offsets = divergent_offsets
        super().__init__(*(args or (f"truncated partitions: {divergent_offsets}",)))


class NodeNotReadyError(RetriableError):
    """The broker connection is not ready yet."""


class UnknownBrokerIdError(KafkaError):
    """A broker id is not in the cluster metadata."""


class QuotaViolationError(KafkaError):
    """A client quota was exceeded."""


class StaleMetadata(InvalidMetadataError):
    """Cluster metadata is out of date."""


class TooManyInFlightRequests(RetriableError):
    """Too many requests are waiting on one connection."""


class UnrecognizedBrokerVersion(KafkaError):
    """The broker's version could not be identified."""


class UnsupportedCodecError(KafkaError):
    """The compression codec is not available."""


class TransactionAbortedError(KafkaError):
    """A record was failed because its transaction was aborted."""

    message = "the record's transaction was aborted"


class BrokerResponseError(KafkaError):
    """An error code returned by a broker; ``errno`` is the Kafka protocol code."""

    errno: Optional[int] = None
    message: Optional[str] = None
    description: Optional[str] = None

    __str__ = broker_error_str


class AuthorizationError(BrokerResponseError):
    """The principal is not authorized for the operation."""


kafka_errors: Dict[int, type] = build_broker_errors(
    "kafka", globals(), BrokerResponseError,
    retriable_base=RetriableError,
    invalid_metadata_base=InvalidMetadataError,
    authorization_base=AuthorizationError,
)

IncompatibleBrokerVersion = type(
    "IncompatibleBrokerVersion", (globals()["UnsupportedVersionError"],),
    {"__module__": __name__, "__doc__": "The broker is too old for a requested feature."})
CorruptRecordException = globals()["CorruptRecordError"]

for_code = make_for_code(kafka_errors, globals()["UnknownError"])

