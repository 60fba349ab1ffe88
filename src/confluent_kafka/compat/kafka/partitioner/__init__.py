"""``kafka.partitioner``: partitioners for ``KafkaProducer(partitioner=...)``.

:class:`DefaultPartitioner` and :class:`StickyPartitioner` run as librdkafka's ``murmur2_random``
partitioner (the Java client's hash for keyed records; for records without a key, librdkafka's
sticky partitioning: one partition for 10 ms, or twice ``linger_ms``), so ``send()`` calls no
Python for them. Any other :class:`Partitioner` is called in ``send()`` with a small cluster view
(``topics()``, ``partitions_for_topic()``, ``available_partitions_for_topic()``).
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, List, Optional

__all__ = ["Partitioner", "DefaultPartitioner", "StickyPartitioner", "murmur2"]


def murmur2(data: bytes) -> int:
    """The Java client's murmur2 hash of ``data`` (seed 0x9747b28c).

    :param data: the serialized key.
    :returns: the hash as an unsigned 32-bit int (callers mask it with ``0x7fffffff``).
    """
    length = len(data)
    m, r = 0x5BD1E995, 24
    h = (0x9747B28C ^ length) & 0xFFFFFFFF
    whole = length - (length % 4)
    for i in range(0, whole, 4):
        k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> r
        k = (k * m) & 0xFFFFFFFF
        h = (h * m) & 0xFFFFFFFF
        h ^= k
    rest = length % 4
    if rest == 3:
        h ^= data[whole + 2] << 16
    if rest >= 2:
        h ^= data[whole + 1] << 8
    if rest >= 1:
        h ^= data[whole]
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h


class Partitioner(ABC):
    """Chooses the partition of each record ``send()`` is given without one."""

    @abstractmethod
    def partition(self, topic: str, key: Any, serialized_key: Optional[bytes], value: Any,
                  serialized_value: Optional[bytes], cluster: Any) -> int:
        """Return the partition for one record.

        :param topic: the record's topic.
        :param key: the key as given to ``send()``.
        :param serialized_key: the key's bytes (None without a key).
        :param value: the value as given.
        :param serialized_value: the value's bytes.
        :param cluster: has ``topics()``, ``partitions_for_topic(t)``, ``available_partitions_for_topic(t)``.
        :returns: a partition id.
        """


class DefaultPartitioner(Partitioner):
    """murmur2 of the key modulo the partition count; a random available partition without a key."""

    def partition(self, topic: str, key: Any, serialized_key: Optional[bytes], value: Any,
                  serialized_value: Optional[bytes], cluster: Any) -> int:
        all_partitions: List[int] = sorted(cluster.partitions_for_topic(topic) or ())
        if not all_partitions:
            raise ValueError(f"Topic {topic} not found in cluster metadata")
        if serialized_key is not None:
            return all_partitions[(murmur2(serialized_key) & 0x7FFFFFFF) % len(all_partitions)]
        available: List[int] = list(cluster.available_partitions_for_topic(topic) or ())
        return random.choice(available or all_partitions)


class StickyPartitioner(DefaultPartitioner):
    """Keyed records as :class:`DefaultPartitioner`; records without a key stay on one partition
    per batch (run by the facade, librdkafka keeps them on one for 10 ms, or twice ``linger_ms``)."""
