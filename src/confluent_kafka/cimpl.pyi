"""Type stubs for the C extension ``confluent_kafka.cimpl``."""

import builtins
from typing import (
    AbstractSet,
    Any,
    Callable,
    ClassVar,
    Dict,
    Generic,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    overload,
)

from typing_extensions import Buffer, Final, Self, TypeAlias, TypeVar

from confluent_kafka._model import AcknowledgeType, Messages
from confluent_kafka.admin._metadata import ClusterMetadata

OFFSET_BEGINNING: Final = -2
OFFSET_END: Final = -1
OFFSET_STORED: Final = -1000
OFFSET_INVALID: Final = -1001
TIMESTAMP_NOT_AVAILABLE: Final = 0
TIMESTAMP_CREATE_TIME: Final = 1
TIMESTAMP_LOG_APPEND_TIME: Final = 2
BUILD_LIBRDKAFKA_VERSION: Final[str]

# A message key or value as accepted on input: text (sent as UTF-8) or any bytes-like object.
_Payload: TypeAlias = Union[str, Buffer, None]
_HeaderValue: TypeAlias = Union[str, bytes, None]
_HeadersIn: TypeAlias = Union[Sequence[Tuple[str, _HeaderValue]], Mapping[str, _HeaderValue]]
_HeadersOut: TypeAlias = List[Tuple[str, Optional[bytes]]]
_DeliveryCallback: TypeAlias = Callable[[Optional["KafkaError"], "Message"], object]
_RebalanceCallback: TypeAlias = Callable[["Consumer", List["TopicPartition"]], object]
_Conf: TypeAlias = Mapping[str, Any]
# Anything with the Arrow PyCapsule interface (pyarrow, polars, nanoarrow arrays, ...).
_ArrowArray: TypeAlias = Any
# Timeouts are in seconds; a negative value or None waits without limit.
# A Message's deserialized key and value types (bytes unless a DeserializingConsumer made it).
K = TypeVar("K", default=bytes)
V = TypeVar("V", default=bytes)

def version() -> str:
    """This package's version, e.g. "2.16.1"."""

def libversion() -> Tuple[str, int]:
    """The version of the librdkafka loaded at run time, as a string and an integer."""

def murmur2(key: Buffer, partition_count: int) -> int:
    """Partition for ``key`` with the Java client's murmur2 partitioner."""

def consistent(key: Buffer, partition_count: int) -> int:
    """Partition for ``key`` with librdkafka's CRC32-based ``consistent`` partitioner."""

def fnv1a(key: Buffer, partition_count: int) -> int:
    """Partition for ``key`` with librdkafka's FNV-1a partitioner."""

@overload
def _records(messages: List[Message], cls: type, layout: str, names: Optional[Tuple[str, ...]] = None,
             by: None = None, /) -> List[Any]:
    """One ``cls`` per Message, its fields picked by ``layout`` codes (the facades' record builder)."""
@overload
def _records(messages: List[Message], cls: type, layout: str, names: Optional[Tuple[str, ...]],
             by: type, /) -> Optional[Dict[Any, List[Any]]]:
    """The records grouped by ``by(topic, partition)``; None when a message carries an error."""

def _record(message: Message, cls: type, layout: str, names: Optional[Tuple[str, ...]] = None, /) -> Any:
    """``_records([message], cls, layout, names)[0]``."""

class _SlotField:
    """A ``__slots__`` field (given its member descriptor) whose records ``_records()`` may leave
    out of the garbage collector while they hold only atomic values; storing anything that could
    lead back to the record has the collector watch it again."""

    def __init__(self, member: Any) -> None: ...
    @property
    def __name__(self) -> str: ...
    @property
    def __objclass__(self) -> type: ...
    @property
    def member(self) -> Any: ...
    def __get__(self, obj: Any, cls: Optional[type] = None) -> Any: ...
    def __set__(self, obj: Any, value: Any) -> None: ...
    def __delete__(self, obj: Any) -> None: ...

class _RecordFuture:
    """The state and hot methods of the kafka-python facade's FutureRecordMetadata, settled in C by
    ``Producer._produce_record()``'s delivery reports."""

    is_done: bool
    value: Any
    exception: Optional[BaseException]
    _wait: Callable[[Any, Optional[float]], Any]
    def __init__(self, wait: Callable[[Any, Optional[float]], Any],
                 args: Tuple[Optional[int], int, int, int]) -> None: ...
    @property
    def args(self) -> Tuple[Optional[int], int, int, int]: ...
    def success(self, value: Any, /) -> Self: ...
    def failure(self, e: Any, /) -> Self: ...
    def add_callback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Self: ...
    def add_errback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Self: ...

_RF = TypeVar("_RF", bound=_RecordFuture)

def _check_keywords(names: Tuple[str, ...], kwargs: Dict[str, Any], /) -> None:
    """Raise the TypeError this interpreter's ``PyArg_ParseTupleAndKeywords`` raises for a keyword
    of ``kwargs`` not in ``names`` (at most 16); None when every one is known."""

