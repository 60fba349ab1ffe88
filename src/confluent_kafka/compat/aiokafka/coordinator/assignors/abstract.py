"""``aiokafka.coordinator.assignors.abstract`` of the aiokafka facade."""
from __future__ import annotations

import abc
from typing import Any

__all__ = ["AbstractPartitionAssignor"]


class AbstractPartitionAssignor(abc.ABC):
    """Base of the assignors; ``name`` is the librdkafka ``partition.assignment.strategy`` value.

    Only the built-in subclasses (range, roundrobin) can be used with the facade: librdkafka
    computes the assignment in C and cannot call a Python assignor.
    """

    name: str = ""

    @classmethod
    @abc.abstractmethod
    def assign(cls, cluster: Any, members: Any) -> Any:
        """Not called by the facade (librdkafka assigns).

        :param cluster: the cluster metadata.
        :param members: the group members' subscriptions.
        :returns: the assignment.
        """


class _BuiltInAssignor(AbstractPartitionAssignor):
    """An assignor the facade never calls: librdkafka assigns. The consumer passes the ``name`` of
    a built-in one (range, roundrobin) on, and refuses the others (sticky) by name."""

    #: Why :meth:`assign` is not available (``{name}``: the assignor's name).
    _unavailable = "librdkafka runs the {name} assignment itself"

    @classmethod
    def assign(cls, cluster: Any, members: Any) -> Any:
        """Not available: librdkafka computes the assignment in C.

        :param cluster: the cluster metadata.
        :param members: the group members' subscriptions.
        :returns: never.
        :raises NotImplementedError: always.
        """
        raise NotImplementedError(cls._unavailable.format(name=cls.name))
