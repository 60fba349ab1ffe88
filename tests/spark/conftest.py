"""Fixtures for the Spark tier: one local[2] SparkSession for the whole test session, on
loopback, with the Kafka data source registered, talking to the session's tansu broker.

Tests under tests/spark are marked ``spark``.

Concurrent writers and tansu (see docs/reliability.md, "tansu 0.6 and concurrent producers"):
tansu gives a produced batch its offsets first and stores it afterwards, and it answers
ListOffsets(EARLIEST) with the batch it stored first. When two producers (two Spark tasks)
write the first batches of a partition at the same moment, the batch at offset 0 can be stored
second, and tansu then names the other batch's offset as the partition's start: a read from
``earliest`` (the default of every batch read) silently skips the batch at 0. A reader that
fetches while several producers write the same partition can skip a batch the same way. So a
test here whose reads resolve ``earliest`` writes each partition's first rows from one task
(one Spark task, or one task per Kafka partition), or seeds every partition from one producer
before writing concurrently; and reads that only check what a write left (``read_topic``,
``from_zero``) start at offset 0, which is where every fresh topic starts. Live reads never run
beside two writers of one partition.

One writer is enough, not merely luckier: a producer sends all its batches for a partition over
its one connection to the partition's leader, and tansu serves a connection's requests one after
the other (read a request, answer it, read the next), each produce stored before it is answered,
so one producer's batches are stored in the order of their offsets.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import time
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

pyspark = pytest.importorskip("pyspark", reason="pyspark is in the test extra: pip install -e '.[test]'")


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A local[2] SparkSession kept on loopback; stopped at the end of the session."""
    from pyspark.sql import SparkSession

    from confluent_kafka.spark import register

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    # Python workers import the package the tests import (this checkout's src/, not whatever an
    # editable install elsewhere points at): the JVM, and so every worker, gets it first on
    # PYTHONPATH. Only the JVM: other processes started by the tests (Karapace) keep their own.
    import confluent_kafka

    package_root = str(pathlib.Path(confluent_kafka.__file__).resolve().parents[1])
    old_path = os.environ.get("PYTHONPATH")
    rest = [p for p in (old_path or "").split(os.pathsep) if p and p != package_root]
    os.environ["PYTHONPATH"] = os.pathsep.join([package_root] + rest)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    warehouse = tmp_path_factory.mktemp("spark-warehouse")
    try:
        session = (SparkSession.builder.master("local[2]")
                   .appName("confluent-kafka-spark-tests")
                   .config("spark.ui.enabled", "false")
                   .config("spark.driver.host", "127.0.0.1")
                   .config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.python.unix.domain.socket.enabled", "true")
                   .config("spark.sql.shuffle.partitions", "4")
                   .config("spark.sql.warehouse.dir", str(warehouse))
                   .config("spark.sql.session.timeZone", "UTC")
                   .config("spark.driver.memory", "1g")
                   .getOrCreate())
    finally:
        if old_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old_path
    session.sparkContext.setLogLevel("ERROR")
    register(session)
    try:
        yield session
    finally:
        session.stop()


@pytest.fixture
def admin(kafka_bootstrap: str) -> Iterator[AdminClient]:
    a = AdminClient({"bootstrap.servers": kafka_bootstrap})
    yield a
    a.close()


@pytest.fixture
def new_topic(admin: AdminClient, unique_topic: str) -> Callable[..., str]:
    """``new_topic(partitions=4, suffix="")``: create a fresh topic explicitly, return its name."""

    def make(partitions: int = 4, suffix: str = "") -> str:
        name = unique_topic + suffix
        admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)
        return name

    return make


@pytest.fixture
def kafka_options(kafka_bootstrap: str) -> Dict[str, str]:
    return {"kafka.bootstrap.servers": kafka_bootstrap}


@pytest.fixture
def from_zero() -> Callable[[str, int], str]:
    """``from_zero(topic, partitions)``: ``startingOffsets`` JSON naming offset 0 of every
    partition of a fresh topic, for reads that check what concurrent Spark tasks wrote, where
    tansu's ListOffsets(EARLIEST) cannot be trusted (see the module docstring)."""

    def starting(topic: str, partitions: int) -> str:
        return json.dumps({topic: {str(p): 0 for p in range(partitions)}})

    return starting


@pytest.fixture
def read_topic(kafka_bootstrap: str) -> Callable[..., List[Dict[str, Any]]]:
    """``read_topic(topic, partitions, count)``: the first ``count`` messages of the topic, read
    outside Spark with consume_arrow, as dicts (key, value, partition, offset, headers). Each
    partition is read from offset 0, not from what ListOffsets(EARLIEST) answers (see the module
    docstring): the topics are fresh."""

    def read(topic: str, partitions: int, count: int, timeout: float = 60.0) -> List[Dict[str, Any]]:
        c = Consumer({"bootstrap.servers": kafka_bootstrap, "group.id": "spark-tests-check",
                      "enable.auto.commit": False})
        c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        rows: List[Dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        try:
            while len(rows) < count:
                assert time.monotonic() < deadline, f"read {len(rows)} of {count} messages of {topic}"
                rows.extend(c.consume_arrow(50_000, 0.5).to_pyarrow().to_pylist())
        finally:
            c.close()
        return rows

    return read


@pytest.fixture
def run_available_now(spark: Any) -> Callable[..., List[List[Any]]]:
    """``run_available_now(options, checkpoint, on_batch=None)``: one ``Trigger.AvailableNow``
    streaming read of the data source with ``options``, into a foreachBatch sink that collects
    (partition, offset, value, timestamp) rows. ``on_batch(batch_id)`` runs after a batch's
    rows are collected. Returns the rows of each micro-batch that had any, in batch order;
    fails if the query does not stop by itself within ``timeout`` seconds."""

    def run(options: Dict[str, str], checkpoint: str, on_batch: Optional[Callable[[int], None]] = None,
            timeout: float = 180.0) -> List[List[Any]]:
        batches: Dict[int, List[Any]] = {}

        def collect(df: Any, batch_id: int) -> None:
            rows = df.select("partition", "offset", "value", "timestamp").collect()
            if rows:
                batches[batch_id] = rows
            if on_batch is not None:
                on_batch(batch_id)

        stream = spark.readStream.format("confluent_kafka").options(**options).load()
        query = (stream.writeStream.foreachBatch(collect).trigger(availableNow=True)
                 .option("checkpointLocation", checkpoint).start())
        try:
            stopped = query.awaitTermination(timeout)
        finally:
            query.stop()
        assert query.exception() is None, query.exception()
        assert stopped, f"the availableNow query did not stop by itself within {timeout} s"
        return [batches[b] for b in sorted(batches)]

    return run