class KafkaError:
    """One error: a librdkafka or broker error code with its text and flags.

    Compares equal to another KafkaError with the same code and to the plain
    integer code; hashes like the code. ``str()`` and ``repr()`` read
    ``KafkaError{code=_TIMED_OUT,val=-185,str="Local: Timed out"}``.
    """

    _BEGIN: ClassVar[int]
    _BAD_MSG: ClassVar[int]
    _BAD_COMPRESSION: ClassVar[int]
    _DESTROY: ClassVar[int]
    _FAIL: ClassVar[int]
    _TRANSPORT: ClassVar[int]
    _CRIT_SYS_RESOURCE: ClassVar[int]
    _RESOLVE: ClassVar[int]
    _MSG_TIMED_OUT: ClassVar[int]
    _PARTITION_EOF: ClassVar[int]
    _UNKNOWN_PARTITION: ClassVar[int]
    _FS: ClassVar[int]
    _UNKNOWN_TOPIC: ClassVar[int]
    _ALL_BROKERS_DOWN: ClassVar[int]
    _INVALID_ARG: ClassVar[int]
    _TIMED_OUT: ClassVar[int]
    _QUEUE_FULL: ClassVar[int]
    _ISR_INSUFF: ClassVar[int]
    _NODE_UPDATE: ClassVar[int]
    _SSL: ClassVar[int]
    _WAIT_COORD: ClassVar[int]
    _UNKNOWN_GROUP: ClassVar[int]
    _IN_PROGRESS: ClassVar[int]
    _PREV_IN_PROGRESS: ClassVar[int]
    _EXISTING_SUBSCRIPTION: ClassVar[int]
    _ASSIGN_PARTITIONS: ClassVar[int]
    _REVOKE_PARTITIONS: ClassVar[int]
    _CONFLICT: ClassVar[int]
    _STATE: ClassVar[int]
    _UNKNOWN_PROTOCOL: ClassVar[int]
    _NOT_IMPLEMENTED: ClassVar[int]
    _AUTHENTICATION: ClassVar[int]
    _NO_OFFSET: ClassVar[int]
    _OUTDATED: ClassVar[int]
    _TIMED_OUT_QUEUE: ClassVar[int]
    _UNSUPPORTED_FEATURE: ClassVar[int]
    _WAIT_CACHE: ClassVar[int]
    _INTR: ClassVar[int]
    _KEY_SERIALIZATION: ClassVar[int]
    _VALUE_SERIALIZATION: ClassVar[int]
    _KEY_DESERIALIZATION: ClassVar[int]
    _VALUE_DESERIALIZATION: ClassVar[int]
    _PARTIAL: ClassVar[int]
    _READ_ONLY: ClassVar[int]
    _NOENT: ClassVar[int]
    _UNDERFLOW: ClassVar[int]
    _INVALID_TYPE: ClassVar[int]
    _RETRY: ClassVar[int]
    _PURGE_QUEUE: ClassVar[int]
    _PURGE_INFLIGHT: ClassVar[int]
    _FATAL: ClassVar[int]
    _INCONSISTENT: ClassVar[int]
    _GAPLESS_GUARANTEE: ClassVar[int]
    _MAX_POLL_EXCEEDED: ClassVar[int]
    _UNKNOWN_BROKER: ClassVar[int]
    _NOT_CONFIGURED: ClassVar[int]
    _FENCED: ClassVar[int]
    _APPLICATION: ClassVar[int]
    _ASSIGNMENT_LOST: ClassVar[int]
    _NOOP: ClassVar[int]
    _AUTO_OFFSET_RESET: ClassVar[int]
    _LOG_TRUNCATION: ClassVar[int]
    _INVALID_DIFFERENT_RECORD: ClassVar[int]
    _DESTROY_BROKER: ClassVar[int]
    _END: ClassVar[int]
    UNKNOWN: ClassVar[int]
    NO_ERROR: ClassVar[int]
    OFFSET_OUT_OF_RANGE: ClassVar[int]
    INVALID_MSG: ClassVar[int]
    UNKNOWN_TOPIC_OR_PART: ClassVar[int]
    INVALID_MSG_SIZE: ClassVar[int]
    LEADER_NOT_AVAILABLE: ClassVar[int]
    NOT_LEADER_FOR_PARTITION: ClassVar[int]
    REQUEST_TIMED_OUT: ClassVar[int]
    BROKER_NOT_AVAILABLE: ClassVar[int]
    REPLICA_NOT_AVAILABLE: ClassVar[int]
    MSG_SIZE_TOO_LARGE: ClassVar[int]
    STALE_CTRL_EPOCH: ClassVar[int]
    OFFSET_METADATA_TOO_LARGE: ClassVar[int]
    NETWORK_EXCEPTION: ClassVar[int]
    COORDINATOR_LOAD_IN_PROGRESS: ClassVar[int]
    COORDINATOR_NOT_AVAILABLE: ClassVar[int]
    NOT_COORDINATOR: ClassVar[int]
    TOPIC_EXCEPTION: ClassVar[int]
    RECORD_LIST_TOO_LARGE: ClassVar[int]
    NOT_ENOUGH_REPLICAS: ClassVar[int]
    NOT_ENOUGH_REPLICAS_AFTER_APPEND: ClassVar[int]
    INVALID_REQUIRED_ACKS: ClassVar[int]
    ILLEGAL_GENERATION: ClassVar[int]
    INCONSISTENT_GROUP_PROTOCOL: ClassVar[int]
    INVALID_GROUP_ID: ClassVar[int]
    UNKNOWN_MEMBER_ID: ClassVar[int]
    INVALID_SESSION_TIMEOUT: ClassVar[int]
    REBALANCE_IN_PROGRESS: ClassVar[int]
    INVALID_COMMIT_OFFSET_SIZE: ClassVar[int]
    TOPIC_AUTHORIZATION_FAILED: ClassVar[int]
    GROUP_AUTHORIZATION_FAILED: ClassVar[int]
    CLUSTER_AUTHORIZATION_FAILED: ClassVar[int]
    INVALID_TIMESTAMP: ClassVar[int]
    UNSUPPORTED_SASL_MECHANISM: ClassVar[int]
    ILLEGAL_SASL_STATE: ClassVar[int]
    UNSUPPORTED_VERSION: ClassVar[int]
    TOPIC_ALREADY_EXISTS: ClassVar[int]
    INVALID_PARTITIONS: ClassVar[int]
    INVALID_REPLICATION_FACTOR: ClassVar[int]
    INVALID_REPLICA_ASSIGNMENT: ClassVar[int]
    INVALID_CONFIG: ClassVar[int]
    NOT_CONTROLLER: ClassVar[int]
    INVALID_REQUEST: ClassVar[int]
    UNSUPPORTED_FOR_MESSAGE_FORMAT: ClassVar[int]
    POLICY_VIOLATION: ClassVar[int]
    OUT_OF_ORDER_SEQUENCE_NUMBER: ClassVar[int]
    DUPLICATE_SEQUENCE_NUMBER: ClassVar[int]
    INVALID_PRODUCER_EPOCH: ClassVar[int]
    INVALID_TXN_STATE: ClassVar[int]
    INVALID_PRODUCER_ID_MAPPING: ClassVar[int]
    INVALID_TRANSACTION_TIMEOUT: ClassVar[int]
    CONCURRENT_TRANSACTIONS: ClassVar[int]
    TRANSACTION_COORDINATOR_FENCED: ClassVar[int]
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED: ClassVar[int]
    SECURITY_DISABLED: ClassVar[int]
    OPERATION_NOT_ATTEMPTED: ClassVar[int]
    KAFKA_STORAGE_ERROR: ClassVar[int]
    LOG_DIR_NOT_FOUND: ClassVar[int]
    SASL_AUTHENTICATION_FAILED: ClassVar[int]
    UNKNOWN_PRODUCER_ID: ClassVar[int]
    REASSIGNMENT_IN_PROGRESS: ClassVar[int]
    DELEGATION_TOKEN_AUTH_DISABLED: ClassVar[int]
    DELEGATION_TOKEN_NOT_FOUND: ClassVar[int]
    DELEGATION_TOKEN_OWNER_MISMATCH: ClassVar[int]
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: ClassVar[int]
    DELEGATION_TOKEN_AUTHORIZATION_FAILED: ClassVar[int]
    DELEGATION_TOKEN_EXPIRED: ClassVar[int]
    INVALID_PRINCIPAL_TYPE: ClassVar[int]
    NON_EMPTY_GROUP: ClassVar[int]
    GROUP_ID_NOT_FOUND: ClassVar[int]
    FETCH_SESSION_ID_NOT_FOUND: ClassVar[int]
    INVALID_FETCH_SESSION_EPOCH: ClassVar[int]
    LISTENER_NOT_FOUND: ClassVar[int]
    TOPIC_DELETION_DISABLED: ClassVar[int]
    FENCED_LEADER_EPOCH: ClassVar[int]
    UNKNOWN_LEADER_EPOCH: ClassVar[int]
    UNSUPPORTED_COMPRESSION_TYPE: ClassVar[int]
    STALE_BROKER_EPOCH: ClassVar[int]
    OFFSET_NOT_AVAILABLE: ClassVar[int]
    MEMBER_ID_REQUIRED: ClassVar[int]
    PREFERRED_LEADER_NOT_AVAILABLE: ClassVar[int]
    GROUP_MAX_SIZE_REACHED: ClassVar[int]
    FENCED_INSTANCE_ID: ClassVar[int]
    ELIGIBLE_LEADERS_NOT_AVAILABLE: ClassVar[int]
    ELECTION_NOT_NEEDED: ClassVar[int]
    NO_REASSIGNMENT_IN_PROGRESS: ClassVar[int]
    GROUP_SUBSCRIBED_TO_TOPIC: ClassVar[int]
    INVALID_RECORD: ClassVar[int]
    UNSTABLE_OFFSET_COMMIT: ClassVar[int]
    THROTTLING_QUOTA_EXCEEDED: ClassVar[int]
    PRODUCER_FENCED: ClassVar[int]
    RESOURCE_NOT_FOUND: ClassVar[int]
    DUPLICATE_RESOURCE: ClassVar[int]
    UNACCEPTABLE_CREDENTIAL: ClassVar[int]
    INCONSISTENT_VOTER_SET: ClassVar[int]
    INVALID_UPDATE_VERSION: ClassVar[int]
    FEATURE_UPDATE_FAILED: ClassVar[int]
    PRINCIPAL_DESERIALIZATION_FAILURE: ClassVar[int]
    UNKNOWN_TOPIC_ID: ClassVar[int]
    FENCED_MEMBER_EPOCH: ClassVar[int]
    UNRELEASED_INSTANCE_ID: ClassVar[int]
    UNSUPPORTED_ASSIGNOR: ClassVar[int]
    STALE_MEMBER_EPOCH: ClassVar[int]
    UNKNOWN_SUBSCRIPTION_ID: ClassVar[int]
    TELEMETRY_TOO_LARGE: ClassVar[int]
    REBOOTSTRAP_REQUIRED: ClassVar[int]
    INCONSISTENT_TOPIC_ID: ClassVar[int]
    MISMATCHED_ENDPOINT_TYPE: ClassVar[int]
    UNSUPPORTED_ENDPOINT_TYPE: ClassVar[int]
    UNKNOWN_CONTROLLER_ID: ClassVar[int]
    INVALID_REGISTRATION: ClassVar[int]
    TRANSACTION_ABORTABLE: ClassVar[int]
    INVALID_RECORD_STATE: ClassVar[int]
    SHARE_SESSION_NOT_FOUND: ClassVar[int]
    INVALID_SHARE_SESSION_EPOCH: ClassVar[int]
    FENCED_STATE_EPOCH: ClassVar[int]
    INVALID_VOTER_KEY: ClassVar[int]
    DUPLICATE_VOTER: ClassVar[int]
    VOTER_NOT_FOUND: ClassVar[int]
    INVALID_REGULAR_EXPRESSION: ClassVar[int]
    STREAMS_INVALID_TOPOLOGY: ClassVar[int]
    STREAMS_INVALID_TOPOLOGY_EPOCH: ClassVar[int]
    STREAMS_TOPOLOGY_FENCED: ClassVar[int]
    SHARE_SESSION_LIMIT_REACHED: ClassVar[int]
    GROUP_LOAD_IN_PROGRESS: ClassVar[int]
    GROUP_COORDINATOR_NOT_AVAILABLE: ClassVar[int]
    NOT_COORDINATOR_FOR_GROUP: ClassVar[int]

    @overload
    def __init__(
        self,
        error: int,
        reason: Optional[builtins.str] = None,
        fatal: bool = False,
        retriable: bool = False,
        txn_requires_abort: bool = False,
    ) -> None: ...
    @overload
    def __init__(
        self,
        *,
        code: int,
        reason: Optional[builtins.str] = None,
        fatal: bool = False,
        retriable: bool = False,
        txn_requires_abort: bool = False,
    ) -> None: ...
    def code(self) -> int:
        """The numeric error code (one of the class attributes)."""
    def name(self) -> builtins.str:
        """The symbolic name of the code, e.g. ``"_MSG_TIMED_OUT"``."""
    def str(self) -> builtins.str:
        """The reason given, or the description of the code."""
    def fatal(self) -> bool:
        """True when the error is fatal and the client must be recreated."""
    def retriable(self) -> bool:
        """True when retrying the failed operation may succeed."""
    def txn_requires_abort(self) -> bool:
        """True when the current transaction must be aborted before continuing."""
    def __str__(self) -> builtins.str:
        """``KafkaError{code=NAME,val=N,str="text"}`` (``FATAL,`` first for a fatal error)."""
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

