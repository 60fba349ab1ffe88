"""Batch write and read through the data source, on local[2] against tansu."""

from __future__ import annotations

import datetime
from typing import Any, Callable, Dict

import pytest

ROWS = 200_000
FORMAT = "confluent_kafka"


def _source_rows(spark: Any, rows: int, partitions: int) -> Any:
    """A DataFrame with every writable column: some keys null, headers on a third of the rows.
    One Spark task per Kafka partition (``rows`` must divide by ``partitions``): task i holds
    exactly the ids of partition i, so no two tasks write one partition (tansu, with two writers
    at a partition's start, can answer ListOffsets(EARLIEST) wrong: see conftest.py)."""
    assert rows % partitions == 0
    return spark.range(0, rows, 1, partitions).selectExpr(
        "CASE WHEN id % 100 = 0 THEN NULL ELSE cast(concat('k-', id) AS binary) END AS key",
        "cast(concat('value-', id, '-', repeat('x', cast(id % 37 AS int))) AS binary) AS value",
        f"cast(id div {rows // partitions} AS int) AS partition",
        "CASE WHEN id % 3 = 0 THEN array(named_struct('key', 'id', 'value', cast(cast(id AS string) AS binary)),"
        " named_struct('key', 'empty', 'value', cast('' AS binary))) END AS headers",
        "timestamp_millis(1700000000000 + id) AS timestamp",
    )


def _write(df: Any, options: Dict[str, str], **more: str) -> None:
    df.write.format(FORMAT).options(**options, **more).mode("append").save()


def _read(spark: Any, options: Dict[str, str], **more: str) -> Any:
    return spark.read.format(FORMAT).options(**options, **more).load()


def test_write_then_read_200k_rows_equal(spark: Any, new_topic: Callable[..., str],
                                         kafka_options: Dict[str, str]) -> None:
    topic = new_topic(4)
    src = _source_rows(spark, ROWS, 4)
    _write(src, kafka_options, topic=topic)

    got = _read(spark, kafka_options, subscribe=topic, includeHeaders="true")
    assert got.schema.simpleString() == (
        "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,"
        "timestampType:int,headers:array<struct<key:string,value:binary>>>")
    table = got.toArrow().sort_by("value")
    want = src.toArrow().sort_by("value")
    assert table.num_rows == ROWS
    for name in ("key", "value", "partition", "headers"):
        assert table.column(name).to_pylist() == want.column(name).to_pylist(), name
    assert table.column("timestamp").cast("int64").to_pylist() == want.column("timestamp").cast("int64").to_pylist()
    assert set(table.column("topic").to_pylist()) == {topic}
    assert set(table.column("timestampType").to_pylist()) == {0}  # CreateTime, as Kafka numbers it
    # every partition's offsets are dense from 0
    by_part: Dict[int, list] = {}
    for part, off in zip(table.column("partition").to_pylist(), table.column("offset").to_pylist()):
        by_part.setdefault(part, []).append(off)
    assert sorted(by_part) == [0, 1, 2, 3]
    for offs in by_part.values():
        assert sorted(offs) == list(range(len(offs)))


def test_default_schema_has_no_headers_and_string_values_are_written(
        spark: Any, new_topic: Callable[..., str], kafka_options: Dict[str, str]) -> None:
    topic = new_topic(1)
    df = spark.createDataFrame([("a", "1"), ("b", "2"), (None, "3")], "key string, value string").coalesce(1)
    _write(df, kafka_options, topic=topic)
    got = _read(spark, kafka_options, subscribe=topic).orderBy("offset").collect()
    assert "headers" not in _read(spark, kafka_options, subscribe=topic).columns
    assert [(r.key, r.value, r.offset) for r in got] == [(b"a", b"1", 0), (b"b", b"2", 1), (None, b"3", 2)]


def test_topic_column_routes_rows(spark: Any, new_topic: Callable[..., str],
                                  kafka_options: Dict[str, str], read_topic: Callable) -> None:
    a, b = new_topic(1, "-a"), new_topic(1, "-b")
    df = spark.range(1000).selectExpr(f"CASE WHEN id % 2 = 0 THEN '{a}' ELSE '{b}' END AS topic",
                                      "cast(id AS string) AS value")
    _write(df, kafka_options)
    got_a = [int(r["value"]) for r in read_topic(a, 1, 500)]
    got_b = [int(r["value"]) for r in read_topic(b, 1, 500)]
    assert sorted(got_a) == list(range(0, 1000, 2))
    assert sorted(got_b) == list(range(1, 1000, 2))


def _offsets_of(df: Any) -> Dict[int, list]:
    out: Dict[int, list] = {}
    for r in df.select("partition", "offset").collect():
        out.setdefault(r.partition, []).append(r.offset)
    return {p: sorted(v) for p, v in out.items()}


