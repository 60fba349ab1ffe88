"""What :meth:`AdminClient.list_offsets` looks up (:class:`OffsetSpec`) and finds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Dict, Optional

from .. import cimpl

__all__ = ["EarliestSpec", "LatestSpec", "ListOffsetsResultInfo", "MaxTimestampSpec", "OffsetSpec",
           "TimestampSpec"]


class OffsetSpec(ABC):
    """Which offset of a partition :meth:`AdminClient.list_offsets` looks up: make one with
    :meth:`earliest`, :meth:`latest`, :meth:`max_timestamp` or :meth:`for_timestamp`.
    ``OffsetSpec(index)`` maps librdkafka's codes (-1 latest, -2 earliest, -3 max timestamp)
    to those, and any index >= 0 to the timestamp spec. Specs order by that index.
    """

    _values: Dict[int, "OffsetSpec"] = {}
    _max_timestamp: Optional["MaxTimestampSpec"] = None
    _earliest: Optional["EarliestSpec"] = None
    _latest: Optional["LatestSpec"] = None

    @property
    @abstractmethod
    def _value(self) -> int:
        """The index librdkafka takes."""

    @classmethod
    def _fill_values(cls) -> None:
        cls._max_timestamp = MaxTimestampSpec()
        cls._earliest = EarliestSpec()
        cls._latest = LatestSpec()
        cls._values.update({cimpl.OFFSET_SPEC_MAX_TIMESTAMP: cls._max_timestamp,
                            cimpl.OFFSET_SPEC_EARLIEST: cls._earliest,
                            cimpl.OFFSET_SPEC_LATEST: cls._latest})

    @classmethod
    def earliest(cls) -> Any:
        """The first offset of the partition.

        :returns: The (shared) :class:`EarliestSpec`.
        """
        return cls._earliest

    @classmethod
    def latest(cls) -> Any:
        """The offset after the last message of the partition.

        :returns: The (shared) :class:`LatestSpec`.
        """
        return cls._latest

    @classmethod
    def max_timestamp(cls) -> Any:
        """The offset of the message with the largest timestamp.

        :returns: The (shared) :class:`MaxTimestampSpec`.
        """
        return cls._max_timestamp

    @classmethod
    def for_timestamp(cls, timestamp: int) -> Any:
        """The first offset whose timestamp is at or after ``timestamp``.

        :param timestamp: Milliseconds since the epoch.
        :returns: A new :class:`TimestampSpec`.
        """
        return TimestampSpec(timestamp)

    def __new__(cls, index: int) -> Any:
        if index < 0:
            return cls._values[index]
        return cls.for_timestamp(index)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, OffsetSpec):
            return NotImplemented
        return bool(self._value < other._value)


class TimestampSpec(OffsetSpec):
    """The first offset whose timestamp is at or after ``timestamp`` (milliseconds).

    :param timestamp: Milliseconds since the epoch.
    """

    def __new__(cls, _: int) -> Any:
        return object.__new__(cls)

    def __init__(self, timestamp: int) -> None:
        self.timestamp = timestamp

    @property
    def _value(self) -> int:
        return self.timestamp


class MaxTimestampSpec(OffsetSpec):
    """The offset of the message with the largest timestamp (which need not be the last one)."""

    def __new__(cls) -> Any:
        return object.__new__(cls)

    @property
    def _value(self) -> int:
        return int(cimpl.OFFSET_SPEC_MAX_TIMESTAMP)


class LatestSpec(OffsetSpec):
    """The offset after the last message."""

    def __new__(cls) -> Any:
        return object.__new__(cls)

    @property
    def _value(self) -> int:
        return int(cimpl.OFFSET_SPEC_LATEST)


class EarliestSpec(OffsetSpec):
    """The first offset."""

    def __new__(cls) -> Any:
        return object.__new__(cls)

    @property
    def _value(self) -> int:
        return int(cimpl.OFFSET_SPEC_EARLIEST)


OffsetSpec._fill_values()


class ListOffsetsResultInfo:
    """The offset :meth:`AdminClient.list_offsets` found for one partition.

    :param offset: The offset.
    :param timestamp: The timestamp of that message in milliseconds (-1 for earliest/latest).
    :param leader_epoch: The leader epoch; a negative one is stored as None.
    """

    def __init__(self, offset: int, timestamp: int, leader_epoch: int) -> None:
        self.offset = offset
        self.timestamp = timestamp
        self.leader_epoch: Optional[int] = None if leader_epoch < 0 else leader_epoch