class KafkaException(Exception):
    """Raised for failures reported by librdkafka; ``args[0]`` is a :class:`KafkaError`."""

# ---- the KIP-932 share consumer (confluent_kafka/_share.py installs these names here) -------
# This build's librdkafka has no share consumer API: ShareConsumer() raises NotImplementedError.

SHARE_ACKNOWLEDGE_TYPE_ACCEPT: Final = 1
SHARE_ACKNOWLEDGE_TYPE_RELEASE: Final = 2
SHARE_ACKNOWLEDGE_TYPE_REJECT: Final = 3

class ConcurrentModificationException(RuntimeError):
    """A share consumer was used from more than one thread at a time."""

class IllegalStateException(RuntimeError):
    """A share consumer call that its state does not allow (for example after close())."""

class ShareConsumer:
    """A share group member (KIP-932); not available in this build (NotImplementedError)."""
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def subscribe(self, topics: List[str]) -> None: ...
    def unsubscribe(self) -> None: ...
    def subscription(self) -> List[str]: ...
    def poll(self, timeout: float = -1) -> "Messages": ...
    def acknowledge(self, message: "Message", ack_type: "AcknowledgeType" = ...) -> None: ...
    def acknowledge_offset(
        self, topic: str, partition: int, offset: int, ack_type: "AcknowledgeType" = ...
    ) -> None: ...
    def commit_async(self) -> None: ...
    def commit_sync(self, timeout: float = 60) -> Any: ...
    def set_acknowledgement_commit_callback(self, callback: Optional[Callable[..., Any]]) -> None: ...
    def set_sasl_credentials(self, username: str, password: str) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> "ShareConsumer": ...
    def __exit__(self, *exc: Any) -> None: ...

