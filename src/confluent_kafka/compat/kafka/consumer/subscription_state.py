"""``kafka.consumer.subscription_state``: the rebalance listener interfaces."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Collection

__all__ = ["ConsumerRebalanceListener", "AsyncConsumerRebalanceListener"]


class ConsumerRebalanceListener(ABC):
    """Told when a group rebalance takes partitions away from this consumer or gives it new ones.

    The methods run inside ``poll()``/iteration on the consumer's thread, revocation first.
    """

    @abstractmethod
    def on_partitions_revoked(self, revoked: Collection[Any]) -> None:
        """Called before partitions are taken away (commit their offsets here).

        :param revoked: the TopicPartitions being revoked.
        """

    @abstractmethod
    def on_partitions_assigned(self, assigned: Collection[Any]) -> None:
        """Called once the new assignment is known.

        :param assigned: the TopicPartitions now assigned.
        """

    def on_partitions_lost(self, lost: Collection[Any]) -> None:
        """Called when partitions were lost without a clean revocation; defaults to
        :meth:`on_partitions_revoked`.

        :param lost: the TopicPartitions lost.
        """
        self.on_partitions_revoked(lost)


class AsyncConsumerRebalanceListener(ABC):
    """The coroutine form of :class:`ConsumerRebalanceListener`; the facade runs each coroutine
    to completion on a private event loop."""

    @abstractmethod
    async def on_partitions_revoked(self, revoked: Collection[Any]) -> None:
        """Called before partitions are taken away."""

    @abstractmethod
    async def on_partitions_assigned(self, assigned: Collection[Any]) -> None:
        """Called once the new assignment is known."""

    async def on_partitions_lost(self, lost: Collection[Any]) -> None:
        """Called when partitions were lost; defaults to :meth:`on_partitions_revoked`."""
        await self.on_partitions_revoked(lost)