def test_starting_and_ending_offsets_are_honoured(spark: Any, new_topic: Callable[..., str],
                                                  kafka_options: Dict[str, str]) -> None:
    topic = new_topic(2)
    # one task writes, so each partition holds its rows in id order
    _write(spark.range(0, 200, 1, 1).selectExpr("cast(id % 2 AS int) AS partition", "cast(id AS string) AS value"),
           kafka_options, topic=topic)

    everything = _offsets_of(_read(spark, kafka_options, subscribe=topic))
    assert everything == {0: list(range(100)), 1: list(range(100))}

    ranged = _read(spark, kafka_options, subscribe=topic,
                   startingOffsets=f'{{"{topic}": {{"0": 10, "1": -2}}}}',
                   endingOffsets=f'{{"{topic}": {{"0": 50, "1": -1}}}}')
    assert _offsets_of(ranged) == {0: list(range(10, 50)), 1: list(range(100))}

    # partitions the JSON leaves out take the defaults: earliest start, latest end
    only_start = _read(spark, kafka_options, subscribe=topic, startingOffsets=f'{{"{topic}": {{"1": 95}}}}')
    assert _offsets_of(only_start) == {0: list(range(100)), 1: list(range(95, 100))}

    # assign reads just the listed partitions; values tell which rows were read
    assigned = _read(spark, kafka_options, assign=f'{{"{topic}": [1]}}', startingOffsets=f'{{"{topic}": {{"1": 98}}}}')
    assert sorted(int(r.value) for r in assigned.collect()) == [197, 199]

    # the end is fixed when the query is planned; a later write is seen by the next read
    _write(spark.range(10).selectExpr("0 AS partition", "cast(id + 1000 AS string) AS value"), kafka_options,
           topic=topic)
    assert _offsets_of(_read(spark, kafka_options, subscribe=topic))[0] == list(range(110))


def test_min_partitions_splits_ranges_and_reads_the_same(spark: Any, new_topic: Callable[..., str],
                                                         kafka_options: Dict[str, str]) -> None:
    topic = new_topic(2)
    # one task writes: two tasks starting both partitions at once can leave tansu answering
    # ListOffsets(EARLIEST) with the second batch's offset, and both reads would then start there
    # (see conftest.py); what this test checks is how the read is split
    _write(spark.range(0, 5000, 1, 1).selectExpr("cast(id % 2 AS int) AS partition", "cast(id AS string) AS value"),
           kafka_options, topic=topic)
    plain = _read(spark, kafka_options, subscribe=topic)
    split = _read(spark, kafka_options, subscribe=topic, minPartitions="7")
    assert plain.rdd.getNumPartitions() == 2
    assert split.rdd.getNumPartitions() >= 7
    rows = sorted((r.partition, r.offset, r.value) for r in split.collect())
    assert rows == sorted((r.partition, r.offset, r.value) for r in plain.collect())
    assert len(rows) == 5000


def test_subscribe_pattern_reads_matching_topics(spark: Any, new_topic: Callable[..., str],
                                                 kafka_options: Dict[str, str], unique_topic: str) -> None:
    a, b = new_topic(1, "-pat-a"), new_topic(1, "-pat-b")
    new_topic(1, "-other")
    for t in (a, b, unique_topic + "-other"):
        _write(spark.createDataFrame([(t,)], "value string"), kafka_options, topic=t)
    got = _read(spark, kafka_options, subscribePattern=unique_topic + "-pat-.*").collect()
    assert sorted((r.topic, r.value.decode()) for r in got) == [(a, a), (b, b)]


def test_timestamps_are_spark_timestamps(spark: Any, new_topic: Callable[..., str],
                                         kafka_options: Dict[str, str]) -> None:
    topic = new_topic(1)
    df = spark.createDataFrame([("v", datetime.datetime(2024, 5, 6, 7, 8, 9, 123000))], "value string, timestamp timestamp")
    _write(df, kafka_options, topic=topic)
    (row,) = _read(spark, kafka_options, subscribe=topic).collect()
    assert row.timestamp == datetime.datetime(2024, 5, 6, 7, 8, 9, 123000)
    assert row.timestampType == 0


@pytest.mark.parametrize("options, message", [
    ({}, "exactly one of the options 'subscribe', 'subscribePattern' and 'assign'"),
    ({"subscribe": "a", "assign": '{"a": [0]}'}, "exactly one of the options"),
    ({"subscribe": "a", "startingOffsets": "latest"}, "cannot be 'latest'"),
    ({"subscribe": "a", "endingOffsets": "earliest"}, "cannot be 'earliest'"),
    ({"subscribe": "a", "minPartitions": "0"}, "'minPartitions' must be positive"),
    ({"subscribe": "a", "kafka.auto.offset.reset": "earliest"}, "use startingOffsets"),
])
def test_bad_read_options_fail_clearly(spark: Any, kafka_options: Dict[str, str], options: Dict[str, str],
                                       message: str) -> None:
    with pytest.raises(Exception, match=message):
        _read(spark, kafka_options, **options).collect()


@pytest.mark.parametrize("columns, options, message", [
    ("cast(id AS string) AS key", {"topic": "t"}, "needs a 'value' column"),
    ("cast(id AS string) AS value", {}, "needs the option 'topic' or a 'topic' column"),
    ("cast(id AS string) AS value, id AS partition", {"topic": "t"}, "column 'partition' has type bigint"),
    ("cast(id AS string) AS value, id AS timestamp", {"topic": "t"}, "column 'timestamp' has type bigint"),
])
def test_bad_writes_fail_before_any_task(spark: Any, kafka_options: Dict[str, str], columns: str,
                                         options: Dict[str, str], message: str) -> None:
    with pytest.raises(Exception, match=message):
        _write(spark.range(3).selectExpr(*columns.split(", ")), kafka_options, **options)
