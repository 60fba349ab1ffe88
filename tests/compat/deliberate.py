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
    "aio::scenario_outside_a_loop":
        "AIOProducer/AIOConsumer can be made outside a running event loop and bind to the loop that "
        "runs when they are first used (upstream raises RuntimeError: no running event loop).",
    "aio::scenario_produce_headers_timestamp":
        "AIOProducer.produce() (and AsyncSerializingProducer's) produces headers and timestamps; "
        "upstream's batch mode raises NotImplementedError for both.",
    "aio::scenario_producer_after_close":
        "AIOProducer.close() is idempotent and every later call raises RuntimeError('Producer has been "
        "closed'); upstream's second close() fails on its shut-down thread pool and produce() after "
        "close returns a future that never resolves.",
    "aio::scenario_purge_pending":
        "AIOProducer.purge() fails every pending future with KafkaException(_PURGE_QUEUE), as librdkafka "
        "reports it; upstream cancels the futures of messages still in its Python-side buffer.",
    "aio::scenario_consumer_close_twice":
        "AIOConsumer.close() is idempotent (upstream's second close() raises RuntimeError).",
    "aio::scenario_deserializing_batch_failure":
        "AsyncDeserializingConsumer.consume(): a deserializer failing mid-batch returns the messages "
        "before it and raises on the next call (upstream raises at once and the rest of the batch is lost).",
}
