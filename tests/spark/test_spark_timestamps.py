"""Timestamp-based start and end offsets (startingTimestamp, startingOffsetsByTimestamp,
endingTimestamp, endingOffsetsByTimestamp, startingOffsetsByTimestampStrategy), as Spark's Kafka
source has them: batch reads, the function API and streaming starts against tansu; the
"no offset at or after the timestamp" answer against the mock cluster (tansu cannot give it);
and the refusal of bad partitions (the option parsing is checked in the unit tier).
"""

from __future__ import annotations

import json
import time
import uuid
from functools import partial
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

from confluent_kafka import Producer
from confluent_kafka import spark as kspark
from confluent_kafka.admin import AdminClient, NewTopic
from confluent_kafka.spark._offsets import OffsetPlanner, OffsetRange
from confluent_kafka.spark._options import ReadOptions
from confluent_kafka.spark._streaming import KafkaStreamReader

FORMAT = "confluent_kafka"
PARTITIONS = 2
GROUPS = 3  # groups of messages, each with its own timestamp
PER_GROUP = 3  # messages per group and partition: group k holds offsets 3k .. 3k+2
PAST_THE_END_GAP = ("tansu gap: offsets_for_times answers 0 instead of -1 past the end "
                    "(shared/reference/test-brokers.md), so the lookup seems to find offset 0")


def _produce_groups(bootstrap: str, topic: str) -> List[int]:
    """Produce GROUPS groups of PER_GROUP messages to every partition and return each group's
    timestamp, which its messages carry (``timestamp=``). A group's timestamp is taken after the
    previous group was acknowledged and a pause, and before the group is sent: so the first
    offset at or after it is the group's first message both on a broker that looks up record
    timestamps (Kafka) and on one that looks up write times (tansu)."""
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    stamps = []
    for k in range(GROUPS):
        time.sleep(0.05)  # the previous group's write time falls in an earlier millisecond
        stamp = int(time.time() * 1000)
        stamps.append(stamp)
        for part in range(PARTITIONS):
            for i in range(PER_GROUP):
                p.produce(topic, f"{k}-{part}-{i}".encode(), partition=part, timestamp=stamp)
        assert p.flush(30) == 0
    return stamps


@pytest.fixture(scope="module")
def stamped(kafka_bootstrap: str) -> Iterator[Tuple[str, List[int]]]:
    """A topic of PARTITIONS partitions holding the GROUPS groups, and the groups' timestamps."""
    topic = f"test-stamped-{uuid.uuid4().hex}"
    a = AdminClient({"bootstrap.servers": kafka_bootstrap})
    try:
        a.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    finally:
        a.close()
    yield topic, _produce_groups(kafka_bootstrap, topic)


def _groups(first: int, last: int) -> List[int]:
    """The offsets of groups ``first`` to ``last`` (inclusive) in one partition."""
    return list(range(first * PER_GROUP, (last + 1) * PER_GROUP))


def _check_rows(rows: List[Any], stamps: List[int]) -> Dict[int, List[int]]:
    """Offsets read per partition; every row's value and timestamp are checked against the
    group its offset belongs to."""
    out: Dict[int, List[int]] = {}
    for r in rows:
        k, i = divmod(r.offset, PER_GROUP)
        assert r.value == f"{k}-{r.partition}-{i}".encode()
        assert int(r.timestamp.timestamp() * 1000) == stamps[k]
        out.setdefault(r.partition, []).append(r.offset)
    return {p: sorted(v) for p, v in out.items()}


def _read_groups(spark: Any, kafka_options: Dict[str, str], topic: str, stamps: List[int],
                 **more: str) -> Dict[int, List[int]]:
    """A batch read of ``topic`` with the options ``more``: the offsets read, by partition."""
    df = spark.read.format(FORMAT).options(**kafka_options, subscribe=topic, **more).load()
    return _check_rows(df.collect(), stamps)


def _by_partition(topic: str, **stamps: int) -> str:
    """JSON of a per-partition timestamp option: ``_by_partition(t, p0=..., p1=...)``."""
    return json.dumps({topic: {name[1:]: ms for name, ms in stamps.items()}})