class Message(Generic[K, V]):
    """A consumed message, a delivery report, or a message built by hand (for tests).

    Messages the client makes hold ``bytes`` keys and values (a DeserializingConsumer then
    stores deserialized ones: ``K``/``V``); a message built by hand returns whatever it was given.
    A negative partition, offset, latency, leader epoch or delivery count means "none".
    """

    def __init__(
        self,
        topic: Optional[str] = None,
        partition: int = -1,
        offset: int = -1001,
        key: Any = None,
        value: Any = None,
        headers: Optional[Any] = None,
        error: Optional[KafkaError] = None,
        timestamp: Optional[Tuple[int, int]] = None,
        latency: float = -1.0,
        leader_epoch: int = -1,
        delivery_count: int = -1,
    ) -> None: ...
    def topic(self) -> Optional[str]:
        """The topic name, or None."""
    def partition(self) -> Optional[int]:
        """The partition, or None when not known."""
    def offset(self) -> Optional[int]:
        """The offset, or None when not known."""
    def key(self) -> Optional[bytes]:
        """The key, or None."""
    def value(self) -> Optional[bytes]:
        """The value (payload), or None."""
    def deserialized_key(self) -> Optional[K]:
        """The key a DeserializingConsumer stored (the same slot as ``key()``)."""
    def deserialized_value(self) -> Optional[V]:
        """The value a DeserializingConsumer stored (the same slot as ``value()``)."""
    def headers(self) -> Optional[_HeadersOut]:
        """The headers as a list of ``(name, value)`` pairs, or None when there are none (always
        None in a delivery report); a message built by hand returns the headers it was given."""
    def error(self) -> Optional[KafkaError]:
        """The error of a failed delivery or an error event, else None."""
    def timestamp(self) -> Tuple[int, int]:
        """``(timestamp_type, milliseconds since the epoch)``; type is a ``TIMESTAMP_*`` constant."""
    def latency(self) -> Optional[float]:
        """Produce latency in seconds (delivery reports only), else None."""
    def leader_epoch(self) -> Optional[int]:
        """The partition leader epoch, or None when not known."""
    def delivery_count(self) -> Optional[int]:
        """How many times a share group delivered the record; None outside share consumers."""
    def set_topic(self, topic: Any, /) -> None: ...
    def set_key(self, key: Any, /) -> None:
        """Replace the key (any object: DeserializingConsumer stores deserialized keys here)."""
    def set_value(self, value: Any, /) -> None:
        """Replace the value (any object: DeserializingConsumer stores deserialized values here)."""
    def set_headers(self, headers: Any, /) -> None: ...
    def set_error(self, error: Optional[KafkaError], /) -> None: ...
    def set_timestamp(self, timestamp: Union[int, Tuple[int, int], None], /) -> None:
        """Replace the timestamp: an int (create time, ms) or a ``(type, ms)`` tuple (this package's)."""
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

