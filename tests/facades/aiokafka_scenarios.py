"""Observations of aiokafka's API without a broker, made under the real aiokafka and under the
facade (tests/facades/test_aiokafka_differential.py runs this file with each and compares).

Run as ``python aiokafka_scenarios.py [facade] [--bootstrap H:P --topic T]``; prints one JSON
object. With a broker, also what a round trip through it returns (fields and types; the topic
is new and each run uses its own).
"""
import asyncio
import json
import sys

ARGS = sys.argv[1:]
BOOTSTRAP = ARGS[ARGS.index("--bootstrap") + 1] if "--bootstrap" in ARGS else None
TOPIC = ARGS[ARGS.index("--topic") + 1] if "--topic" in ARGS else None

if "facade" in ARGS:
    import importlib

    sys.modules["aiokafka"] = importlib.import_module("confluent_kafka.compat.aiokafka")
    for _sub in ("abc", "consumer", "errors", "helpers", "producer", "structs"):
        sys.modules[f"aiokafka.{_sub}"] = importlib.import_module(f"confluent_kafka.compat.aiokafka.{_sub}")

import aiokafka  # noqa: E402
from aiokafka import errors  # noqa: E402
from aiokafka.structs import ConsumerRecord, OffsetAndMetadata, RecordMetadata, TopicPartition  # noqa: E402

NOWHERE = "127.0.0.1:1"
PRODUCER_NUMBERS = ["metadata_max_age_ms", "retry_backoff_ms", "connections_max_idle_ms", "request_timeout_ms",
                    "max_batch_size", "max_request_size", "linger_ms", "transaction_timeout_ms"]
CONSUMER_NUMBERS = ["metadata_max_age_ms", "retry_backoff_ms", "connections_max_idle_ms", "fetch_max_wait_ms",
                    "fetch_max_bytes", "fetch_min_bytes", "max_partition_fetch_bytes", "request_timeout_ms",
                    "auto_commit_interval_ms", "max_poll_interval_ms", "session_timeout_ms", "heartbeat_interval_ms"]
out = {}


def outcome(fn):
    try:
        value = fn()
    except BaseException as e:  # noqa: BLE001 - the observation is the exception
        return {"raised": type(e).__name__}
    return {"type": type(value).__name__}


async def aoutcome(coro_fn):
    try:
        value = await coro_fn()
    except BaseException as e:  # noqa: BLE001
        return {"raised": type(e).__name__}
    return {"type": type(value).__name__}


class Listener(aiokafka.ConsumerRebalanceListener):
    def on_partitions_revoked(self, revoked):
        pass

    def on_partitions_assigned(self, assigned):
        pass


