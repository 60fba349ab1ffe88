"""Timestamp-based start and end positions, as Spark's Kafka source names them.

The options (``startingTimestamp``, ``startingOffsetsByTimestamp``, ``endingTimestamp``,
``endingOffsetsByTimestamp``, ``startingOffsetsByTimestampStrategy``) are checked here, and
:func:`offsets_from_lookup` turns the answer of a timestamp lookup (Kafka's ListOffsets by
timestamp, ``Consumer.offsets_for_times``) into the offsets a read starts or ends at. The
lookup itself is the planner's (it owns the consumer); keeping the decision apart from it
lets it be checked without a broker.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple, Union

from ._partition_json import partition_values

TP = Tuple[str, int]

#: One timestamp (ms) for every partition of the read, or ``{topic: {partition: ms}}``.
TimestampSpec = Union[int, Dict[str, Dict[int, int]]]

#: What ``startingOffsetsByTimestampStrategy`` may say when no offset has a late enough
#: timestamp: fail the query, or start such partitions at their latest offset.
STRATEGIES = ("error", "latest")

#: What a timestamp lookup answers for a partition with no message at or after the timestamp.
NOT_FOUND = -1


def _timestamp(value: object, what: str) -> int:
    """``value`` as a timestamp in ms: a non-negative integer (a string of digits in options)."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text, 10)
        except ValueError:
            raise ValueError(f"{what} must be a timestamp in milliseconds (an integer), not {text!r}") from None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a timestamp in milliseconds (an integer), not {value!r}")
    if value < 0:
        raise ValueError(f"{what} must not be negative, not {value}")
    return value


def _by_partition(raw: str, name: str) -> Dict[str, Dict[int, int]]:
    """The JSON ``{"topic": {"0": ms}}`` of a per-partition option, checked."""
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = None
    if not isinstance(parsed, dict) or not parsed:
        raise ValueError(f'option {name!r} must be JSON like {{"topic": {{"0": 1700000000000}}}}, not {raw!r}')
    return partition_values(parsed, name, "timestamps",
                            lambda stamp, topic, p: _timestamp(stamp, f"option {name!r}: the timestamp of {topic}[{p}]"))


def parse_timestamps(options: Mapping[str, str], prefix: str) -> Optional[TimestampSpec]:
    """``<prefix>Timestamp`` or else ``<prefix>OffsetsByTimestamp`` (``prefix`` is "starting" or
    "ending"), as Spark ranks them; None when neither is set. Both are checked when both are set."""
    one_name, by_name = f"{prefix}Timestamp", f"{prefix}OffsetsByTimestamp"
    one, by = options.get(one_name.lower()), options.get(by_name.lower())
    parsed_by = _by_partition(by, by_name) if by is not None else None
    if one is not None:
        return _timestamp(one, f"option {one_name!r}")
    return parsed_by


def parse_strategy(options: Mapping[str, str]) -> str:
    """``startingOffsetsByTimestampStrategy``: "error" (the default) or "latest"."""
    raw = options.get("startingoffsetsbytimestampstrategy")
    if raw is None:
        return "error"
    word = raw.strip().lower()
    if word not in STRATEGIES:
        raise ValueError(f"option 'startingOffsetsByTimestampStrategy' must be 'error' or 'latest', not {raw!r}")
    return word


@dataclass(frozen=True)
class TimestampBounds:
    """The timestamp options of one read, after precedence: None where none was given."""

    starting: Optional[TimestampSpec] = None
    ending: Optional[TimestampSpec] = None
    strategy: str = "error"


def wanted_timestamps(spec: TimestampSpec, tps: List[TP], what: str) -> Dict[TP, int]:
    """The timestamp to look up for each partition ``spec`` covers: every one of ``tps`` for a
    single timestamp, the named ones for the JSON form (which must all be in ``tps``)."""
    if isinstance(spec, int):
        return {tp: spec for tp in tps}
    given = {(t, p): ms for t, parts in spec.items() for p, ms in parts.items()}
    unknown = sorted(set(given) - set(tps))
    if unknown:
        raise ValueError(f"option {what!r} names partitions the read does not cover: {unknown}")
    return given


def offsets_from_lookup(wanted: Dict[TP, int], found: Dict[TP, int], latest: Dict[TP, int],
                        starting: bool, strategy: str, what: str) -> Dict[TP, int]:
    """The offset each partition of ``wanted`` starts (``starting``) or ends at.

    ``found`` is the lookup's answer: the first offset whose timestamp is at or after the wanted
    one, or :data:`NOT_FOUND`. Where nothing was found an end is the latest offset (``latest``);
    a start fails with strategy "error" and is the latest offset with "latest".
    """
    out: Dict[TP, int] = {}
    for tp in sorted(wanted):
        off = found.get(tp, NOT_FOUND)
        if off >= 0:
            out[tp] = off
        elif not starting or strategy == "latest":
            out[tp] = latest[tp]
        else:
            raise ValueError(
                f"option {what!r}: {tp[0]}[{tp[1]}] has no message with a timestamp at or after "
                f"{wanted[tp]} ms; set startingOffsetsByTimestampStrategy=latest to start such "
                f"partitions at their latest offset instead")
    return out
