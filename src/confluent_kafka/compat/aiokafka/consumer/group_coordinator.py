"""``aiokafka.consumer.group_coordinator`` of the aiokafka facade: what a program reads of a
started consumer's ``_coordinator``.

aiokafka's coordinator runs the group protocol itself; here librdkafka runs it, and these
objects report its membership. Programs and frameworks read ``member_id`` and ``generation``
(FastStream logs them on every rebalance), so those are kept; the protocol's internals are not.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

#: aiokafka's values before the first join and after leaving (JoinGroupRequest, OffsetCommitRequest).
UNKNOWN_MEMBER_ID = ""
DEFAULT_GENERATION_ID = -1


class BaseCoordinator:
    """A started consumer's coordinator; what both kinds share."""

    def __init__(self, consumer: Any) -> None:
        self._consumer = consumer


class NoGroupCoordinator(BaseCoordinator):
    """The coordinator of a consumer without ``group_id``: no membership, as in aiokafka (whose
    NoGroupCoordinator has no ``member_id`` or ``generation`` either)."""


class GroupCoordinator(BaseCoordinator):
    """The coordinator of a group member: ``group_id``, ``member_id`` and ``generation`` read live
    from librdkafka's group metadata (``""`` and ``-1`` before the first join and after stop())."""

    def _membership(self) -> Optional[Tuple[str, int, str, Optional[str]]]:
        if self._consumer._closed:
            return None
        membership: Optional[Tuple[str, int, str, Optional[str]]] = self._consumer._c._group_membership()
        return membership

    @property
    def group_id(self) -> str:
        """The consumer's group."""
        group: str = self._consumer._group_id
        return group

    @property
    def member_id(self) -> str:
        """The member id the coordinator gave this consumer, ``""`` while it has none."""
        membership = self._membership()
        return UNKNOWN_MEMBER_ID if membership is None else membership[2]

    @property
    def generation(self) -> int:
        """The group generation this consumer last joined, ``-1`` while it has not joined."""
        membership = self._membership()
        return DEFAULT_GENERATION_ID if membership is None else membership[1]
