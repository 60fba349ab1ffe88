"""``kafka.consumer.fetcher``: :data:`ConsumerRecord`, the record type consumers return."""
from __future__ import annotations

from collections import namedtuple

__all__ = ["ConsumerRecord"]

ConsumerRecord = namedtuple("ConsumerRecord", [
    "topic", "partition", "leader_epoch", "offset", "timestamp", "timestamp_type", "key", "value",
    "headers", "checksum", "serialized_key_size", "serialized_value_size", "serialized_header_size"])
ConsumerRecord.__doc__ = (
    "One consumed record. ``timestamp_type`` is 0 (create time) or 1 (log-append time); "
    "``headers`` is a list of (str, bytes); ``checksum`` is None (record format v2 has none); "
    "a serialized size is -1 when the key/value/headers are absent.")
