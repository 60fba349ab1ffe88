"""Structured Streaming through the data source: Kafka topic -> query -> Kafka topic, over
several micro-batches, stopped and restarted from its checkpoint."""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List

FORMAT = "confluent_kafka"


def _produce(spark: Any, options: Dict[str, str], topic: str, first: int, count: int) -> None:
    # one Spark task: on tansu, two tasks writing a partition's first rows at once can make
    # ListOffsets(EARLIEST) skip a batch, and a query reading along while two tasks write one
    # partition can skip one (see conftest.py)
    (spark.range(first, first + count, 1, 1)
     .selectExpr("cast(id % 2 AS int) AS partition", "cast(concat('k', id) AS binary) AS key",
                 "cast(id AS string) AS value")
     .write.format(FORMAT).options(**options).option("topic", topic).mode("append").save())


def _start(spark: Any, options: Dict[str, str], source: str, sink: str, checkpoint: str) -> Any:
    stream = (spark.readStream.format(FORMAT).options(**options)
              .option("subscribe", source).option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", "150")
              .load())
    # a transformation on the way: the sink gets the source's value with its offset appended
    out = stream.selectExpr("key", "cast(concat(cast(value AS string), '@', cast(offset AS string)) AS binary) AS value")
    return (out.writeStream.format(FORMAT).options(**options).option("topic", sink)
            .option("checkpointLocation", checkpoint).start())


def test_stream_copies_topic_across_a_restart(spark: Any, new_topic: Callable[..., str],
                                              kafka_options: Dict[str, str], read_topic: Callable,
                                              from_zero: Callable[[str, int], str], tmp_path: Any) -> None:
    source, sink = new_topic(2, "-src"), new_topic(3, "-sink")
    checkpoint = str(tmp_path / "checkpoint")
    # the query's tasks write the sink's partitions at once: its reads start at offset 0
    sink_start = from_zero(sink, 3)

    _produce(spark, kafka_options, source, 0, 300)
    query = _start(spark, kafka_options, source, sink, checkpoint)
    try:
        query.processAllAvailable()
        _produce(spark, kafka_options, source, 300, 200)
        query.processAllAvailable()
        batches_before = [p["batchId"] for p in query.recentProgress if p["numInputRows"] > 0]
    finally:
        query.stop()
    # 500 rows at most 150 a trigger: at least four micro-batches with data
    assert len(batches_before) >= 4
    copied = (spark.read.format(FORMAT).options(**kafka_options).option("subscribe", sink)
              .option("startingOffsets", sink_start).load())
    assert sorted(int(r.value.split(b"@")[0]) for r in copied.collect()) == list(range(500))  # exactly once

    _produce(spark, kafka_options, source, 500, 250)  # written while the query is down
    query = _start(spark, kafka_options, source, sink, checkpoint)
    try:
        _wait_for_data_batches(query, 1)  # then stop with rows still pending: mid-stream
    finally:
        query.stop()
    query = _start(spark, kafka_options, source, sink, checkpoint)
    try:
        query.processAllAvailable()
        resumed = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"] > 0]
    finally:
        query.stop()
    # the second restart resumed from the checkpoint, not from the beginning
    assert 0 < sum(resumed) < 250

    written = (spark.read.format(FORMAT).options(**kafka_options).option("subscribe", sink)
               .option("startingOffsets", sink_start).load())
    values = [int(r.value.split(b"@")[0]) for r in written.collect()]
    assert set(values) == set(range(750))  # nothing lost
    # a micro-batch interrupted by stop() is run again on restart (at-least-once): at most one
    # batch (maxOffsetsPerTrigger rows) is written twice
    assert 750 <= len(values) <= 750 + 150
    rows: List[Dict[str, Any]] = read_topic(sink, 3, len(values))
    for r in rows:
        v, off = r["value"].split(b"@")
        assert r["key"] == b"k" + v


def _wait_for_data_batches(query: Any, n: int, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while sum(1 for p in query.recentProgress if p["numInputRows"] > 0) < n:
        assert query.exception() is None, query.exception()
        assert time.monotonic() < deadline, f"no {n} micro-batch(es) with data within {timeout} s"
        time.sleep(0.2)
