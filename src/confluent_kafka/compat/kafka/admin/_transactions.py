"""``kafka.admin``'s transaction types (KIP-664 hanging-transaction tooling)."""
from __future__ import annotations

from enum import Enum
from typing import List, NamedTuple, Set

from confluent_kafka.compat.kafka.admin._enums import EnumHelper
from confluent_kafka.compat.kafka.structs import TopicPartition

__all__ = ["AbortTransactionSpec", "PartitionProducerState", "ProducerState", "TransactionDescription",
           "TransactionListing", "TransactionState"]


class TransactionState(EnumHelper, str, Enum):
    """A transaction's state, by the name the broker reports."""

    EMPTY = "Empty"
    ONGOING = "Ongoing"
    PREPARE_COMMIT = "PrepareCommit"
    PREPARE_ABORT = "PrepareAbort"
    COMPLETE_COMMIT = "CompleteCommit"
    COMPLETE_ABORT = "CompleteAbort"
    DEAD = "Dead"
    PREPARE_EPOCH_FENCE = "PrepareEpochFence"
    UNKNOWN = "Unknown"


class TransactionListing(NamedTuple):
    """A transaction as ListTransactions lists it."""

    transactional_id: str
    producer_id: int
    state: TransactionState


class TransactionDescription(NamedTuple):
    """A transactional id's state (DescribeTransactions) and its coordinator."""

    coordinator_id: int
    state: TransactionState
    producer_id: int
    producer_epoch: int
    transaction_timeout_ms: int
    transaction_start_time_ms: int
    topic_partitions: Set[TopicPartition]


class ProducerState(NamedTuple):
    """An active producer on a partition (DescribeProducers)."""

    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int
    current_transaction_start_offset: int


class PartitionProducerState(NamedTuple):
    """The active producers of a partition."""

    active_producers: List[ProducerState]


class AbortTransactionSpec(NamedTuple):
    """What :meth:`KafkaAdminClient.abort_transaction` aborts (``coordinator_epoch=-1``: skip
    the coordinator epoch check)."""

    topic_partition: TopicPartition
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int = -1
