"""``aiokafka.partitioner`` of the aiokafka facade: :class:`DefaultPartitioner` and ``murmur2``.

A producer given a plain ``DefaultPartitioner()`` (aiokafka's default) partitions with
librdkafka's ``murmur2_random`` in C: the Java client's murmur2 of the key, as here; records
without a key stay on one random partition for 10 ms (or twice ``linger_ms``), where this class
picks one for each (docs/aiokafka.md, "Options", says why). A subclass that overrides
``__call__``, or any other callable, is called in Python by ``send()``.
"""
from __future__ import annotations

import random
from typing import Any, List, Sequence

from confluent_kafka.compat.kafka.partitioner import murmur2

__all__ = ["DefaultPartitioner", "murmur2"]


class DefaultPartitioner:
    """murmur2 of the key over all partitions, as the Java client; without a key, a random one of
    the available partitions (of all partitions when none is available)."""

    @classmethod
    def __call__(cls, key: Any, all_partitions: List[int], available: Sequence[int]) -> int:
        """The partition of one record.

        :param key: the serialized key (bytes), or None.
        :param all_partitions: every partition of the topic, sorted by id.
        :param available: the partitions with a leader, in any order.
        :returns: one of ``all_partitions`` (or of ``available``, for a record without a key).
        """
        if key is None:
            return random.choice(available or all_partitions)
        return all_partitions[(murmur2(key) & 0x7FFFFFFF) % len(all_partitions)]

    def __repr__(self) -> str:
        return "DefaultPartitioner()"


def runs_in_librdkafka(partitioner: Any) -> bool:
    """Whether ``partitioner`` is librdkafka's ``murmur2_random``: a DefaultPartitioner whose
    ``__call__`` is the stock one."""
    return isinstance(partitioner, DefaultPartitioner) and type(partitioner).__call__ == DefaultPartitioner.__call__
