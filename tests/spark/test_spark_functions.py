"""The function API (Spark 3.3+ without the data source API): write() and read() on mapInArrow."""

from __future__ import annotations

from typing import Any, Callable, Dict

from confluent_kafka import spark as kspark


def test_write_and_read_functions_round_trip(spark: Any, new_topic: Callable[..., str],
                                             kafka_options: Dict[str, str],
                                             from_zero: Callable[[str, int], str]) -> None:
    topic = new_topic(3)
    df = spark.range(20_000).selectExpr(
        "cast(concat('k', id) AS binary) AS key", "cast(id AS string) AS value", "cast(id % 3 AS int) AS partition",
        "array(named_struct('key', 'h', 'value', cast(cast(id * 2 AS string) AS binary))) AS headers")
    assert kspark.write(df, topic=topic, options=kafka_options) == 20_000

    # two tasks wrote every partition at once: the reads start at offset 0, not at tansu's
    # ListOffsets(EARLIEST) answer (see conftest.py)
    start = from_zero(topic, 3)
    back = kspark.read(spark, kafka_options, subscribe=topic, includeHeaders="true", minPartitions="6",
                       startingOffsets=start)
    assert back.rdd.getNumPartitions() >= 6
    rows = back.collect()
    assert len(rows) == 20_000
    for r in rows:
        i = int(r.value)
        assert r.key == b"k%d" % i and r.partition == i % 3 and r.topic == topic
        assert [(h.key, h.value) for h in r.headers] == [("h", b"%d" % (i * 2))]
    # the same rows as the data source reads
    via_source = (spark.read.format("confluent_kafka").options(**kafka_options).option("subscribe", topic)
                  .option("startingOffsets", start).load())
    assert sorted((r.partition, r.offset, r.value) for r in via_source.collect()) == \
        sorted((r.partition, r.offset, r.value) for r in rows)


def test_read_function_on_an_empty_range(spark: Any, new_topic: Callable[..., str],
                                         kafka_options: Dict[str, str]) -> None:
    topic = new_topic(1)
    df = kspark.read(spark, kafka_options, subscribe=topic)
    assert df.collect() == []
    assert df.columns == ["key", "value", "topic", "partition", "offset", "timestamp", "timestampType"]
