"""Option parsing and offset-range arithmetic of confluent_kafka.spark (no Spark, no broker)."""

from __future__ import annotations

import pytest

from confluent_kafka.spark._offsets import OffsetRange, from_offset_map, limit_offsets, make_ranges, split_ranges, \
    to_offset_map
from confluent_kafka.spark._options import EARLIEST, LATEST, ReadOptions, WriteOptions
from confluent_kafka.spark._writer import check_schema

BS = {"kafka.bootstrap.servers": "127.0.0.1:9"}


def test_read_options_follow_spark_names_and_defaults() -> None:
    o = ReadOptions.parse({**BS, "subscribe": "a, b", "kafka.fetch.min.bytes": "1"}, streaming=False)
    assert o.subscription.topics == ("a", "b")
    assert (o.starting, o.ending) == ("earliest", "latest")
    assert o.conf["fetch.min.bytes"] == "1" and "group.id" not in o.conf
    assert o.poll_timeout == 120.0 and o.fail_on_data_loss and not o.include_headers
    assert o.consumer_conf()["auto.offset.reset"] == "error"
    s = ReadOptions.parse({**BS, "subscribePattern": "t-.*", "failOnDataLoss": "false"}, streaming=True)
    assert s.starting == "latest" and s.consumer_conf()["auto.offset.reset"] == "earliest"
    j = ReadOptions.parse({**BS, "assign": '{"t": [0, 2]}', "startingOffsets": '{"t": {"0": 5, "2": -2}}',
                           "endingOffsets": '{"t": {"0": -1}}'}, streaming=False)
    assert j.subscription.assign == {"t": (0, 2)}
    assert j.starting == {"t": {0: 5, 2: EARLIEST}} and j.ending == {"t": {0: LATEST}}


@pytest.mark.parametrize("options, message", [
    ({"subscribe": "a"}, "kafka.bootstrap.servers"),
    ({**BS, "subscribe": "a", "endingOffsets": '{"a": {"0": -2}}'}, "offset -2 of a\\[0\\] is not valid"),
    ({**BS, "subscribe": "a", "startingOffsets": "[1]"}, "object of topics"),
    ({**BS, "subscribe": "a", "startingOffsets": '{"a": {"-1": 0}}'}, "partition -1 of 'a' is negative"),
    ({**BS, "subscribe": "a", "startingOffsets": '{"a": [0]}'}, "must map partitions to offsets"),
    ({**BS, "subscribe": "a", "startingOffsets": "soon"}, "must be earliest or JSON"),
    ({**BS, "assign": '{"a": ["x"]}'}, "'assign' must be JSON"),
    ({**BS, "subscribePattern": "("}, "not a valid regular expression"),
    ({**BS, "subscribe": "a", "topic": "a"}, "'topic' is for writing"),
    ({**BS, "subscribe": "a", "includeHeaders": "maybe"}, "true or false"),
    ({**BS, "subscribe": "a", "kafka.value.deserializer": "x"}, "decoded with valueFormat=avro"),
])
def test_bad_read_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse(options, streaming=False)


@pytest.mark.parametrize("options, message", [
    ({"subscribe": "a", "minPartitions": "0"}, "'minPartitions' must be positive"),
    ({"subscribe": "a", "maxOffsetsPerTrigger": "x"}, "'maxOffsetsPerTrigger' must be an integer"),
    ({"subscribe": "a", "startingOffsets": "soon"}, "'startingOffsets' must be"),
    ({"subscribe": "a", "endingOffsets": "earliest"}, "cannot be 'earliest'"),
    ({"subscribe": "a", "kafka.default.api.timeout.ms": "soon"}, "must be an integer"),
    ({"subscribe": "a", "kafka.socket.timeout.ms": "0"}, "must be positive"),
    ({}, "exactly one of the options"),
])
def test_options_are_checked_before_the_mode_is_known(options: dict, message: str) -> None:
    # what load() checks: everything but what depends on batch or streaming
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse({**BS, **options}, streaming=None)


def test_options_that_depend_on_the_mode_wait_for_it() -> None:
    # startingOffsets=latest is for streams, endingOffsets for batches: load() cannot tell
    o = ReadOptions.parse({**BS, "subscribe": "a", "startingOffsets": "latest", "endingOffsets": "latest"},
                          streaming=None)
    assert (o.starting, o.ending) == ("latest", "latest")


def test_planning_timeout_follows_the_kafka_options() -> None:
    assert ReadOptions.parse({**BS, "subscribe": "a"}, streaming=False).metadata_timeout == 30.0
    s = ReadOptions.parse({**BS, "subscribe": "a", "kafka.socket.timeout.ms": "2500"}, streaming=False)
    assert s.metadata_timeout == 2.5 and s.conf["socket.timeout.ms"] == "2500"
    # the Java clients' name wins, and is not handed to librdkafka (which has no such key)
    d = ReadOptions.parse({**BS, "subscribe": "a", "kafka.default.api.timeout.ms": "1500",
                           "kafka.socket.timeout.ms": "2500"}, streaming=True)
    assert d.metadata_timeout == 1.5 and "default.api.timeout.ms" not in d.consumer_conf()
    w = WriteOptions.parse({**BS, "topic": "t", "kafka.default.api.timeout.ms": "1500"})
    assert "default.api.timeout.ms" not in w.conf