async def main():
    P = aiokafka.AIOKafkaProducer
    C = aiokafka.AIOKafkaConsumer
    for name, kw in [("acks_2", {"acks": 2}), ("acks_all", {"acks": "all"}), ("compression_bad", {"compression_type": "brotli"}),
                     ("compression_gzip", {"compression_type": "gzip"}),
                     ("idempotent_acks_1", {"enable_idempotence": True, "acks": 1}),
                     ("transactional_acks_0", {"transactional_id": "t", "acks": 0}),
                     ("servers_list", {"bootstrap_servers": [NOWHERE]})]:
        kw = {"bootstrap_servers": NOWHERE, **kw}
        out[f"producer_{name}"] = outcome(lambda: P(**kw))
    for name, kw in [("max_poll_records_0", {"max_poll_records": 0}), ("max_poll_records_str", {"max_poll_records": "1"}),
                     ("topics_and_group", {"group_id": "g"})]:
        kw = {"bootstrap_servers": NOWHERE, **kw}
        out[f"consumer_{name}"] = outcome(lambda: C(**kw))

    # Sizes and timeouts beyond librdkafka's ranges (faust-streaming's producer asks for a
    # 1,200,000 ms request timeout): aiokafka takes any number.
    for cls, names in ((P, PRODUCER_NUMBERS), (C, CONSUMER_NUMBERS)):
        for name in names:
            for value in (-1, 0, 1_200_000, 10**12):
                out[f"{cls.__name__}_{name}_{value}"] = outcome(lambda: cls(bootstrap_servers=NOWHERE, **{name: value}))

    p = P(bootstrap_servers=NOWHERE)
    out["send_no_key_no_value"] = await aoutcome(lambda: p.send("t"))
    out["create_batch"] = outcome(p.create_batch)
    b = p.create_batch()
    out["batch_append"] = outcome(lambda: b.append(key=None, value=b"v", timestamp=None))
    out["batch_append_str"] = outcome(lambda: b.append(key=None, value="text", timestamp=None))
    out["batch_record_count"] = b.record_count()
    out["begin_not_transactional"] = await aoutcome(p.begin_transaction)
    out["send_offsets_not_transactional"] = await aoutcome(lambda: p.send_offsets_to_transaction({}, "g"))
    out["transaction_ctx"] = type(p.transaction()).__name__

    c = C(bootstrap_servers=NOWHERE)
    tp = TopicPartition("t", 0)
    out["subscribe_nothing"] = outcome(lambda: c.subscribe())
    out["subscribe_both"] = outcome(lambda: c.subscribe(["a"], pattern="b"))
    out["subscribe_bad_listener"] = outcome(lambda: c.subscribe(["a"], listener=object()))
    out["seek_negative"] = outcome(lambda: c.seek(tp, -1))
    out["seek_str"] = outcome(lambda: c.seek(tp, "1"))
    out["seek_unassigned"] = outcome(lambda: c.seek(tp, 1))
    out["commit_no_group"] = await aoutcome(c.commit)
    out["committed_no_group"] = await aoutcome(lambda: c.committed(tp))
    out["assign"] = outcome(lambda: c.assign([tp]))
    out["assignment"] = sorted(map(list, c.assignment()))
    out["subscribe_after_assign"] = outcome(lambda: c.subscribe(["t"], listener=Listener()))
    out["pause"] = outcome(lambda: c.pause(tp))
    out["paused"] = sorted(map(list, c.paused()))
    out["resume"] = outcome(lambda: c.resume(tp))
    out["paused_after"] = sorted(map(list, c.paused()))
    out["unsubscribe"] = outcome(c.unsubscribe)
    out["assignment_after"] = sorted(map(list, c.assignment()))
    out["subscribe_ok"] = outcome(lambda: c.subscribe(["t"], listener=Listener()))
    out["subscription"] = sorted(c.subscription())
    out["assign_after_subscribe"] = outcome(lambda: c.assign([tp]))
    out["getmany_max_records_0"] = await aoutcome(lambda: c.getmany(max_records=0))
    await c.stop()
    out["getone_stopped"] = await aoutcome(c.getone)
    out["getmany_stopped"] = await aoutcome(c.getmany)

    out["record_metadata_fields"] = list(RecordMetadata._fields)
    out["tp"] = [TopicPartition("t", 1) == ("t", 1), hash(TopicPartition("t", 1)) == hash(("t", 1))]
    out["oam"] = list(OffsetAndMetadata(1, "m"))
    observe_record("record_made", ConsumerRecord("t", 0, 5, 1000, 0, b"k", b"v", None, 1, 1, [("h", b"1")]))
    out["error_str"] = [str(errors.OffsetOutOfRangeError("x")), str(errors.KafkaTimeoutError()),
                        str(errors.CommitFailedError())[:19], str(errors.IllegalOperation("y"))]
    out["for_code"] = [errors.for_code(c).__name__ for c in (1, 3, 6, 25, 27, 29, 47, 9999)]
    out["error_bases"] = [issubclass(errors.KafkaError, RuntimeError),
                          issubclass(errors.ConsumerStoppedError, errors.KafkaError),
                          issubclass(errors.OffsetOutOfRangeError, errors.BrokerResponseError)]
    if BOOTSTRAP:
        await with_broker()


def observe_record(prefix, r):
    """What code does with a ConsumerRecord besides reading its fields (the facade's keeps them in
    slots: docs/aiokafka.md)."""
    import copy
    import dataclasses
    import pickle
    import weakref

    out[prefix] = {
        "vars": sorted(vars(r)), "vars_value": vars(r)["value"], "dict": sorted(r.__dict__),
        "asdict": sorted(dataclasses.asdict(r)), "astuple_len": len(dataclasses.astuple(r)),
        "fields": [f.name for f in dataclasses.fields(r)], "is_dataclass": dataclasses.is_dataclass(r),
        "replace": dataclasses.replace(r, offset=9).offset, "copy": copy.copy(r) == r,
        "deepcopy": copy.deepcopy(r) == r, "pickle": [pickle.loads(pickle.dumps(r, proto)) == r for proto in range(pickle.HIGHEST_PROTOCOL + 1)],
        "weakref": weakref.ref(r)() is r, "hash": outcome(lambda: hash(r)), "repr": repr(r)[:40],
        "match_args": list(type(r).__match_args__), "eq_other": r == dataclasses.replace(r, key=b"other"),
        "set_field": outcome(lambda: setattr(r, "partition", r.partition)),
    }
    out[prefix + "_set_extra"] = outcome(lambda: setattr(r, "extra", 1))
    d = vars(r)
    d["value"] = b"changed"
    out[prefix + "_dict_write"] = r.value == b"changed"


def shape(value):
    """A value's type, and the value itself where it does not depend on the run."""
    if isinstance(value, (bytes, str, bool, type(None))):
        return [type(value).__name__, value if not isinstance(value, bytes) else value.decode()]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [shape(v) for v in value]]
    return [type(value).__name__]


