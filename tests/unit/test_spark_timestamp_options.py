"""Timestamp options of confluent_kafka.spark and the offsets a timestamp lookup's answer
gives (no Spark, no broker)."""

from __future__ import annotations

from typing import Dict

import pytest

from confluent_kafka.spark._options import ReadOptions, WriteOptions
from confluent_kafka.spark._timestamps import offsets_from_lookup


def test_lookup_answers_become_offsets() -> None:
    a, b = ("t", 0), ("t", 1)
    wanted, latest = {a: 100, b: 200}, {a: 50, b: 60}
    found = {a: 7, b: -1}
    assert offsets_from_lookup(wanted, found, latest, False, "error", "endingTimestamp") == {a: 7, b: 60}
    assert offsets_from_lookup(wanted, found, latest, True, "latest", "startingTimestamp") == {a: 7, b: 60}
    with pytest.raises(ValueError, match=r"option 'startingTimestamp': t\[1\] has no message with a timestamp "
                                         r"at or after 200 ms"):
        offsets_from_lookup(wanted, found, latest, True, "error", "startingTimestamp")
    # a partition the broker left out of its answer counts as "none found"
    assert offsets_from_lookup(wanted, {a: 0}, latest, True, "latest", "startingTimestamp") == {a: 0, b: 60}


@pytest.mark.parametrize("options, streaming, message", [
    ({"startingTimestamp": "yesterday"}, False, "'startingTimestamp' must be a timestamp in milliseconds"),
    ({"startingTimestamp": "1.5"}, False, "'startingTimestamp' must be a timestamp in milliseconds"),
    ({"endingTimestamp": "-1"}, False, "'endingTimestamp' must not be negative"),
    ({"startingTimestamp": "-5"}, True, "'startingTimestamp' must not be negative"),
    ({"startingOffsetsByTimestamp": "{}"}, False, "must be JSON like"),
    ({"startingOffsetsByTimestamp": "[1]"}, False, "must be JSON like"),
    ({"startingOffsetsByTimestamp": '{"t": 5}'}, False, "topic 't' must map partitions to timestamps"),
    ({"startingOffsetsByTimestamp": '{"t": {"x": 5}}'}, False, "partition 'x' of 't' is not a number"),
    ({"endingOffsetsByTimestamp": '{"t": {"-1": 5}}'}, False, "partition -1 of 't' is negative"),
    ({"endingOffsetsByTimestamp": '{"t": {"0": "soon"}}'}, False, r"timestamp of t\[0\] must be a timestamp"),
    ({"endingOffsetsByTimestamp": '{"t": {"0": 1.5}}'}, False, r"timestamp of t\[0\] must be a timestamp"),
    ({"endingOffsetsByTimestamp": '{"t": {"0": true}}'}, False, r"timestamp of t\[0\] must be a timestamp"),
    ({"startingOffsetsByTimestamp": '{"t": {"0": -3}}'}, True, r"timestamp of t\[0\] must not be negative"),
    # the option a higher-ranked one overrides is still checked
    ({"startingTimestamp": "5", "startingOffsetsByTimestamp": "nope"}, False, "must be JSON like"),
    ({"startingTimestamp": "5", "startingOffsetsByTimestampStrategy": "earliest"}, False,
     "'startingOffsetsByTimestampStrategy' must be 'error' or 'latest', not 'earliest'"),
    ({"endingTimestamp": "5"}, True, "option 'endingTimestamp' is for batch reads only"),
    ({"endingOffsetsByTimestamp": '{"t": {"0": 5}}'}, True, "option 'endingOffsetsByTimestamp' is for batch reads"),
])
def test_bad_timestamp_options_are_refused(options: Dict[str, str], streaming: bool, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse({"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t", **options}, streaming)


def test_timestamps_given_as_strings_are_taken() -> None:
    opts = ReadOptions.parse({"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t",
                              "startingOffsetsByTimestamp": '{"t": {"0": "17", "1": 18}}',
                              "endingTimestamp": 1_700_000_000_000}, streaming=False)
    assert opts.timestamps.starting == {"t": {0: 17, 1: 18}}
    assert opts.timestamps.ending == 1_700_000_000_000
    assert opts.timestamps.strategy == "error"


@pytest.mark.parametrize("name", ["startingTimestamp", "startingOffsetsByTimestamp", "endingTimestamp",
                                  "endingOffsetsByTimestamp", "startingOffsetsByTimestampStrategy"])
def test_timestamp_options_are_refused_for_writes(name: str) -> None:
    with pytest.raises(ValueError, match=f"option '{name}' is for reading, not writing"):
        WriteOptions.parse({"kafka.bootstrap.servers": "127.0.0.1:9", "topic": "t", name.upper(): "5"})
