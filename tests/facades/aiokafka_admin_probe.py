"""What an aiokafka program observes of ``aiokafka.admin``, as JSON on stdout.

Run twice by test_aiokafka_admin.py: with the real aiokafka (``.bench-venv``), and through
``python -m confluent_kafka.compat run`` so that ``import aiokafka`` is the facade. Arguments: the
bootstrap servers of a running tansu broker and a fresh prefix for the names this run makes.
Values that differ per run (names, ports, member ids) are replaced by placeholders.
"""
from __future__ import annotations

import asyncio
import inspect
import json
import sys

import aiokafka.admin as admin_module
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewPartitions, NewTopic, RecordsToDelete
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

BOOTSTRAP, PREFIX = sys.argv[1], sys.argv[2]
TOPIC, GROUP = f"{PREFIX}-t", f"{PREFIX}-g"
PORT = BOOTSTRAP.rsplit(":", 1)[1]


def plain(value):
    """JSON-able form: responses as their class name and to_object(), tuples as lists, names
    of this run as placeholders."""
    if hasattr(value, "to_object") and hasattr(value, "API_KEY"):
        return {"response": type(value).__name__.rsplit("_v", 1)[0], "fields": plain(value.to_object())}
    if isinstance(value, dict):
        return {str(plain(k)): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return value.replace(TOPIC, "<topic>").replace(GROUP, "<group>").replace(PREFIX, "<prefix>").replace(PORT, "<port>")
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return value


async def outcome(coro):
    try:
        result = await coro
    except Exception as exc:  # the class is what is compared; the text is each client's own
        return {"raises": type(exc).__name__}
    return {"returns": plain(result), "type": type(result).__name__}


def sig(fn):
    params = inspect.signature(fn).parameters.values()
    return [[p.name, str(p.kind), repr(p.default) if p.default is not inspect.Parameter.empty else None]
            for p in params]


async def main():
    out = {}
    out["all"] = sorted(admin_module.__all__)
    out["signatures"] = {name: [sig(fn), inspect.iscoroutinefunction(fn)]
                         for name, fn in vars(AIOKafkaAdminClient).items()
                         if callable(fn) and (not name.startswith("_") or name == "__init__")}
    out["types"] = {"NewTopic": sig(NewTopic), "NewPartitions": sig(NewPartitions),
                    "RecordsToDelete": sig(RecordsToDelete), "ConfigResource": sig(ConfigResource),
                    "ConfigResourceType": [[m.name, m.value] for m in ConfigResourceType]}
    bad = {}
    for name, make in [("new_topic_both", lambda: NewTopic(TOPIC, 1, 1, {0: [1]})),
                       ("new_topic_neither", lambda: NewTopic(TOPIC, -1, -1)),
                       ("config_resource_kind", lambda: ConfigResource("group", "g"))]:
        try:
            make()
            bad[name] = "ok"
        except Exception as exc:
            bad[name] = type(exc).__name__
    out["bad_types"] = bad

    admin = AIOKafkaAdminClient(bootstrap_servers=BOOTSTRAP, request_timeout_ms=15000)
    await admin.start()
    out["start_again"] = await outcome(admin.start())
    out["create"] = await outcome(admin.create_topics(
        [NewTopic(TOPIC, 2, 1, topic_configs={"retention.ms": "100000"})], timeout_ms=10000))
    dup = await admin.create_topics([NewTopic(TOPIC, 2, 1)])
    out["create_duplicate"] = [[plain(t), code, isinstance(message, str)] for t, code, message in dup.topic_errors]
    out["create_validate_only"] = await outcome(admin.create_topics([NewTopic(f"{PREFIX}-v", 1, 1)],
                                                                    validate_only=True))
    out["create_bad_item"] = await outcome(admin.create_topics([TOPIC]))
    topics = await admin.list_topics()
    out["list_topics"] = [type(topics).__name__, TOPIC in topics]
    out["describe_topics"] = await outcome(admin.describe_topics([TOPIC]))
    out["describe_missing_topic"] = await outcome(admin.describe_topics([f"{PREFIX}-missing"]))
    out["describe_cluster"] = await outcome(admin.describe_cluster())
    described = await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, TOPIC)])
    out["describe_configs"] = {"response": plain(described)[0]["response"],
                               "resources": [r[:1] + r[2:] for r in plain(described)[0]["fields"]["resources"]
                                             for r in [list(r.values())]]}
    out["describe_configs_message"] = [r[1] for r in described[0].resources]
    out["alter_configs"] = await outcome(admin.alter_configs(
        [ConfigResource(ConfigResourceType.TOPIC, TOPIC, {"retention.ms": "200000"})]))
    out["create_partitions"] = await outcome(admin.create_partitions({TOPIC: NewPartitions(4)}))

    producer = AIOKafkaProducer(bootstrap_servers=BOOTSTRAP)
    await producer.start()
    for i in range(5):
        await producer.send_and_wait(TOPIC, b"v%d" % i, partition=0)
    await producer.stop()
    consumer = AIOKafkaConsumer(TOPIC, bootstrap_servers=BOOTSTRAP, group_id=GROUP, auto_offset_reset="earliest",
                                session_timeout_ms=6000, heartbeat_interval_ms=1000)
    await consumer.start()
    seen = 0
    for _ in range(30):
        batch = await consumer.getmany(timeout_ms=1000)
        seen += sum(len(v) for v in batch.values())
        if seen >= 5:
            break
    # Explicit offsets: what the admin client reads back does not depend on the consumer's choice.
    await consumer.commit({TopicPartition(TOPIC, 0): 5})
    out["consumed"] = seen
    groups = await admin.list_consumer_groups()
    out["list_consumer_groups"] = [plain(g) for g in groups if g[0] == GROUP]
    out["find_coordinator"] = await outcome(admin.find_coordinator(GROUP))
    described = await admin.describe_consumer_groups([GROUP])
    out["describe_groups_class"] = type(described[0]).__name__
    out["describe_groups"] = [[g[0], plain(g[1]), g[2], g[3]] for r in described for g in r.groups]
    out["describe_groups_members"] = [len(g[5]) for r in described for g in r.groups]
    parts = [TopicPartition(TOPIC, 0), TopicPartition(TOPIC, 1)]
    out["group_offsets_partitions"] = await outcome(admin.list_consumer_group_offsets(GROUP, partitions=parts))
    out["group_offsets_all"] = await outcome(admin.list_consumer_group_offsets(GROUP))
    await consumer.stop()

    out["bad_delete_records"] = await outcome(admin.delete_records({TopicPartition(TOPIC, 0): 2}))
    out["delete_records"] = await outcome(admin.delete_records({TopicPartition(TOPIC, 0): RecordsToDelete(2)},
                                                               timeout_ms=5000))
    out["delete"] = await outcome(admin.delete_topics([TOPIC]))
    out["delete_again"] = await outcome(admin.delete_topics([TOPIC]))
    await admin.close()
    out["close_again"] = await outcome(admin.close())
    out["after_close"] = await outcome(asyncio.wait_for(admin.list_topics(), 20))
    print(json.dumps(out, sort_keys=True))


asyncio.run(main())