class TopicPartition:
    """A topic partition, optionally with an offset, commit metadata, leader epoch and error.

    Equality and hashing use ``(topic, partition)``; ordering sorts by topic, then partition.
    Only ``partition`` and ``offset`` can be assigned.
    """

    @property
    def topic(self) -> str: ...
    partition: int
    offset: int
    @property
    def metadata(self) -> Optional[str]: ...
    @property
    def leader_epoch(self) -> Optional[int]: ...
    @property
    def error(self) -> Optional[KafkaError]: ...
    def __init__(
        self,
        topic: str,
        partition: int = -1,
        offset: int = -1001,
        metadata: Optional[str] = None,
        leader_epoch: Optional[int] = None,
    ) -> None: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __lt__(self, other: "TopicPartition") -> bool: ...
    def __le__(self, other: "TopicPartition") -> bool: ...
    def __gt__(self, other: "TopicPartition") -> bool: ...
    def __ge__(self, other: "TopicPartition") -> bool: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __setstate__(self, state: Optional[KafkaError], /) -> None: ...

class Producer:
    """Asynchronous Kafka producer.

    ``Producer(conf_dict, **more_conf)``: keyword arguments are merged over the
    dict with their names unchanged.
    """

    def __init__(self, conf: _Conf = ..., /, **kwargs: Any) -> None:
        """A dict and/or keyword arguments; with neither, TypeError."""
    def produce(
        self,
        topic: str,
        value: _Payload = None,
        key: _Payload = None,
        partition: int = -1,
        on_delivery: Optional[_DeliveryCallback] = None,
        callback: Optional[_DeliveryCallback] = None,
        timestamp: int = 0,
        headers: Optional[_HeadersIn] = None,
    ) -> None:
        """Enqueue one message; raises BufferError when the local queue is full."""
    def produce_batch(
        self,
        topic: str,
        messages: Union[List[Dict[str, Any]], Sequence[_Payload], _ArrowArray, None] = None,
        partition: Union[int, Sequence[Optional[int]], _ArrowArray] = -1,
        callback: Optional[_DeliveryCallback] = None,
        on_delivery: Optional[_DeliveryCallback] = None,
        *,
        keys: Union[Sequence[_Payload], _ArrowArray, None] = None,
        headers: Union[Sequence[Optional[_HeadersIn]], _ArrowArray, None] = None,
        timestamps: Union[Sequence[Optional[int]], _ArrowArray, None] = None,
        values: Union[Sequence[_Payload], _ArrowArray, None] = None,
    ) -> int:
        """Enqueue many messages for one topic; returns how many were enqueued.

        ``messages`` is a list of dicts (a bad dict raises before anything is enqueued; one
        librdkafka refuses gets ``'_error'``) or the values, as a sequence or an Arrow array, with
        ``keys``/``headers``/``timestamps`` alongside. ``callback`` wins over ``on_delivery``.
        """
    def poll(self, timeout: Optional[float] = -1) -> int:
        """Serve callbacks; returns the number of events served."""
    def flush(self, timeout: Optional[float] = -1) -> int:
        """Wait for outstanding messages; returns how many are still queued."""
    def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Drop queued and/or in-flight messages; they get ``_PURGE_*`` delivery reports."""
    def list_topics(self, topic: Optional[str] = None, timeout: Optional[float] = -1) -> ClusterMetadata: ...
    def cluster_id(self, timeout: Optional[float] = -1) -> str:
        """The cluster's id from broker metadata (brokers >= 0.10.1); KafkaException(_TIMED_OUT) if none arrives in time."""
    def init_transactions(self, timeout: Optional[float] = -1) -> None: ...
    def begin_transaction(self) -> None: ...
    def send_offsets_to_transaction(
        self, positions: List[TopicPartition], group_metadata: bytes, timeout: Optional[float] = -1
    ) -> None: ...
    def commit_transaction(self, timeout: Optional[float] = -1) -> None: ...
    def abort_transaction(self, timeout: Optional[float] = -1) -> None: ...
    def set_sasl_credentials(self, username: str, password: str) -> None: ...
    def close(self, timeout: Optional[float] = -1) -> bool:
        """Flush (up to ``timeout`` seconds), report what is left as purged, then
        release the client; safe to call more than once. Returns True. A delivery
        callback that raises ends the delivering: the client is closed all the same
        and close() raises that exception."""
    def __len__(self) -> int:
        """Messages and requests not yet delivered; 0 once closed."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> None: ...
    # asyncio layer (confluent_kafka.aio)
    def _io_event_fd(self) -> int: ...
    def _aio_results(self) -> List[Tuple[int, Any, Optional[BaseException]]]: ...
    def _end_transaction(self, commit: bool, timeout: Optional[float] = -1) -> None: ...
    def _produce_with(self, opaque: Any, callback: Callable[..., Any], topic: str, value: Any = None,
                      key: Any = None, partition: Optional[int] = None, timestamp: Optional[int] = None,
                      headers: Any = None, /) -> None: ...
    def _produce_awaited(self, future: Any,
                         spec: Tuple[Callable[..., Any], Tuple[type, ...], Tuple[type, Callable[..., Any]]],
                         topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                         timestamp: Optional[int] = None, headers: Any = None, /) -> None: ...
    def _produce_future(self, future: Any,
                        spec: Union[Tuple[type, type, Callable[..., Any], Tuple[type, ...]],
                                    Tuple[type, type, Callable[..., Any], Tuple[type, ...], Dict[Any, Any]],
                                    Tuple[type, type, Callable[..., Any], Tuple[type, ...], Dict[Any, Any],
                                          Tuple[type, Callable[..., Any]]]],
                        topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                        timestamp: Optional[int] = None, headers: Any = None, /) -> None: ...
    def _send_future(self, args: Tuple[type, Dict[str, Any], Tuple[Any, ...], int], topic: str, value: Any,
                     key: Any, partition: Optional[int], timestamp: Optional[int], headers: Any,
                     /) -> Optional[Any]: ...
    def _produce_record(self, future_class: builtins.type[_RF], spec: Tuple[type, type, Callable[..., Any], Tuple[type, ...],
                                                                   Dict[Any, Any]],
                        wait: Callable[[float], Any], args: Tuple[Optional[int], int, int, int], topic: str,
                        value: Any = None, key: Any = None, partition: Optional[int] = None,
                        timestamp: Optional[int] = None, headers: Any = None, /) -> _RF: ...

class Consumer:
    """Kafka consumer, either in a consumer group (``subscribe``) or with manual ``assign``."""

    def __init__(self, conf: _Conf = ..., /, **kwargs: Any) -> None:
        """A dict and/or keyword arguments naming a ``group.id``; without one, ValueError."""
    def subscribe(
        self,
        topics: List[str],
        on_assign: Optional[_RebalanceCallback] = None,
        on_revoke: Optional[_RebalanceCallback] = None,
        on_lost: Optional[_RebalanceCallback] = None,
    ) -> None: ...
    def unsubscribe(self) -> None: ...
    def subscription(self) -> List[str]:
        """The topics (or patterns) of the current subscription."""
    def assign(self, partitions: List[TopicPartition], /) -> None: ...
    def unassign(self) -> None: ...
    def incremental_assign(self, partitions: List[TopicPartition], /) -> None:
        """Add partitions to the assignment (cooperative rebalancing)."""
    def incremental_unassign(self, partitions: List[TopicPartition], /) -> None:
        """Remove partitions from the assignment (cooperative rebalancing)."""
    def assignment(self) -> List[TopicPartition]: ...
    def poll(self, timeout: Optional[float] = -1) -> Optional[Message]: ...
    def consume(self, num_messages: int = 1, timeout: Optional[float] = -1) -> List[Message]: ...
    def consume_arrow(self, num_messages: int = 1000, timeout: Optional[float] = -1,
                      headers: bool = True) -> ArrowBatch:
        """Up to ``num_messages`` messages as Arrow columns, without Message objects; with
        ``headers=False`` the headers column is all null and no header is read."""
    def commit(
        self,
        message: Optional[Message] = None,
        offsets: Optional[List[TopicPartition]] = None,
        asynchronous: bool = True,
    ) -> Optional[List[TopicPartition]]: ...
    def committed(self, partitions: List[TopicPartition], timeout: Optional[float] = -1) -> List[TopicPartition]: ...
    def position(self, partitions: List[TopicPartition], /) -> List[TopicPartition]: ...
    def seek(self, partition: TopicPartition, /) -> None: ...
    def pause(self, partitions: List[TopicPartition], /) -> None: ...
    def resume(self, partitions: List[TopicPartition], /) -> None: ...
    def paused(self) -> List[TopicPartition]:
        """The assigned partitions currently paused by :meth:`pause`."""
    def __iter__(self) -> "Consumer":
        """Iterate over messages; ``consumer_timeout_ms`` of idleness ends the loop."""
    def __next__(self) -> Message:
        """The next message; errors raise KafkaException."""
    def get_watermark_offsets(
        self, partition: TopicPartition, timeout: Optional[float] = -1, cached: bool = False
    ) -> Tuple[int, int]: ...
    def offsets_for_times(
        self, partitions: List[TopicPartition], timeout: Optional[float] = -1
    ) -> List[TopicPartition]: ...
    def store_offsets(
        self, message: Optional[Message] = None, offsets: Optional[List[TopicPartition]] = None
    ) -> None: ...
    def consumer_group_metadata(self) -> bytes: ...
    def memberid(self) -> Optional[str]: ...
    def _group_membership(self) -> Optional[Tuple[str, int, str, Optional[str]]]: ...
    def list_topics(self, topic: Optional[str] = None, timeout: Optional[float] = -1) -> ClusterMetadata: ...
    def cluster_id(self, timeout: Optional[float] = -1) -> str:
        """The cluster's id from broker metadata (brokers >= 0.10.1); KafkaException(_TIMED_OUT) if none arrives in time."""
    def set_sasl_credentials(self, username: str, password: str) -> None: ...
    def close(self) -> None:
        """Leave the group and release the client; safe to call more than once."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> None: ...
    # asyncio layer (confluent_kafka.aio)
    def _io_event_fd(self) -> int: ...
    def _aio_results(self) -> List[Tuple[int, Any, Optional[BaseException]]]: ...
    def _commit_start(self, token: int, message: Optional[Message] = None,
                      offsets: Optional[List[TopicPartition]] = None) -> None: ...
    def _close_start(self) -> None: ...
    def _close_serve(self) -> bool: ...
    def _group_closed(self) -> bool: ...
    def _defer_rebalance(self) -> None: ...
    def _rebalance_finish(self, assign: bool, partitions: List[TopicPartition], /) -> None: ...
    # the aiokafka facade's getmany()
    def _consume_records(self, num_messages: int, cls: type, layout: str, names: Optional[Tuple[str, ...]],
                         by: Optional[type], wanted: Optional[AbstractSet[Tuple[str, int]]] = None,
                         /) -> Union[Dict[Any, List[Any]], List[Any], List[Message]]:
        """``consume(num_messages, 0)`` as ``_records(messages, cls, layout, names, by)``, without the
        Messages; the Messages themselves when one carries an error, is of a partition not in
        ``wanted`` (or some were kept from a call that raised)."""

class ArrowBatch:
    """Consumed messages as Arrow columns (``Consumer.consume_arrow()``)."""

    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> Tuple[str, ...]: ...
    def __len__(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: object = None) -> Tuple[object, object]: ...
    def __arrow_c_schema__(self) -> object: ...
    def to_pyarrow(self) -> Any:
        """The batch as a ``pyarrow.RecordBatch`` (zero-copy; needs pyarrow)."""

class MockCluster:
    """librdkafka's in-process mock Kafka cluster, listening on loopback."""

    def __init__(self, num_brokers: int = 3) -> None: ...
    @property
    def bootstrap_servers(self) -> str: ...
    def create_topic(self, name: str, partitions: int = 1, replication_factor: int = 1) -> None:
        """Create a topic (topics are otherwise auto-created with 4 partitions)."""
    def broker_down(self, broker_id: int, /) -> None:
        """Disconnect the broker's clients and refuse new connections."""
    def broker_up(self, broker_id: int, /) -> None:
        """Bring a broker taken down with :meth:`broker_down` back."""
    def set_rtt(self, broker_id: int, rtt_ms: int, /) -> None:
        """Delay every response of this broker by ``rtt_ms`` milliseconds."""
    def push_request_errors(self, api_key: int, errors: Sequence[int], /) -> None:
        """Make the next requests with this Kafka API key fail with these codes, in order."""
    def clear_request_errors(self, api_key: int, /) -> None:
        """Drop the errors still queued for this Kafka API key."""
    def set_partition_leader(self, topic: str, partition: int, broker_id: int, /) -> None:
        """Move a partition's leadership to ``broker_id``."""
    def set_coordinator(self, key_type: str, key: str, broker_id: int, /) -> None:
        """Make ``broker_id`` the coordinator of a group or transactional id
        (``key_type`` is ``"group"`` or ``"transaction"``)."""
    def close(self) -> None:
        """Stop the brokers; safe to call more than once."""
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> Optional[bool]: ...

