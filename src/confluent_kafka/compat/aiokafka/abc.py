"""``aiokafka.abc`` of the aiokafka facade: the rebalance listener and token provider interfaces."""
from __future__ import annotations

import abc
from typing import Any, Dict

__all__ = ["AbstractTokenProvider", "ConsumerRebalanceListener"]


class ConsumerRebalanceListener(abc.ABC):
    """Called when the consumer's partitions change (pass one to ``subscribe(listener=...)``).

    Both methods may be plain functions or coroutines; the consumer waits for them. Before the
    first assignment ``on_partitions_revoked`` gets an empty set, as in aiokafka. Positions set with
    ``seek*()`` inside ``on_partitions_assigned`` are where fetching starts.
    """

    @abc.abstractmethod
    def on_partitions_revoked(self, revoked: Any) -> Any:
        """Called before a rebalance takes these partitions away (commit or save state here).

        :param revoked: set of :class:`~.structs.TopicPartition`.
        """

    @abc.abstractmethod
    def on_partitions_assigned(self, assigned: Any) -> Any:
        """Called after a rebalance gave these partitions.

        :param assigned: set of :class:`~.structs.TopicPartition`.
        """


class AbstractTokenProvider(abc.ABC):
    """An OAUTHBEARER token source: ``async def token()`` returns the token string."""

    def __init__(self, **config: Any) -> None:
        pass

    @abc.abstractmethod
    async def token(self) -> str:
        """The current token.

        :returns: the token string.
        """

    def extensions(self) -> Dict[str, str]:
        """SASL extensions sent with the token (none unless overridden).

        :returns: a dict of extension names to values.
        """
        return {}
