"""What a kafka-python program observes of the ``kafka`` package, as JSON on stdout.

Run twice by test_kafka_surface.py: with the real kafka-python (``.bench-venv``), and through
``python -m confluent_kafka.compat run`` so that ``import kafka`` is the facade. Arguments: the
bootstrap servers of a running broker, and optionally an empty one-partition topic for a
produce/consume round trip.
"""
from __future__ import annotations

import importlib
import inspect
import json
import math
import sys

import kafka
import kafka.errors as Errors
from kafka.consumer.fetcher import ConsumerRecord
from kafka.producer.future import FutureRecordMetadata, RecordMetadata
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor
from kafka.future import Future
from kafka.partitioner import DefaultPartitioner, Partitioner, StickyPartitioner, murmur2
from kafka.structs import ConsumerGroupMetadata, OffsetAndMetadata, OffsetAndTimestamp, TopicPartition

CONSUMER_METHODS = ["subscribe", "subscription", "unsubscribe", "assign", "assignment", "poll", "seek",
                    "seek_to_beginning", "seek_to_end", "position", "highwater", "committed", "commit",
                    "commit_async", "pause", "resume", "paused", "beginning_offsets", "end_offsets",
                    "offsets_for_times", "partitions_for_topic", "topics", "metrics", "close",
                    "group_metadata", "bootstrap_connected"]
PRODUCER_METHODS = ["send", "flush", "close", "partitions_for", "metrics", "init_transactions",
                    "begin_transaction", "send_offsets_to_transaction", "commit_transaction",
                    "abort_transaction", "bootstrap_connected"]
ADMIN_METHODS = ["list_topics", "describe_topics", "create_topics", "delete_topics", "describe_configs",
                 "alter_configs", "list_groups", "describe_groups", "list_group_offsets", "delete_groups",
                 "create_partitions", "close"]
FUTURE_METHODS = ["succeeded", "failed", "retriable", "success", "failure", "add_callback", "add_errback",
                  "add_both", "chain"]


def simple(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return "inf" if math.isinf(value) else value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, str, tuple)) for v in value):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return "<object>"


def sig(obj, name):
    """The parameters (names, kinds, defaults) without annotations."""
    params = inspect.signature(getattr(obj, name)).parameters.values()
    return str(inspect.Signature([p.replace(annotation=inspect.Parameter.empty) for p in params]))


def outcome(fn):
    try:
        result = fn()
    except Exception as exc:
        return {"raises": type(exc).__name__, "text": str(exc)}
    return {"returns": repr(result)}


# The options that take a number of milliseconds, bytes or times, and values below and beyond
# what librdkafka takes for them (kafka-python takes any number).
CONSUMER_NUMBERS = ["fetch_max_wait_ms", "fetch_min_bytes", "fetch_max_bytes", "max_partition_fetch_bytes",
                    "request_timeout_ms", "retry_backoff_ms", "reconnect_backoff_ms", "reconnect_backoff_max_ms",
                    "max_in_flight_requests_per_connection", "auto_commit_interval_ms", "metadata_max_age_ms",
                    "max_poll_interval_ms", "session_timeout_ms", "heartbeat_interval_ms", "receive_buffer_bytes",
                    "send_buffer_bytes", "receive_message_max_bytes", "connections_max_idle_ms"]
PRODUCER_NUMBERS = ["request_timeout_ms", "retry_backoff_ms", "reconnect_backoff_ms", "reconnect_backoff_max_ms",
                    "max_in_flight_requests_per_connection", "metadata_max_age_ms", "receive_buffer_bytes",
                    "send_buffer_bytes", "receive_message_max_bytes", "connections_max_idle_ms",
                    "transaction_timeout_ms", "delivery_timeout_ms", "retries", "batch_size", "linger_ms",
                    "max_request_size"]
NUMBERS = (-1, 0, 1_200_000, 10**12)


