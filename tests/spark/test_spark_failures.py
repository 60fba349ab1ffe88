"""What a user sees when Kafka fails under a Spark job, and the exactly-once-per-task option."""

from __future__ import annotations

import pathlib
import sys
from typing import Any, Callable, Dict

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "scripts"))
from tansu_broker import TansuBroker  # noqa: E402

FORMAT = "confluent_kafka"


def test_broker_gone_fails_the_task_naming_the_kafka_error(spark: Any, tmp_path: pathlib.Path) -> None:
    broker = TansuBroker(log_dir=tmp_path).start()
    try:
        options = {"kafka.bootstrap.servers": broker.bootstrap_servers, "kafka.message.timeout.ms": "3000",
                   "topic": "doomed"}
        df = spark.range(1000).selectExpr("cast(id AS string) AS value")
        df.write.format(FORMAT).options(**options).mode("append").save()  # the broker is there: fine
        broker.stop()
        with pytest.raises(Exception) as info:
            df.write.format(FORMAT).options(**options).mode("append").save()
    finally:
        broker.stop()
    text = str(info.value)
    assert "Kafka delivery failed" in text
    assert "Message timed out" in text and "_MSG_TIMED_OUT" in text
    assert "Spark retries it" in text


def test_transactional_write_commits_every_task(spark: Any, new_topic: Callable[..., str],
                                                kafka_options: Dict[str, str], unique_topic: str) -> None:
    topic = new_topic(2)
    # two tasks, each with its own partition (tansu and two writers at a partition's start: see
    # conftest.py)
    df = spark.range(0, 3000, 1, 2).selectExpr("cast(id div 1500 AS int) AS partition", "cast(id AS string) AS value")
    for round_ in range(2):  # the second round reuses each worker's transactional producer
        (df.write.format(FORMAT).options(**kafka_options).option("topic", topic)
         .option("transactionalIdPrefix", unique_topic).mode("append").save())
    got = (spark.read.format(FORMAT).options(**kafka_options).option("subscribe", topic)
           .option("kafka.isolation.level", "read_committed").load())
    rows = got.select("value", "offset", "partition").collect()
    assert sorted(int(r.value) for r in rows) == sorted(list(range(3000)) * 2)
    # transaction markers take offsets: the data offsets have gaps, and the read still ended
    assert max(r.offset for r in rows) >= 1500


def test_transactional_id_cannot_be_set_directly(spark: Any, kafka_options: Dict[str, str]) -> None:
    with pytest.raises(Exception, match="transactionalIdPrefix"):
        (spark.range(1).selectExpr("'x' AS value").write.format(FORMAT).options(**kafka_options)
         .option("topic", "t").option("kafka.transactional.id", "one").mode("append").save())