def test_batch_reads_start_at_timestamps(spark: Any, stamped: Tuple[str, List[int]],
                                         kafka_options: Dict[str, str]) -> None:
    topic, (t0, t1, t2) = stamped
    read = partial(_read_groups, spark, kafka_options, topic, [t0, t1, t2])

    assert read() == {0: _groups(0, 2), 1: _groups(0, 2)}
    assert read(startingTimestamp=str(t1)) == {0: _groups(1, 2), 1: _groups(1, 2)}
    # a timestamp between two groups starts at the later one
    assert read(startingTimestamp=str(t1 - 1)) == {0: _groups(1, 2), 1: _groups(1, 2)}
    assert read(startingOffsetsByTimestamp=_by_partition(topic, p0=t2, p1=t1)) == \
        {0: _groups(2, 2), 1: _groups(1, 2)}
    # a partition the per-partition JSON leaves out starts as startingOffsets says
    assert read(startingOffsetsByTimestamp=_by_partition(topic, p0=t1),
                startingOffsets=json.dumps({topic: {"0": 0, "1": 7}})) == {0: _groups(1, 2), 1: [7, 8]}
    # precedence: startingTimestamp, then startingOffsetsByTimestamp, then startingOffsets
    assert read(startingTimestamp=str(t2), startingOffsetsByTimestamp=_by_partition(topic, p0=t0, p1=t0),
                startingOffsets=json.dumps({topic: {"0": 1, "1": 1}})) == {0: _groups(2, 2), 1: _groups(2, 2)}


def test_batch_reads_end_at_timestamps(spark: Any, stamped: Tuple[str, List[int]],
                                       kafka_options: Dict[str, str]) -> None:
    topic, (t0, t1, t2) = stamped
    read = partial(_read_groups, spark, kafka_options, topic, [t0, t1, t2])

    # the end is exclusive: messages before the timestamp are read
    assert read(endingTimestamp=str(t2)) == {0: _groups(0, 1), 1: _groups(0, 1)}
    assert read(endingOffsetsByTimestamp=_by_partition(topic, p0=t1)) == {0: _groups(0, 0), 1: _groups(0, 2)}
    assert read(endingOffsetsByTimestamp=_by_partition(topic, p0=t1, p1=t2),
                endingOffsets=json.dumps({topic: {"0": 1, "1": 1}})) == {0: _groups(0, 0), 1: _groups(0, 1)}
    assert read(endingTimestamp=str(t1), endingOffsetsByTimestamp=_by_partition(topic, p0=t2, p1=t2)) == \
        {0: _groups(0, 0), 1: _groups(0, 0)}
    assert read(startingTimestamp=str(t1), endingTimestamp=str(t2)) == {0: _groups(1, 1), 1: _groups(1, 1)}

    # the function API plans the same ranges
    rows = kspark.read(spark, kafka_options, subscribe=topic, startingOffsetsByTimestamp=_by_partition(topic, p1=t2),
                       endingTimestamp=str(t2)).collect()
    assert _check_rows(rows, [t0, t1, t2]) == {0: _groups(0, 1)}


def test_streaming_query_starts_at_timestamp(run_available_now: Callable[..., List[List[Any]]],
                                             stamped: Tuple[str, List[int]], kafka_options: Dict[str, str],
                                             tmp_path: Any) -> None:
    topic, stamps = stamped
    batches = run_available_now({**kafka_options, "subscribe": topic, "startingTimestamp": str(stamps[1])},
                                str(tmp_path / "checkpoint"))
    assert _check_rows([r for rows in batches for r in rows], stamps) == {0: _groups(1, 2), 1: _groups(1, 2)}


def test_per_partition_timestamps_must_name_partitions_of_the_read(spark: Any, stamped: Tuple[str, List[int]],
                                                                     kafka_options: Dict[str, str]) -> None:
    topic, stamps = stamped
    for bad in (_by_partition(topic, p0=stamps[0], p5=stamps[0]), json.dumps({"not-subscribed": {"0": 1}})):
        with pytest.raises(Exception, match="names partitions the read does not cover"):
            spark.read.format(FORMAT).options(**kafka_options, subscribe=topic,
                                              startingOffsetsByTimestamp=bad).load().collect()
    with pytest.raises(Exception, match=r"names partitions the read does not cover: \[\('" + topic + r"', 2\)"):
        kspark.read(spark, kafka_options, subscribe=topic, endingOffsetsByTimestamp=_by_partition(topic, p2=1))