async def with_broker():
    topic = TOPIC
    async with aiokafka.AIOKafkaProducer(bootstrap_servers=BOOTSTRAP) as p:
        fut = await p.send(topic, b"v0", key=b"k0", partition=0, timestamp_ms=1000, headers=[("h", b"1")])
        out["send_returns"] = type(fut).__name__
        md = await fut
        out["record_metadata"] = {f: shape(getattr(md, f)) for f in md._fields if f not in ("log_start_offset",)}
        out["record_metadata_values"] = [md.topic_partition == (topic, 0), md.partition, md.offset, md.timestamp, md.timestamp_type]
        md1 = await p.send_and_wait(topic, None, key=b"tombstone", partition=0)
        out["tombstone"] = [md1.offset]
        out["partitions_for"] = sorted(await p.partitions_for(topic))
        # What instrumentation reads of the internal client, and aiokafka's own partition choice.
        out["client_view"] = [p.client._bootstrap_servers, type(p.client._client_id).__name__,
                              await p.client._wait_on_metadata(topic)]
        out["partition_choice"] = [p._partition(topic, None, "key", None, b"key", None),
                                   p._partition(topic, 0, None, None, None, None)]
        out["partition_unknown"] = outcome(lambda: p._partition(topic, 99, None, None, None, None))
        out["send_bad_partition"] = await aoutcome(lambda: p.send_and_wait(topic, b"x", partition=99))
        b = p.create_batch()
        b.append(key=None, value=b"b0", timestamp=None)
        out["send_batch_returns"] = type(await p.send_batch(b, topic, partition=0)).__name__
        b = p.create_batch()
        b.append(key=None, value=b"b1", timestamp=None)
        # (a topic of its own: the partitioner's pick is random, and the consumer below reads TOPIC's)
        md2 = await (await p.send_batch(b, topic + "-any", partition=None))
        out["send_batch_any_partition"] = md2.partition in await p.partitions_for(topic + "-any")
        out["send_batch_bad_partition"] = await aoutcome(lambda: p.send_batch(p.create_batch(), topic, partition=99))
        # _partition() right after the send that created a topic: aiokafka's send() fetched its partitions
        md3 = await p.send_and_wait(topic + "-new", b"n", key=b"key")
        out["partition_after_send"] = p._partition(topic + "-new", None, b"key", b"n", b"key", b"n") == md3.partition
        await p.flush()
    c = aiokafka.AIOKafkaConsumer(bootstrap_servers=BOOTSTRAP, group_id="g-" + topic, auto_offset_reset="earliest",
                                  enable_auto_commit=False)
    out["coordinator_before_start"] = c._coordinator is None
    out["consumer_client_view"] = [c._client._bootstrap_servers, c._client._client_id]
    await c.start()
    try:
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        # Internals programs read (FastStream): an assigning member never joins.
        out["membership_assigned"] = [c._coordinator.member_id, c._coordinator.generation]
        out["consumer_wait_on_metadata"] = sorted(await c._client._wait_on_metadata(topic))
        out["subscription_assigned"] = [sorted(c._subscription.topics), sorted(c.subscription())]
        out["position_start"] = await c.position(tp)
        r = await c.getone()
        out["record"] = {k: shape(v) for k, v in vars(r).items() if k not in ("timestamp",)}
        out["record_timestamp"] = r.timestamp
        observe_record("record_consumed", r)
        many = {}
        while sum(len(v) for v in many.values()) < 2:
            for k, v in (await c.getmany(timeout_ms=5000)).items():
                many.setdefault(k, []).extend(v)
        out["getmany_keys"] = [[type(k).__name__, list(k)] for k in many]
        out["getmany_values"] = [[m.offset, m.key, m.value] for v in many.values() for m in v]
        out["getmany_nothing"] = await c.getmany(timeout_ms=100)
        out["position_end"] = await c.position(tp)
        out["committed_none"] = await c.committed(tp)
        out["commit_returns"] = shape(await c.commit())
        out["committed"] = await c.committed(tp)
        out["commit_dict"] = shape(await c.commit({tp: 1}))
        out["committed_dict"] = await c.committed(tp)
        out["commit_oam"] = shape(await c.commit({tp: OffsetAndMetadata(2, "m")}))
        out["committed_oam"] = await c.committed(tp)
        out["seek_to_committed"] = {repr(list(k)): v for k, v in (await c.seek_to_committed(tp)).items()}
        out["getone_after_seek_to_committed"] = (await c.getone()).offset
        out["seek_to_beginning"] = shape(await c.seek_to_beginning(tp))
        out["seek_to_end"] = shape(await c.seek_to_end(tp))
        out["seek"] = shape(c.seek(tp, 1))
        out["getone_after_seek"] = (await c.getone()).offset
        out["assignment"] = [type(c.assignment()).__name__, sorted(map(list, c.assignment()))]
        out["topics_has"] = topic in await c.topics()
        out["beginning_offsets"] = {repr(list(k)): v for k, v in (await c.beginning_offsets([tp])).items()}
        # (the timestamps differ on purpose: librdkafka does not report the record's own; docs/aiokafka.md)
        out["offsets_for_times_future"] = [None if v is None else v.offset for v in
                                           (await c.offsets_for_times({tp: 2 ** 42})).values()]
        out["subscription_type"] = type(c.subscription()).__name__
        out["paused_type"] = type(c.paused()).__name__
    finally:
        await c.stop()


asyncio.run(main())
text = json.dumps(out, sort_keys=True, default=repr)
print(text.replace(TOPIC, "<topic>") if TOPIC else text)