# Options dict of the _AdminClientImpl requests: request_timeout / operation_timeout (milliseconds),
# broker (int), validate_only, require_stable, include_authorized_operations (bool), isolation_level
# (int), states / types (lists of int).
_AdminOptions: TypeAlias = Optional[Dict[str, Any]]
_AdminFuture: TypeAlias = Any  # a concurrent.futures.Future, resolved from librdkafka's thread

class _AdminClientImpl:
    """The C core of ``confluent_kafka.admin.AdminClient``: each ``_request`` sends one admin
    request and resolves the given future with plain values from librdkafka's background
    thread. Use ``AdminClient``; these methods take already-checked arguments."""

    def __init__(self, conf: Optional[_Conf] = None, /, **kwargs: Any) -> None: ...
    def _create_topics(self, future: _AdminFuture, topics: List[Tuple[Any, ...]], options: _AdminOptions, /) -> None: ...
    def _delete_topics(self, future: _AdminFuture, topics: List[str], options: _AdminOptions, /) -> None: ...
    def _create_partitions(
        self, future: _AdminFuture, partitions: List[Tuple[Any, ...]], options: _AdminOptions, /
    ) -> None: ...
    def _describe_configs(
        self, future: _AdminFuture, resources: List[Tuple[int, str]], options: _AdminOptions, /
    ) -> None: ...
    def _alter_configs(
        self, future: _AdminFuture, resources: List[Tuple[Any, ...]], options: _AdminOptions, /
    ) -> None: ...
    def _incremental_alter_configs(
        self, future: _AdminFuture, resources: List[Tuple[Any, ...]], options: _AdminOptions, /
    ) -> None: ...
    def _create_acls(self, future: _AdminFuture, acls: List[Tuple[Any, ...]], options: _AdminOptions, /) -> None: ...
    def _describe_acls(self, future: _AdminFuture, acl_filter: Tuple[Any, ...], options: _AdminOptions, /) -> None: ...
    def _delete_acls(
        self, future: _AdminFuture, acl_filters: List[Tuple[Any, ...]], options: _AdminOptions, /
    ) -> None: ...
    def _list_consumer_groups(self, future: _AdminFuture, options: _AdminOptions, /) -> None: ...
    def _describe_consumer_groups(self, future: _AdminFuture, group_ids: List[str], options: _AdminOptions, /) -> None: ...
    def _delete_consumer_groups(self, future: _AdminFuture, group_ids: List[str], options: _AdminOptions, /) -> None: ...
    def _list_consumer_group_offsets(
        self, future: _AdminFuture, requests: List[Tuple[str, Optional[List[TopicPartition]]]],
        options: _AdminOptions, /
    ) -> None: ...
    def _alter_consumer_group_offsets(
        self, future: _AdminFuture, requests: List[Tuple[str, List[TopicPartition]]], options: _AdminOptions, /
    ) -> None: ...
    def _describe_topics(self, future: _AdminFuture, topics: List[str], options: _AdminOptions, /) -> None: ...
    def _describe_cluster(self, future: _AdminFuture, options: _AdminOptions, /) -> None: ...
    def _list_offsets(
        self, future: _AdminFuture, partitions: List[TopicPartition], options: _AdminOptions, /
    ) -> None: ...
    def _delete_records(
        self, future: _AdminFuture, partitions: List[TopicPartition], options: _AdminOptions, /
    ) -> None: ...
    def _elect_leaders(
        self, future: _AdminFuture, election_type: int, partitions: Optional[List[TopicPartition]],
        options: _AdminOptions, /
    ) -> None: ...
    def _describe_user_scram_credentials(
        self, future: _AdminFuture, users: List[str], options: _AdminOptions, /
    ) -> None: ...
    def _alter_user_scram_credentials(
        self, future: _AdminFuture, alterations: List[Tuple[Any, ...]], options: _AdminOptions, /
    ) -> None: ...
    def _list_groups(self, group: Optional[str] = None, timeout: Optional[float] = -1) -> List[Tuple[Any, ...]]: ...
    def _check_open(self) -> None: ...
    def list_topics(self, topic: Optional[str] = None, timeout: Optional[float] = -1) -> ClusterMetadata: ...
    def cluster_id(self, timeout: Optional[float] = -1) -> str:
        """The cluster's id from broker metadata (brokers >= 0.10.1); KafkaException(_TIMED_OUT) if none arrives in time."""
    def set_sasl_credentials(self, username: str, password: str) -> None: ...
    def poll(self, timeout: float) -> int:
        """Serve error_cb, stats_cb, throttle_cb and logger callbacks (results need no poll)."""
    def close(self) -> bool:
        """Release the client; pending futures fail with ``KafkaError._DESTROY``."""
    def __len__(self) -> int: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, *exc: object) -> None: ...

