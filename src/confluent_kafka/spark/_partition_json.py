"""The ``{"topic": {"0": value}}`` JSON objects of per-partition read options (offsets or
timestamps), checked the same way for every option."""

from __future__ import annotations

from typing import Callable, Dict


def partition_values(parsed: object, name: str, noun: str,
                     value: Callable[[object, str, int], int]) -> Dict[str, Dict[int, int]]:
    """``parsed`` (decoded JSON) as ``{topic: {partition: value}}``; ``value(raw, topic,
    partition)`` checks each value (raising ValueError), ``noun`` names them in messages."""
    if not isinstance(parsed, dict):
        raise ValueError(f"option {name!r}: the JSON must be an object of topics, not {parsed!r}")
    out: Dict[str, Dict[int, int]] = {}
    for topic, parts in parsed.items():
        if not isinstance(parts, dict):
            raise ValueError(f"option {name!r}: topic {topic!r} must map partitions to {noun}")
        out[topic] = {}
        for part, raw in parts.items():
            try:
                p = int(part)
            except ValueError:
                raise ValueError(f"option {name!r}: partition {part!r} of {topic!r} is not a number") from None
            if p < 0:
                raise ValueError(f"option {name!r}: partition {p} of {topic!r} is negative")
            out[topic][p] = value(raw, topic, p)
    return out
