"""``kafka.record.abc`` of the kafka-python facade: the abstract shapes of a record, a record
batch, a batch builder and a buffer of batches, with kafka-python's names and abstract members.

Nothing in the facade derives from them (its records are ``ConsumerRecord`` named tuples); they
exist for type annotations and ``isinstance`` checks against user subclasses.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Iterator, List, Optional, Tuple


class ABCRecord(ABC):
    """One record of a batch."""

    __slots__ = ()

    @property
    @abstractmethod
    def size_in_bytes(self) -> int:
        """The record's encoded size."""

    @property
    @abstractmethod
    def offset(self) -> int:
        """The record's offset."""

    @property
    @abstractmethod
    def timestamp(self) -> Optional[int]:
        """Milliseconds since the epoch, or None."""

    @property
    @abstractmethod
    def timestamp_type(self) -> Optional[int]:
        """0 (create time), 1 (log append time), or None."""

    @property
    @abstractmethod
    def key(self) -> Optional[bytes]:
        """The key, or None."""

    @property
    @abstractmethod
    def value(self) -> Optional[bytes]:
        """The value, or None."""

    @property
    @abstractmethod
    def checksum(self) -> Optional[int]:
        """The record's CRC (None in format v2, which checks whole batches)."""

    @abstractmethod
    def validate_crc(self) -> bool:
        """Whether the record's checksum matches its content."""

    @property
    @abstractmethod
    def headers(self) -> List[Tuple[str, Optional[bytes]]]:
        """(key, value) pairs."""


class ABCRecordBatchBuilder(ABC):
    """Encodes records into one batch."""

    __slots__ = ()

    @abstractmethod
    def append(self, offset: int, timestamp: Optional[int], key: Optional[bytes], value: Optional[bytes],
               headers: Any = None) -> Any:
        """Add a record; returns its metadata, or None when the batch is full."""

    @abstractmethod
    def size_in_bytes(self, offset: int, timestamp: Optional[int], key: Optional[bytes],
                      value: Optional[bytes], headers: Any) -> int:
        """The encoded size the record would take."""

    @abstractmethod
    def build(self) -> bytearray:
        """The encoded batch."""


class ABCRecordBatch(ABC):
    """One decoded batch: iterating gives its records."""

    __slots__ = ()

    @abstractmethod
    def __iter__(self) -> Iterator[ABCRecord]:
        """The batch's records."""

    @property
    @abstractmethod
    def base_offset(self) -> int:
        """The offset of the batch's first record."""

    @property
    @abstractmethod
    def size_in_bytes(self) -> int:
        """The batch's encoded size."""

    @property
    @abstractmethod
    def magic(self) -> int:
        """The format version (0, 1 or 2)."""


class ABCRecords(ABC):
    """A buffer of encoded batches, read one batch at a time."""

    __slots__ = ()

    @abstractmethod
    def __init__(self, buffer: bytes) -> None:
        """Wrap ``buffer``."""

    @abstractmethod
    def size_in_bytes(self) -> int:
        """The buffer's size."""

    @abstractmethod
    def next_batch(self) -> Optional[ABCRecordBatch]:
        """The next batch, or None at the end."""

    @abstractmethod
    def has_next(self) -> bool:
        """Whether another batch follows."""