# ---- admin request and id types, admin constants ----------------------------------------------

class NewTopic:
    """A topic for AdminClient.create_topics(); checked when the request is made."""

    topic: str
    num_partitions: int
    replication_factor: int
    replica_assignment: Optional[List[List[int]]]
    config: Optional[Dict[str, Any]]
    def __init__(
        self,
        topic: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        replica_assignment: Optional[List[List[int]]] = ...,
        config: Dict[str, Any] = ...,
    ) -> None: ...
    def __lt__(self, other: "NewTopic") -> bool: ...
    def __le__(self, other: "NewTopic") -> bool: ...
    def __gt__(self, other: "NewTopic") -> bool: ...
    def __ge__(self, other: "NewTopic") -> bool: ...
    def __hash__(self) -> int: ...

class NewPartitions:
    """A partition count for AdminClient.create_partitions(); checked when the request is made."""

    topic: str
    new_total_count: int
    replica_assignment: Optional[List[List[int]]]
    def __init__(self, topic: str, new_total_count: int, replica_assignment: Optional[List[List[int]]] = ...) -> None: ...
    def __lt__(self, other: "NewPartitions") -> bool: ...
    def __le__(self, other: "NewPartitions") -> bool: ...
    def __gt__(self, other: "NewPartitions") -> bool: ...
    def __ge__(self, other: "NewPartitions") -> bool: ...
    def __hash__(self) -> int: ...

