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