def built(cls, **configs):
    """Whether a client is made with ``configs`` (it makes no connection with an api_version)."""
    try:
        client = cls(bootstrap_servers="127.0.0.1:1", api_version=(2, 8, 0), **configs)
    except Exception as exc:
        return {"raises": type(exc).__name__, "text": str(exc)}
    if cls is kafka.KafkaProducer:
        client.close(timeout=0)
    else:
        client.close()
    return {"returns": "built"}


def numbers():
    out = {}
    for cls, names in ((kafka.KafkaConsumer, CONSUMER_NUMBERS), (kafka.KafkaProducer, PRODUCER_NUMBERS)):
        for name in names:
            out[f"{cls.__name__}.{name}"] = {str(v): built(cls, **{name: v}) for v in NUMBERS}
    out["KafkaConsumer.group"] = {
        "heartbeat_not_below_session": built(kafka.KafkaConsumer, group_id="g", heartbeat_interval_ms=10_000,
                                             session_timeout_ms=10_000),
        "session_beyond_max_poll": built(kafka.KafkaConsumer, group_id="g", session_timeout_ms=1_000_000),
    }
    return out


# The module paths kafka-python 2.x and 3.0 programs import these names from.
IMPORT_PATHS = {
    "kafka.version": ["__version__"],
    "kafka.partitioner.abc": ["Partitioner"],
    "kafka.partitioner.default": ["DefaultPartitioner", "murmur2"],
    "kafka.partitioner.sticky": ["StickyPartitioner"],
    "kafka.serializer.abstract": ["Serializer", "Deserializer"],
    "kafka.serializer.default": ["DefaultSerializer"],
    "kafka.serializer.json": ["JsonSerializer"],
    "kafka.serializer.wrapper": ["SerializeWrapper", "DeserializeWrapper"],
    "kafka.coordinator.assignors.abstract": ["AbstractPartitionAssignor", "RebalanceProtocol"],
    "kafka.coordinator.assignors.cooperative_sticky": ["CooperativeStickyAssignor"],
    "kafka.record.abc": ["ABCRecord", "ABCRecordBatch", "ABCRecordBatchBuilder", "ABCRecords"],
}


def import_paths():
    out = {}
    for path, names in IMPORT_PATHS.items():
        module = importlib.import_module(path)
        out[path] = {n: v if isinstance(v := getattr(module, n), str) else v.__name__ for n in names}
    record_abc = importlib.import_module("kafka.record.abc")
    out["record_abc_members"] = {n: sorted(getattr(record_abc, n).__abstractmethods__)
                                 for n in IMPORT_PATHS["kafka.record.abc"]}
    cooperative = importlib.import_module("kafka.coordinator.assignors.cooperative_sticky").CooperativeStickyAssignor
    out["rebalance_protocols"] = {c.name: [int(p) for p in c().supported_protocols()]
                                  for c in (RangePartitionAssignor, RoundRobinPartitionAssignor, cooperative)}
    # the submodule kafka.serializer.json must not hide the json module from the package's code
    json_serializer = importlib.import_module("kafka.serializer").JsonSerializer()
    out["json_round_trip"] = json_serializer.deserialize("t", [], json_serializer.serialize("t", [], {"a": [1]}))
    return out


def errors():
    out = {}
    for name, cls in sorted(vars(Errors).items()):
        if isinstance(cls, type) and issubclass(cls, Errors.KafkaError):
            out[name] = {"errno": getattr(cls, "errno", None), "message": getattr(cls, "message", None),
                         "retriable": cls.retriable, "invalid_metadata": cls.invalid_metadata,
                         "bases": [b.__name__ for b in cls.__mro__[1:] if b.__module__.endswith("errors")]}
    return out


def without_timestamp(record) -> list:
    """A record's or RecordMetadata's fields, the wall-clock timestamp left out."""
    fields = record._asdict()
    fields.pop("timestamp", None)
    return [[k, repr(v)] for k, v in fields.items()]