class Uuid:
    """A 128-bit id (topic ids); str() is Kafka's base64 form."""

    def __init__(self, most_significant_bits: int, least_significant_bits: int) -> None: ...
    def get_most_significant_bits(self) -> int: ...
    def get_least_significant_bits(self) -> int: ...
    def __hash__(self) -> int: ...

ACL_OPERATION_UNKNOWN: Final = 0
ACL_OPERATION_ANY: Final = 1
ACL_OPERATION_ALL: Final = 2
ACL_OPERATION_READ: Final = 3
ACL_OPERATION_WRITE: Final = 4
ACL_OPERATION_CREATE: Final = 5
ACL_OPERATION_DELETE: Final = 6
ACL_OPERATION_ALTER: Final = 7
ACL_OPERATION_DESCRIBE: Final = 8
ACL_OPERATION_CLUSTER_ACTION: Final = 9
ACL_OPERATION_DESCRIBE_CONFIGS: Final = 10
ACL_OPERATION_ALTER_CONFIGS: Final = 11
ACL_OPERATION_IDEMPOTENT_WRITE: Final = 12
ACL_PERMISSION_TYPE_UNKNOWN: Final = 0
ACL_PERMISSION_TYPE_ANY: Final = 1
ACL_PERMISSION_TYPE_DENY: Final = 2
ACL_PERMISSION_TYPE_ALLOW: Final = 3
ALTER_CONFIG_OP_TYPE_SET: Final = 0
ALTER_CONFIG_OP_TYPE_DELETE: Final = 1
ALTER_CONFIG_OP_TYPE_APPEND: Final = 2
ALTER_CONFIG_OP_TYPE_SUBTRACT: Final = 3
CONFIG_SOURCE_UNKNOWN_CONFIG: Final = 0
CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG: Final = 1
CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG: Final = 2
CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG: Final = 3
CONFIG_SOURCE_STATIC_BROKER_CONFIG: Final = 4
CONFIG_SOURCE_DEFAULT_CONFIG: Final = 5
CONFIG_SOURCE_GROUP_CONFIG: Final = 8
CONSUMER_GROUP_STATE_UNKNOWN: Final = 0
CONSUMER_GROUP_STATE_PREPARING_REBALANCE: Final = 1
CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: Final = 2
CONSUMER_GROUP_STATE_STABLE: Final = 3
CONSUMER_GROUP_STATE_DEAD: Final = 4
CONSUMER_GROUP_STATE_EMPTY: Final = 5
CONSUMER_GROUP_TYPE_UNKNOWN: Final = 0
CONSUMER_GROUP_TYPE_CONSUMER: Final = 1
CONSUMER_GROUP_TYPE_CLASSIC: Final = 2
ELECTION_TYPE_PREFERRED: Final = 0
ELECTION_TYPE_UNCLEAN: Final = 1
ISOLATION_LEVEL_READ_UNCOMMITTED: Final = 0
ISOLATION_LEVEL_READ_COMMITTED: Final = 1
OFFSET_SPEC_MAX_TIMESTAMP: Final = -3
OFFSET_SPEC_EARLIEST: Final = -2
OFFSET_SPEC_LATEST: Final = -1
RESOURCE_UNKNOWN: Final = 0
RESOURCE_ANY: Final = 1
RESOURCE_TOPIC: Final = 2
RESOURCE_GROUP: Final = 3
RESOURCE_BROKER: Final = 4
RESOURCE_TRANSACTIONAL_ID: Final = 5
RESOURCE_PATTERN_UNKNOWN: Final = 0
RESOURCE_PATTERN_ANY: Final = 1
RESOURCE_PATTERN_MATCH: Final = 2
RESOURCE_PATTERN_LITERAL: Final = 3
RESOURCE_PATTERN_PREFIXED: Final = 4
SCRAM_MECHANISM_UNKNOWN: Final = 0
SCRAM_MECHANISM_SHA_256: Final = 1
SCRAM_MECHANISM_SHA_512: Final = 2