@pytest.mark.xfail(reason=PAST_THE_END_GAP, strict=False)
def test_start_past_the_last_timestamp_on_tansu(kafka_bootstrap: str, stamped: Tuple[str, List[int]]) -> None:
    topic, stamps = stamped
    options = {"kafka.bootstrap.servers": kafka_bootstrap, "subscribe": topic,
               "startingTimestamp": str(stamps[-1] + 3_600_000)}
    planner = OffsetPlanner(ReadOptions.parse(options, streaming=False))
    try:
        with pytest.raises(ValueError, match="no message with a timestamp at or after"):
            planner.batch_ranges()
    finally:
        planner.close()


# ---- no offset at or after the timestamp ---------------------------------------------------
# librdkafka's mock cluster answers every timestamp lookup with -1 (none), which is what Kafka
# answers for a timestamp past a partition's last message: the path tansu cannot exercise.

@pytest.fixture
def unmatched(mock_cluster: Any) -> Tuple[Dict[str, str], str]:
    """Options for a mock cluster topic of two partitions holding 5 and 3 messages."""
    topic = "stamped"
    mock_cluster.create_topic(topic, 2)
    p = Producer({"bootstrap.servers": mock_cluster.bootstrap_servers})
    for part, count in ((0, 5), (1, 3)):
        for i in range(count):
            p.produce(topic, b"v", partition=part, timestamp=1_700_000_000_000 + i)
    assert p.flush(30) == 0
    return {"kafka.bootstrap.servers": mock_cluster.bootstrap_servers, "subscribe": topic}, topic


def _ranges(options: Dict[str, str]) -> List[OffsetRange]:
    planner = OffsetPlanner(ReadOptions.parse(options, streaming=False))
    try:
        return planner.batch_ranges()
    finally:
        planner.close()


def test_no_matching_start_fails_by_default_and_starts_at_latest_when_asked(
        unmatched: Tuple[Dict[str, str], str]) -> None:
    options, topic = unmatched
    for start in ({"startingTimestamp": "0"}, {"startingOffsetsByTimestamp": json.dumps({topic: {"1": 0}})},
                  {"startingTimestamp": "0", "startingOffsetsByTimestampStrategy": "error"}):
        with pytest.raises(ValueError, match=r"stamped\[\d\] has no message with a timestamp at or after 0 ms; "
                                             r"set startingOffsetsByTimestampStrategy=latest"):
            _ranges({**options, **start})
    assert _ranges({**options, "startingTimestamp": "0", "startingOffsetsByTimestampStrategy": "latest"}) == []
    assert _ranges({**options, "startingOffsetsByTimestamp": json.dumps({topic: {"1": 0}}),
                    "startingOffsetsByTimestampStrategy": "LATEST"}) == [OffsetRange(topic, 0, 0, 5)]

    # a streaming query starts there too
    reader = KafkaStreamReader(ReadOptions.parse({**options, "startingTimestamp": "0",
                                                  "startingOffsetsByTimestampStrategy": "latest"}, streaming=True))
    try:
        assert reader.initialOffset() == {topic: {"0": 5, "1": 3}}
    finally:
        reader.stop()
    reader = KafkaStreamReader(ReadOptions.parse({**options, "startingTimestamp": "0"}, streaming=True))
    try:
        with pytest.raises(ValueError, match="has no message with a timestamp"):
            reader.initialOffset()
    finally:
        reader.stop()


def test_no_matching_end_reads_to_the_latest_offset(unmatched: Tuple[Dict[str, str], str]) -> None:
    options, topic = unmatched
    everything = [OffsetRange(topic, 0, 0, 5), OffsetRange(topic, 1, 0, 3)]
    assert _ranges({**options, "endingTimestamp": "0"}) == everything
    assert _ranges({**options, "endingOffsetsByTimestamp": json.dumps({topic: {"0": 0}})}) == everything


def test_no_matching_start_fails_the_spark_read(spark: Any, unmatched: Tuple[Dict[str, str], str]) -> None:
    options, _ = unmatched
    with pytest.raises(Exception, match="has no message with a timestamp at or after 0 ms"):
        spark.read.format(FORMAT).options(**options, startingTimestamp="0").load().collect()

