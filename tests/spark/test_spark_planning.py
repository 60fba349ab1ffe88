"""Offset planning against tansu, without Spark: the end offsets a read is planned with."""

from __future__ import annotations

from typing import Callable

import pyarrow as pa

from confluent_kafka import Producer
from confluent_kafka.spark._offsets import OffsetPlanner, OffsetRange
from confluent_kafka.spark._options import ReadOptions


def test_end_offsets_count_every_message_of_multi_message_batches(kafka_bootstrap: str,
                                                                  new_topic: Callable[..., str]) -> None:
    topic = new_topic(2)
    p = Producer({"bootstrap.servers": kafka_bootstrap, "linger.ms": 50})
    try:
        # large batches: the last record batch of each partition holds many messages (tansu then
        # answers ListOffsets(LATEST) with 1 for partition 0, not 3000)
        assert p.produce_batch(topic, pa.array([b"x" * 10] * 3000), partition=0) == 3000
        assert p.produce_batch(topic, pa.array([b"y" * 10] * 1000), partition=1) == 1000
        assert p.flush(30) == 0
    finally:
        p.close()
    opts = ReadOptions.parse({"kafka.bootstrap.servers": kafka_bootstrap, "subscribe": topic}, streaming=False)
    planner = OffsetPlanner(opts)
    try:
        assert planner.latest() == {(topic, 0): 3000, (topic, 1): 1000}
        assert planner.batch_ranges() == [OffsetRange(topic, 0, 0, 3000), OffsetRange(topic, 1, 0, 1000)]
    finally:
        planner.close()