def test_streaming_refuses_ending_offsets() -> None:
    with pytest.raises(ValueError, match="batch reads only"):
        ReadOptions.parse({**BS, "subscribe": "a", "endingOffsets": "latest"}, streaming=True)


def test_write_options() -> None:
    w = WriteOptions.parse({**BS, "topic": "t", "kafka.message.timeout.ms": "5000"})
    assert w.topic == "t" and w.flush_timeout == 35.0 and w.transactional_id_prefix is None
    assert w.conf["delivery.report.only.error"] is True
    t = WriteOptions.parse({**BS, "transactionalIdPrefix": "app"})
    assert t.transactional_id_prefix == "app" and t.conf["enable.idempotence"] == "true"
    with pytest.raises(ValueError, match="for reading"):
        WriteOptions.parse({**BS, "subscribe": "t"})


def test_check_schema() -> None:
    check_schema([("Value", "binary"), ("KEY", "string"), ("topic", "string"), ("partition", "int"),
                  ("headers", "array<struct<key:string,value:binary>>"), ("timestamp", "timestamp")], None)
    with pytest.raises(ValueError, match="column 'headers' has type"):
        check_schema([("value", "binary"), ("headers", "array<string>")], "t")
    # as Spark's Kafka sink: columns it does not write are ignored, whatever their type (a
    # Kafka read written back has offset and timestampType), and a timestamp may be a double
    check_schema([("value", "binary"), ("offset", "bigint"), ("timestampType", "int"), ("extra", "map<int,int>"),
                  ("timestamp", "double")], "t")
    with pytest.raises(ValueError, match="column 'timestamp' has type bigint"):
        check_schema([("value", "binary"), ("timestamp", "bigint")], "t")


def test_written_columns_and_double_timestamps() -> None:
    import pyarrow as pa

    from confluent_kafka.spark._writer import _seconds_to_ms, written_columns

    assert written_columns(["Key", "value", "offset", "topic", "timestampType", "headers", "partition",
                            "timestamp"]) == ["Key", "value", "topic", "headers", "partition", "timestamp"]
    # Spark casts a double to a timestamp as seconds, truncating below the microsecond
    got = _seconds_to_ms(pa.array([1700000000.5, 1.0019, -1.0015, float("nan"), None, float("-inf")]))
    assert got.to_pylist() == [1700000000500, 1001, -1001, None, None, None]


class _FailedMessage:
    def __init__(self, partition: object) -> None:
        self._partition = partition

    def topic(self) -> str:
        return "t"

    def partition(self) -> object:
        return self._partition


@pytest.mark.parametrize("partition, where", [(3, "t[3]"), (None, "topic 't' (no partition assigned yet)"),
                                              (-1, "topic 't' (no partition assigned yet)")])
def test_delivery_errors_name_the_partition_or_say_there_was_none(partition: object, where: str) -> None:
    from confluent_kafka import KafkaError, KafkaException
    from confluent_kafka.spark._writer import DeliveryErrors

    errors = DeliveryErrors()
    errors(KafkaError(KafkaError._MSG_TIMED_OUT), _FailedMessage(partition))  # type: ignore[arg-type]
    with pytest.raises(KafkaException) as info:
        errors.check(5)
    assert f"first to {where}:" in str(info.value) and "[None]" not in str(info.value)


def test_offset_maps_round_trip() -> None:
    offsets = {("a", 0): 5, ("a", 10): 7, ("b", 1): 0}
    assert to_offset_map(offsets) == {"a": {"0": 5, "10": 7}, "b": {"1": 0}}
    assert from_offset_map(to_offset_map(offsets)) == offsets


def test_ranges_and_splitting() -> None:
    ranges = make_ranges({("t", 0): 0, ("t", 1): 10}, {("t", 0): 900, ("t", 1): 110, ("t", 2): 3})
    assert ranges == [OffsetRange("t", 0, 0, 900), OffsetRange("t", 1, 10, 110), OffsetRange("t", 2, 0, 3)]
    split = split_ranges(ranges, 10)
    assert len(split) >= 10
    for tp in ((("t", 0)), ("t", 1), ("t", 2)):  # the pieces tile each range exactly
        pieces = [r for r in split if (r.topic, r.partition) == tp]
        assert pieces[0].start == next(r.start for r in ranges if (r.topic, r.partition) == tp)
        assert all(a.end == b.start for a, b in zip(pieces, pieces[1:]))
    assert sum(r.size for r in split) == 1003
    assert split_ranges([OffsetRange("t", 0, 5, 5)], 4) == []
    with pytest.raises(ValueError, match="after the ending offset"):
        make_ranges({("t", 0): 10}, {("t", 0): 5})


def test_limit_offsets_shares_the_budget() -> None:
    starts = {("t", 0): 0, ("t", 1): 100}
    ends = {("t", 0): 300, ("t", 1): 200}
    assert limit_offsets(starts, ends, None) == ends
    limited = limit_offsets(starts, ends, 150)
    assert sum(limited[tp] - starts[tp] for tp in ends) == 150
    assert all(starts[tp] <= limited[tp] <= ends[tp] for tp in ends)
    assert limit_offsets(starts, ends, 1000) == ends
    assert limit_offsets(starts, ends, 1) != starts  # progress even with a tiny budget
