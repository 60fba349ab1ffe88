"""How librdkafka partitions records without a key for both facades' default partitioners."""
from __future__ import annotations

import math
from typing import Optional

#: The least time records without a key stay on one partition: librdkafka's own default (twice
#: linger.ms) at its default linger.ms of 5 ms.
STICKY_PARTITIONING_MIN_MS = 10
_MAX_MS = 900_000  # the upper bound librdkafka takes for sticky.partitioning.linger.ms


def sticky_partitioning_ms(linger_ms: object) -> Optional[int]:
    """librdkafka's ``sticky.partitioning.linger.ms`` for a facade producer lingering ``linger_ms``,
    or None when ``linger_ms`` is no number of milliseconds (the check of linger.ms reports it).

    librdkafka's default is twice linger.ms, so kafka-python's and aiokafka's ``linger_ms`` 0 would
    send each record without a key to a random partition of its own. librdkafka's request holds
    one partition, where those clients' request holds every partition: records spread that way
    leave in many small requests, one per request slot, and under concurrency on a network each
    send waits several round trips (docs/aiokafka.md measures it). Kept on one partition for a
    while, as the Java client and kafka-python's StickyPartitioner keep them, they leave together;
    over time they still spread over every partition.
    """
    if isinstance(linger_ms, bool) or not isinstance(linger_ms, (int, float)) or not math.isfinite(linger_ms) \
            or linger_ms < 0:
        return None
    return int(min(_MAX_MS, max(STICKY_PARTITIONING_MIN_MS, 2 * linger_ms)))