def round_trip(bootstrap: str, topic: str) -> dict:
    """Send three records (one at a time, so each is its own batch) to an existing one-partition
    topic and read them back, observing what a program sees."""
    out = {}
    producer = kafka.KafkaProducer(bootstrap_servers=bootstrap, key_serializer=str.encode,
                                   value_serializer=lambda v: json.dumps(v).encode())
    sent = []
    for i, headers in enumerate(([], [("h", b"1")], [("a", b""), ("b", b"xyz")])):
        sent.append(without_timestamp(producer.send(topic, {"i": i}, key="k%d" % i, headers=headers).get(timeout=30)))
    out["sent"] = sent
    out["partitions_for"] = sorted(producer.partitions_for(topic))
    producer.close()
    tp = TopicPartition(topic, 0)
    consumer = kafka.KafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                   value_deserializer=lambda b: json.loads(b), consumer_timeout_ms=5000)
    consumer.assign([tp])
    out["position_start"] = outcome(lambda: consumer.position(tp))
    out["beginning"] = outcome(lambda: consumer.beginning_offsets([tp]))
    out["end"] = outcome(lambda: consumer.end_offsets([tp]))
    out["partitions_for_topic"] = outcome(lambda: consumer.partitions_for_topic(topic))
    records = []
    for record in consumer:
        records.append(without_timestamp(record))
        if len(records) == 3:
            break
    out["records"] = records
    out["position_end"] = outcome(lambda: consumer.position(tp))
    consumer.seek(tp, 1)
    polled = consumer.poll(timeout_ms=5000, max_records=1)
    out["poll_after_seek"] = [[repr(k), [r.offset for r in v]] for k, v in polled.items()]
    consumer.pause(tp)
    out["paused"] = outcome(lambda: consumer.paused())
    out["poll_paused"] = outcome(lambda: consumer.poll(timeout_ms=500))
    consumer.close()
    return out


