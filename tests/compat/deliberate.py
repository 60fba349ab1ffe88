"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "schema_registry::scenario_avro_bad_input": (
        "An Avro record that does not match its schema, a payload with an unknown magic byte, a writer "
        "schema id the registry does not hold, or a truncated payload raise what upstream raises there "
        "(TypeError/ValueError/EOFError from fastavro, SerializationError, SchemaRegistryError: the unknown id's "
        "is SchemaNotFoundError, a SchemaRegistryError subclass keeping the status, code and message), none "
        "of them a SerializationError where upstream's is not; only the text differs, saying which "
        "topic/field, schema and id failed and why. Pinned by tests/unit/test_schema_registry_avro.py."),
    "schema_registry_json::scenario_json_bad_input": (
        "A JSON record that fails its schema raises a SerializationError naming the topic/field, the schema's "
        "title and id, and the JSON path of the failing value ($.tags[1]) besides jsonschema's message (upstream: "
        "the message alone). A payload with a bad or short framing, an unknown writer schema id, or that is not "
        "JSON, and a record json cannot encode, raise what upstream raises there (SerializationError, "
        "struct.error, SchemaRegistryError, json.JSONDecodeError, TypeError; the last three as subclasses "
        "keeping upstream's attributes where the text needs it), never a SerializationError where upstream's is "
        "not; only the text differs, saying what failed. A serializer made without a schema refuses to register "
        "None (upstream's mock registers it and frames the record). Pinned by tests/unit/test_schema_registry_json.py."),
    "schema_registry_protobuf::scenario_protobuf_bad_input": (
        "A message of the wrong type, a payload with a bad or short framing or cut message indexes, an unknown "
        "writer schema id, a message index the writer schema does not have, or bytes that do not decode raise "
        "what upstream raises there (ValueError, SerializationError, struct.error, EOFError, SchemaRegistryError), "
        "never a SerializationError where upstream's is not; only the text differs, naming the topic/field, the "
        "message type, the schema id and what failed. Serializing without a SerializationContext (so no subject "
        "and no schema id) raises a SerializationError saying so (upstream: AttributeError on None). Pinned by "
        "tests/unit/test_schema_registry_protobuf.py."),
    "schema_registry_rules::scenario_rules_failure_text": (
        "A data-contract rule that fails with the ERROR action raises a SerializationError whose text says which "
        "topic/field, rule (kind, name, type, mode) and subject failed and why (the rule's own error, which is also "
        "the __cause__ as upstream's); upstream's SerializationError has an empty text. Same type and cause, so "
        "handlers keep working. Pinned by tests/unit/test_schema_registry_rules.py::test_failure_text."),
    "schema_registry_rules::scenario_rules_cel_results_are_plain_values": (
        "A CEL TRANSFORM's result reaches the serializer as plain Python values (bool, int, float, str, bytes, "
        "dict, list); upstream hands over cel-python's own types, so a JSON record whose transform yields a boolean "
        "fails JSON Schema's boolean check (BoolType is an int) and one yielding a double fails the JSON encoder. "
        "Pinned by tests/unit/test_schema_registry_rules.py::test_cel_results_are_plain_values."),
    "schema_registry_oauth::scenario_token_lifetime_missing_or_text": (
        "An OAuth token answer without expires_in (optional in RFC 6749) keeps its token until the endpoint gives "
        "another, and an expires_in sent as text (\"30\") is read as a number; upstream's client fetches the token, "
        "then fails every later request with KeyError 'expires_in' or a TypeError. Pinned by "
        "tests/unit/test_schema_registry_oauth.py::test_token_without_or_with_text_lifetime."),
    "schema_registry::scenario_mock_calls_upstream_leaves_to_http": (
        "The mock:// client answers every call the way a registry does (compatibility level, config, "
        "modes, schema types, contexts) instead of sending it to a mock:// URL that httpx cannot "
        "reach (upstream's mock: httpx UnsupportedProtocol after its retries; get_config answers None). "
        "Pinned by tests/unit/test_schema_registry_client.py::test_config_compatibility_and_modes."),
    "admin::scenario_elect_leaders_timeouts": (
        "upstream's AdminClient.elect_leaders raises SystemError for request_timeout or operation_timeout "
        "(its C argument parser is broken); ours honours both, so code that passes them works"),
    "admin::scenario_create_acls_filter_with_none": (
        "create_acls given an AclBindingFilter whose name/principal/host is None: upstream's C layer fails "
        "with SystemError (a UnicodeDecodeError leak); ours raises TypeError naming the attribute"),
    "admin::scenario_config_entry_synonyms_default": (
        "upstream's ConfigEntry shares one mutable default synonyms dict between every entry made without "
        "synonyms, so adding to one entry's synonyms changes all of them; ours gives each entry its own"),
    "admin::scenario_c_value_pickles": (
        "NewTopic, NewPartitions and Uuid can be pickled and copied here (by their constructor arguments); "
        "upstream raises TypeError: cannot pickle"),
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
    "share::scenario_exception_pickling": (
        "ConcurrentModificationException and IllegalStateException pickle (they live in "
        "confluent_kafka.cimpl); upstream's name their module 'cimpl', which cannot be imported, so "
        "pickling one fails. Code that does not pickle them sees no difference."),
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
        "produce_batch() also takes a sequence (or other iterable) or Arrow array of values (the column form); "
        "what it refuses says so after upstream's own text ('messages must be a list (...)'), "
        "so code matching upstream's text still matches (produce_batch::scenario_bad_messages_text).",
    "produce_batch::scenario_unencodable_text":
        "produce_batch() raises for a value/key str UTF-8 cannot encode before enqueuing anything "
        "(upstream enqueues the message, then raises).",
    "module_values::scenario_throttle_event_repr_eq":
        "repr() of a ThrottleEvent names its fields and events compare and hash by value (upstream: "
        "object's default repr, an event equal only to itself); str() is upstream's text. Pinned by "
        "tests/unit/test_module.py::TestThrottleEvent.",
    "module_values::scenario_partitioner_buffer_keys":
        "murmur2(), consistent() and fnv1a() take any bytes-like key (bytearray, memoryview), as produce() "
        "does; upstream takes bytes only. A str or None key raises upstream's TypeError. Pinned by "
        "tests/unit/test_partitioners.py::test_buffer_keys.",
    "roundtrip::scenario_report_headers":
        "Delivery reports carry the headers that were produced (upstream: headers() is None).",
    "roundtrip::scenario_produce_batch_extras_roundtrip":
        "produce_batch() sends the headers, timestamp and partition of each message dict (upstream drops "
        "headers and partition, refuses timestamps).",
    "errors::scenario_error_compared_with_non_ints":
        "Comparing a KafkaError with a non-int (None, str, float, object) returns False/NotImplemented "
        "(so ==/!= work and ordering raises the usual TypeError); upstream raises SystemError or TypeError, "
        "or leaks an exception into the next call. hash(KafkaError(-1)) is -2, not SystemError.",
    "errors::scenario_error_keyword_code":
        "KafkaError(code=...) is accepted besides KafkaError(error=...): upstream's own type stubs name the "
        "parameter `code`, but its runtime refuses that keyword.",
    "errors::scenario_kafka_exception_pickle":
        "KafkaException pickles (it lives in confluent_kafka.cimpl); upstream's class claims a module named "
        "`cimpl` that cannot be imported, so pickling it fails.",
    "clients::scenario_timeout_none":
        "timeout=None means wait without limit (as in kafka-python and the asyncio layer); upstream raises "
        "TypeError('must be real number, not NoneType'). Code that works upstream never passes None.",
    "clients::scenario_timeout_nan":
        "A NaN timeout raises ValueError('timeout must not be NaN'); upstream converts NaN to a C int, which "
        "is undefined behaviour (poll may wait or not).",
    "config::scenario_ints_beyond_32_bits":
        "librdkafka keeps int properties in 32 bits and casts what strtol() read, so 2**32 + 5 becomes 5; "
        "where that is in the property's range upstream takes it without a word (queue.buffering.max.messages "
        "5). Here the constructor raises KafkaException(_INVALID_ARG) naming the property, the value and what "
        "librdkafka would have kept. Text properties and numbers within 32 bits are taken as upstream takes "
        "them. Pinned by tests/unit/test_config.py::test_an_int_librdkafka_would_wrap_is_refused.",
    "clients::scenario_producer_close_arguments":
        "Producer.close(timeout=...) bounds how long close() delivers what is queued, so its argument is "
        "checked like any timeout; upstream's close() takes no timeout and ignores whatever it is given.",
}
