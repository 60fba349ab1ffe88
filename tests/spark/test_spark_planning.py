"""Offset planning against tansu, without Spark: the end offsets a read is planned with."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Dict, List, Tuple

import pyarrow as pa

from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.spark import _producers
from confluent_kafka.spark._offsets import OffsetPlanner, OffsetRange
from confluent_kafka.spark._options import ReadOptions, WriteOptions
from confluent_kafka.spark._reader import read_range
from confluent_kafka.spark._writer import write_batches


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


def _broker_counts(bootstrap: str, topic: str, partitions: int) -> Dict[int, Tuple[int, int, int]]:
    """Per partition: (messages from the beginning to end of partition, ListOffsets end, Fetch
    high watermark), read with a plain Consumer: what the broker holds, to tell a write that lost
    rows from a read that missed them."""
    out = {}
    for part in range(partitions):
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": "planning-check", "enable.partition.eof": True})
        try:
            listed = c.get_watermark_offsets(TopicPartition(topic, part), timeout=10)[1]
            c.assign([TopicPartition(topic, part, 0)])
            count, eof, deadline = 0, False, time.monotonic() + 30
            while not eof and time.monotonic() < deadline:
                for m in c.consume(10_000, 1.0):
                    err = m.error()
                    eof = eof or (err is not None and err.code() == KafkaError._PARTITION_EOF)
                    count += err is None
            out[part] = (count, listed, c.get_watermark_offsets(TopicPartition(topic, part), cached=True)[1])
        finally:
            c.close()
    return out


def test_concurrent_writers_then_a_read_count_every_row_per_partition(kafka_bootstrap: str,
                                                                      new_topic: Callable[..., str]) -> None:
    # What bench/spark_worker.py checks with 1 M rows, small: two writer tasks at once (two
    # producers, as two Spark Python workers) put distinct rows into the same partitions in many
    # record batches; the planned ranges and the rows read must then match what the broker
    # holds, partition by partition, and every row must come back once.
    #
    # One producer first writes one row to every partition, alone. tansu gives a batch its
    # offsets before it stores it, and answers ListOffsets(EARLIEST) with the batch it stored
    # first: were the partitions' first batches written by the two writers at once, the batch
    # at offset 0 could be stored second and the planned start would skip it (see conftest.py
    # and tests/integration/test_tansu_offset_order.py). With the seed stored first the start
    # is right, and what is checked is the end and the rows after concurrent writes.
    topic = new_topic(4)
    rows, tasks, parts = 40_000, 2, 4
    per_task = rows // tasks
    seed = Producer({"bootstrap.servers": kafka_bootstrap})
    try:
        for part in range(parts):
            seed.produce(topic, b"seed-%d" % part, partition=part)
        assert seed.flush(30) == 0
    finally:
        seed.close()

    writers = [WriteOptions.parse({"kafka.bootstrap.servers": kafka_bootstrap, "topic": topic,
                                   "kafka.client.id": f"planning-writer-{t}", "kafka.linger.ms": "1"})
               for t in range(tasks)]

    def task(t: int) -> int:
        starts = range(t * per_task, (t + 1) * per_task, 5_000)
        batches = (pa.RecordBatch.from_pydict({"value": [b"%09d" % i for i in range(s, s + 5_000)]}) for s in starts)
        return write_batches(writers[t], batches)

    try:
        with ThreadPoolExecutor(tasks) as pool:
            assert sum(pool.map(task, range(tasks))) == rows
    finally:
        for w in writers:
            _producers.discard(w.conf)
    opts = ReadOptions.parse({"kafka.bootstrap.servers": kafka_bootstrap, "subscribe": topic}, streaming=False)
    planner = OffsetPlanner(opts)
    try:
        ranges = planner.batch_ranges()
    finally:
        planner.close()
    read: Dict[int, int] = {}
    values: List[bytes] = []
    for rng in ranges:
        for batch in read_range(opts.consumer_conf(), rng, False, 30.0):
            read[rng.partition] = read.get(rng.partition, 0) + batch.num_rows
            values.extend(batch.column("value").to_pylist())
    held = _broker_counts(kafka_bootstrap, topic, parts)
    evidence = (f"planned {[(r.partition, r.start, r.end) for r in ranges]}, read per partition {read}, "
                f"broker per partition (messages to end, ListOffsets end, Fetch high watermark) {held}")
    assert sum(n for n, _, _ in held.values()) == rows + parts, \
        f"the broker holds fewer rows than were written: {evidence}"
    assert {r.partition: r.end for r in ranges} == {p: fhw for p, (_, _, fhw) in held.items() if fhw}, evidence
    assert read == {p: n for p, (n, _, _) in held.items() if n}, evidence
    assert len(values) == rows + parts and len(set(values)) == rows + parts, evidence
    assert {r.start for r in ranges} == {0}, evidence
