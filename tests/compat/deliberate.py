"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "serializing_clients::scenario_consume_not_poll":
        "DeserializingConsumer.consume() deserializes a batch (upstream raises NotImplementedError); "
        "a failure mid-batch returns the messages before it and raises on the next call, so none is lost.",
    "serializing_clients::scenario_error_roundtrip":
        "Key/Value(De)SerializationError pickle through their constructor arguments, so a loaded copy "
        "keeps its message (upstream's copy nests the KafkaError's text in a new one). Pickles load "
        "on either side (crossed_error_pickles).",
}
