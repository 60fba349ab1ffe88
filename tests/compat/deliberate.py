"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "message::scenario_repr":
        "repr()/str() of a Message name its topic, partition, offset and error "
        "(upstream: object's default <... object at 0x...>).",
    "message::scenario_timestamp_bad_elements":
        "Message(timestamp=(a, b)) with elements that are not ints raises TypeError (or OverflowError) "
        "instead of upstream's SystemError.",
    "message::scenario_commit_message_subclass":
        "commit()/store_offsets() take a Message subclass (upstream: TypeError, it wants exactly Message).",
    "topic_partition::scenario_none_arguments":
        "TopicPartition(..., metadata=None, leader_epoch=None) given explicitly mean the defaults, as the "
        "signature documents (upstream's parser refuses None).",
    "topic_partition::scenario_compare_other_types":
        "Comparing a TopicPartition with another type returns NotImplemented (== is False, < raises "
        "TypeError) and a subclass compares like its base (upstream raises NotImplementedError).",
    "topic_partition::scenario_lists_of_partitions":
        "Where a list of TopicPartition is expected, a tuple and TopicPartition subclasses are accepted "
        "(upstream: TypeError).",
    "pickles::scenario_topic_partition_copies":
        "TopicPartition pickles and copies (upstream: TypeError, cannot pickle).",
    "pickles::crossed_topic_partitions_with_error":
        "A TopicPartition with a per-partition error pickles here (the error as state); upstream can "
        "neither make nor load such a pickle (its other pickles load there: crossed_topic_partitions).",
    "produce_batch::scenario_callbacks_not_callable":
        "produce_batch() refuses a callback that cannot be called with TypeError before enqueuing "
        "(upstream takes it and raises SystemError when the report is served).",
    "produce_batch::scenario_dict_extras":
        "Message dicts of produce_batch(): per-message partition and timestamp are used and 'on_delivery' "
        "is an alias of 'callback' (upstream ignores the partition and the key, refuses timestamps), "
        "and partition=None is the default partition.",
    "produce_batch::scenario_other_forms":
        "produce_batch() also takes a sequence or Arrow array of values (the column form).",
    "produce_batch::scenario_unencodable_text":
        "produce_batch() raises for a value/key str UTF-8 cannot encode before enqueuing anything "
        "(upstream enqueues the message, then raises).",
    "roundtrip::scenario_report_headers":
        "Delivery reports carry the headers that were produced (upstream: headers() is None).",
    "roundtrip::scenario_produce_batch_extras_roundtrip":
        "produce_batch() sends the headers, timestamp and partition of each message dict (upstream drops "
        "headers and partition, refuses timestamps).",
}
