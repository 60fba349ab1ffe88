"""``aiokafka.structs`` of the aiokafka facade: the value types aiokafka's API passes around."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Generic, List, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

from confluent_kafka.cimpl import _SlotField

from .errors import KafkaError

__all__ = ["BrokerMetadata", "ConsumerRecord", "OffsetAndMetadata", "PartitionMetadata", "RecordMetadata",
           "TopicPartition"]  # aiokafka's list (OffsetAndTimestamp is defined, and left out of it, there too)


class TopicPartition(NamedTuple):
    """A topic and a partition (hashable: a dict key of getmany() and commit())."""

    topic: str
    partition: int


class BrokerMetadata(NamedTuple):
    """A broker of the cluster."""

    nodeId: Union[int, str]
    host: str
    port: int
    rack: Optional[str]


class PartitionMetadata(NamedTuple):
    """The metadata of one partition."""

    topic: str
    partition: int
    leader: int
    replicas: List[int]
    isr: List[int]
    error: Optional[KafkaError]


class OffsetAndMetadata(NamedTuple):
    """An offset to commit and its metadata string."""

    offset: int
    metadata: str


class RecordMetadata(NamedTuple):
    """Where a sent message landed: what the future of ``AIOKafkaProducer.send()`` resolves to.

    ``timestamp_type`` is 0 for CreateTime (the producer's timestamp) and 1 for LogAppendTime.
    """

    topic: str
    partition: int
    topic_partition: TopicPartition
    offset: int
    timestamp: Optional[int]
    timestamp_type: int
    log_start_offset: Optional[int]


KT = TypeVar("KT")
VT = TypeVar("VT")


_RECORD_FIELDS = ("topic", "partition", "offset", "timestamp", "timestamp_type", "key", "value", "checksum",
                  "serialized_key_size", "serialized_value_size", "headers")


@dataclass
class ConsumerRecord(Generic[KT, VT]):
    """A consumed record; ``key`` and ``value`` are deserialized when a deserializer was given.

    ``timestamp_type`` is 0 for CreateTime and 1 for LogAppendTime; ``checksum`` is always None
    (record batches of message format v2 have none per record); the sizes are -1 for None.

    The fields live in slots, not in an instance dict: the consumer fills them straight from C,
    at a third of the cost of setting the attributes of a dict-backed data class (getmany()
    makes one per message). ``vars(record)`` and ``record.__dict__`` still give the fields by
    name, as aiokafka's record does; that dict is a copy, and an attribute that is not a field
    cannot be added (AttributeError). See docs/aiokafka.md, "Differences".
    """

    __slots__ = _RECORD_FIELDS + ("__weakref__",)

    topic: str
    partition: int
    offset: int
    timestamp: int
    timestamp_type: int
    key: Optional[KT]
    value: Optional[VT]
    checksum: Optional[int]
    serialized_key_size: int
    serialized_value_size: int
    headers: Sequence[Tuple[str, bytes]]

    # object.__dict__ is an attribute; here it is computed
    @property
    def __dict__(self) -> Dict[str, Any]:  # type: ignore[override]
        """The fields by name (a new dict each time: changing it leaves the record as it is)."""
        return {name: getattr(self, name) for name in _RECORD_FIELDS}

    # Pickling by every protocol (0 and 1 refuse a slotted class without these), as aiokafka's
    # record pickles.
    def __getstate__(self) -> Dict[str, Any]:
        return self.__dict__

    def __setstate__(self, state: Dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)


# The consumer makes records of str, int, bytes and tuples, which can never be in a reference
# cycle, and leaves them out of the garbage collector (whose collections otherwise walk every
# record still alive, a third of getmany()'s time). These fields store a value as the slots do
# and have the collector watch the record again once a field holds anything that could lead
# back to it.
for _name in _RECORD_FIELDS:
    setattr(ConsumerRecord, _name, _SlotField(vars(ConsumerRecord)[_name]))
del _name


class OffsetAndTimestamp(NamedTuple):
    """An offset found by ``offsets_for_times()`` and the timestamp of its record."""

    offset: int
    timestamp: Optional[int]