def main() -> None:
    bootstrap = sys.argv[1]
    obs = {
        "version": kafka.__version__,
        "all": sorted(kafka.__all__),
        "consumer_defaults": {k: simple(v) for k, v in kafka.KafkaConsumer.DEFAULT_CONFIG.items()},
        "producer_defaults": {k: simple(v) for k, v in kafka.KafkaProducer.DEFAULT_CONFIG.items()},
        "admin_defaults": {k: simple(v) for k, v in kafka.KafkaAdminClient.DEFAULT_CONFIG.items()},
        "consumer_init": sig(kafka.KafkaConsumer, "__init__"),
        "consumer": {m: sig(kafka.KafkaConsumer, m) for m in CONSUMER_METHODS},
        "producer": {m: sig(kafka.KafkaProducer, m) for m in PRODUCER_METHODS},
        "admin": {m: sig(kafka.KafkaAdminClient, m) for m in ADMIN_METHODS},
        "future": {m: sig(Future, m) for m in FUTURE_METHODS},
        "future_get": sig(FutureRecordMetadata, "get"),
        "listener": sorted(n for n in dir(kafka.ConsumerRebalanceListener) if n.startswith("on_")),
        "tuples": {t.__name__: [list(t._fields), list(t._field_defaults.items())] for t in (
            ConsumerRecord, RecordMetadata, TopicPartition, OffsetAndMetadata, OffsetAndTimestamp,
            ConsumerGroupMetadata)},
        "errors": errors(),
        "import_paths": import_paths(),
        "murmur2": [murmur2(bytes(range(n))) for n in range(12)] + [murmur2(b"key"), murmur2(b"\xff" * 9)],
        "partitioners": [c.__name__ for c in (Partitioner, DefaultPartitioner, StickyPartitioner)],
        "assignors": [RangePartitionAssignor.name, RoundRobinPartitionAssignor.name, StickyPartitionAssignor.name],
        "error_str": [str(Errors.KafkaError()), str(Errors.KafkaError("x")), str(Errors.NoError()),
                      str(Errors.for_code(3)("boom")), repr(Errors.KafkaTimeoutError("t")),
                      Errors.for_code(3).__name__, Errors.for_code(9999).__name__, Errors.for_code(9999).errno,
                      Errors.KafkaError("a") == Errors.KafkaError("a"), str(Errors.CommitFailedError())[:20]],
        "numbers": numbers(),
        "bad": {
            "consumer_unknown": outcome(lambda: kafka.KafkaConsumer(bootstrap_servers=bootstrap, no_such=1)),
            "consumer_old_name": outcome(lambda: kafka.KafkaConsumer(bootstrap_servers=bootstrap, auto_commit_enable=True)),
            "producer_unknown": outcome(lambda: kafka.KafkaProducer(bootstrap_servers=bootstrap, no_such=1)),
            "admin_unknown": outcome(lambda: kafka.KafkaAdminClient(bootstrap_servers=bootstrap, no_such=1)),
        },
    }
    consumer = kafka.KafkaConsumer(bootstrap_servers=bootstrap, consumer_timeout_ms=100)
    tp = TopicPartition("surface-probe", 0)
    obs["consumer_calls"] = {
        "poll_negative": outcome(lambda: consumer.poll(timeout_ms=-1)),
        "poll_max_zero": outcome(lambda: consumer.poll(max_records=0)),
        "poll_max_str": outcome(lambda: consumer.poll(max_records="x")),
        "poll_empty": outcome(lambda: consumer.poll()),
        "subscribe_none": outcome(lambda: consumer.subscribe()),
        "subscribe_both": outcome(lambda: consumer.subscribe(["a"], pattern="b")),
        "subscribe_bad_listener": outcome(lambda: consumer.subscribe(["a"], listener=object())),
        "commit_no_group": outcome(lambda: consumer.commit()),
        "committed_no_group": outcome(lambda: consumer.committed(tp)),
        "commit_async_no_group": outcome(lambda: consumer.commit_async()),
        "position_unassigned": outcome(lambda: consumer.position(tp)),
        "position_not_tp": outcome(lambda: consumer.position("x")),
        "seek_unassigned": outcome(lambda: consumer.seek(tp, 1)),
        "seek_to_beginning_none": outcome(lambda: consumer.seek_to_beginning()),
        "offsets_for_times_negative": outcome(lambda: consumer.offsets_for_times({tp: -5})),
        "subscription": outcome(lambda: consumer.subscription()),
        "assignment": outcome(lambda: consumer.assignment()),
        "paused": outcome(lambda: consumer.paused()),
        "iterate_timeout": outcome(lambda: list(consumer)),
        "group_metadata": outcome(lambda: tuple(consumer.group_metadata())),
    }
    obs["consumer_calls"]["unsubscribe_first"] = outcome(lambda: consumer.unsubscribe())
    obs["consumer_calls"]["assign"] = outcome(lambda: consumer.assign([tp]))
    obs["consumer_calls"].update({
        "assign_then_subscribe": outcome(lambda: consumer.subscribe(["a"])),
        "seek_negative": outcome(lambda: consumer.seek(tp, -1)),
        "assignment_after": outcome(lambda: consumer.assignment()),
        "unsubscribe": outcome(lambda: consumer.unsubscribe()),
        "assignment_cleared": outcome(lambda: consumer.assignment()),
    })
    consumer.close()
    obs["consumer_calls"]["poll_closed"] = outcome(lambda: consumer.poll())
    obs["consumer_calls"]["close_twice"] = outcome(lambda: consumer.close())
    producer = kafka.KafkaProducer(bootstrap_servers=bootstrap)
    obs["producer_calls"] = {
        "send_nothing": outcome(lambda: producer.send("t")),
        "send_bad_headers": outcome(lambda: producer.send("t", b"v", headers={"a": b"b"})),
        "send_bad_header_item": outcome(lambda: producer.send("t", b"v", headers=[("a", "str")])),
        "send_str_value": outcome(lambda: producer.send("t", "text")),
        "close_negative": outcome(lambda: producer.close(timeout=-1)),
    }
    producer.close()
    obs["producer_calls"]["send_closed"] = outcome(lambda: producer.send("t", b"v"))
    if len(sys.argv) > 2:
        obs["round_trip"] = round_trip(bootstrap, sys.argv[2])
    text = json.dumps(obs, indent=1, sort_keys=True)
    print(text.replace(sys.argv[2], "TOPIC") if len(sys.argv) > 2 else text)


if __name__ == "__main__":
    main()
