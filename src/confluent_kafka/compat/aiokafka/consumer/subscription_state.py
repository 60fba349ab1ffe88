"""``aiokafka.consumer.subscription_state`` of the aiokafka facade: what a program reads of a
consumer's ``_subscription``.

aiokafka keeps its subscription and assignment there; here librdkafka keeps them, and this object
reports the subscribed topics, which frameworks read (FastStream names them when a consumer has
had no partitions for a while). The rest of aiokafka's bookkeeping is not provided.
"""
from __future__ import annotations

from typing import Any, FrozenSet


class SubscriptionState:
    """A consumer's subscription, read live from the consumer."""

    def __init__(self, consumer: Any) -> None:
        self._consumer = consumer

    @property
    def topics(self) -> FrozenSet[str]:
        """The subscribed topic names, as ``consumer.subscription()`` gives them (empty once stopped)."""
        if self._consumer._closed:
            return frozenset()
        topics: FrozenSet[str] = self._consumer.subscription()
        return topics
