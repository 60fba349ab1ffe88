"""AdminClient against the tansu broker: a topic's life (create, describe, list offsets, alter
and describe configs, add partitions, delete records, delete) and the cluster and group calls,
with the result objects compared field by field. Each side works on its own uniquely named
topic; names and ids that differ per side are normalised before comparing."""
from __future__ import annotations

import enum
import os
import uuid
import warnings
from typing import Any, Callable

from observe import raised

from confluent_kafka import (
    ConsumerGroupState,
    ConsumerGroupTopicPartitions,
    IsolationLevel,
    KafkaError,
    KafkaException,
    Producer,
    TopicCollection,
    TopicPartition,
)
from confluent_kafka.admin import (
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewPartitions,
    NewTopic,
    OffsetSpec,
    ResourcePatternType,
    ResourceType,
)

NEEDS_BROKER = True

warnings.simplefilter("ignore", DeprecationWarning)

TIMEOUT = 15.0
_NAMES: dict[str, str] = {}


def _admin() -> AdminClient:
    return AdminClient({"bootstrap.servers": os.environ["COMPAT_BOOTSTRAP"], "log_level": 0,
                        "socket.timeout.ms": 10000})


def _name(role: str) -> str:
    """A name unique to this run, shown as ``<role>`` in observations."""
    if role not in _NAMES:
        _NAMES[role] = f"compat-admin-{role}-{uuid.uuid4().hex[:12]}"
    return _NAMES[role]


def _norm(text: str) -> str:
    for role, name in _NAMES.items():
        text = text.replace(name, f"<{role}>")
    return text


def _see(value: Any, depth: int = 0) -> Any:
    """A result as data: objects by type and attributes, names of this run normalised, ids and
    timestamps by kind only."""
    from confluent_kafka import Uuid

    if depth > 8:
        return "..."
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return _norm(value)
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, Uuid):
        return {"Uuid": len(str(value))}
    if isinstance(value, KafkaError):
        return {"KafkaError": value.name(), "retriable": value.retriable()}
    if isinstance(value, KafkaException):
        return {"KafkaException": _see(value.args[0], depth + 1) if value.args else None}
    if isinstance(value, TopicPartition):
        return {"TopicPartition": [_norm(value.topic), value.partition, value.offset, _see(value.error, depth + 1)]}
    if isinstance(value, (list, tuple)):
        return [_see(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return sorted(([_see(k, depth + 1), _see(v, depth + 1)] for k, v in value.items()), key=repr)
    if hasattr(value, "__dict__"):
        seen = {k: _see(v, depth + 1) for k, v in sorted(vars(value).items())}
        if type(value).__name__ == "ListOffsetsResultInfo" and isinstance(value.timestamp, int):
            seen["timestamp"] = "-1" if value.timestamp == -1 else "set" if value.timestamp > 0 else value.timestamp
        return {"type": type(value).__name__, **seen}
    return {"object": type(value).__name__}


def _wait(fut: Any) -> Any:
    try:
        return {"result": _see(fut.result(timeout=TIMEOUT))}
    except Exception as exc:  # noqa: BLE001 - the failure is the observation
        return {"failed": _see(exc) if isinstance(exc, KafkaException) else raised(exc)}


def _futmap(futures: Any) -> Any:
    if not isinstance(futures, dict):
        return {"not a dict": type(futures).__name__}
    return sorted(([_see(k), _wait(f)] for k, f in futures.items()), key=repr)


def _call(fn: Callable[[], Any]) -> Any:
    try:
        return {"ok": fn()}
    except Exception as exc:  # noqa: BLE001
        return {"raised": _see(exc) if isinstance(exc, KafkaException) else raised(exc)}


def scenario_topic_lifecycle() -> Any:
    a = _admin()
    topic = _name("topic")
    out: dict[str, Any] = {}
    out["create"] = _futmap(a.create_topics([NewTopic(topic, 2, 1, config={"retention.ms": 86400000})],
                                            operation_timeout=TIMEOUT, request_timeout=TIMEOUT))
    out["create_again"] = _futmap(a.create_topics([NewTopic(topic, 2, 1)], request_timeout=TIMEOUT))
    out["create_validate_only"] = _futmap(a.create_topics([NewTopic(_name("never"), 1, 1)], validate_only=True,
                                                          request_timeout=TIMEOUT))
    desc = a.describe_topics(TopicCollection([topic]), request_timeout=TIMEOUT)
    out["describe"] = _futmap(desc)
    out["describe_missing"] = _futmap(a.describe_topics(TopicCollection([_name("missing")]),
                                                        request_timeout=TIMEOUT))
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    p = Producer({"bootstrap.servers": os.environ["COMPAT_BOOTSTRAP"], "log_level": 0})
    for i in range(3):
        p.produce(topic, b"v%d" % i, partition=0, timestamp=1_700_000_000_000 + i)
    p.flush(TIMEOUT)
    out["list_offsets"] = _futmap(a.list_offsets({tp0: OffsetSpec.earliest(), tp1: OffsetSpec.latest()},
                                                 request_timeout=TIMEOUT))
    out["list_offsets_latest_committed"] = _futmap(a.list_offsets({tp0: OffsetSpec.latest()},
                                                                  isolation_level=IsolationLevel.READ_COMMITTED,
                                                                  request_timeout=TIMEOUT))
    out["list_offsets_timestamp"] = _futmap(a.list_offsets({tp0: OffsetSpec.for_timestamp(1_700_000_000_001)},
                                                           request_timeout=TIMEOUT))
    res = ConfigResource(ResourceType.TOPIC, topic)
    res.add_incremental_config(ConfigEntry("retention.ms", "3600000", incremental_operation=AlterConfigOpType.SET))
    out["incremental_alter"] = _futmap(a.incremental_alter_configs([res], request_timeout=TIMEOUT))
    described = a.describe_configs([ConfigResource("topic", topic)], request_timeout=TIMEOUT)
    configs = list(described.values())[0].result(timeout=TIMEOUT)
    out["describe_configs_keys"] = _see(list(described))
    out["describe_configs_retention"] = _see(configs.get("retention.ms"))
    out["describe_configs_count_type"] = type(configs).__name__
    out["alter_configs"] = _futmap(a.alter_configs([ConfigResource("topic", topic,
                                                                   set_config={"retention.ms": 7200000})],
                                                   request_timeout=TIMEOUT))
    again = list(a.describe_configs([ConfigResource("topic", topic)], request_timeout=TIMEOUT).values())[0]
    out["retention_after_alter"] = _see(again.result(timeout=TIMEOUT).get("retention.ms"))
    out["create_partitions"] = _futmap(a.create_partitions([NewPartitions(topic, 3)], request_timeout=TIMEOUT,
                                                           operation_timeout=TIMEOUT))
    out["create_partitions_fewer"] = _futmap(a.create_partitions([NewPartitions(topic, 1)], request_timeout=TIMEOUT))
    out["partitions_after"] = _see(len(a.list_topics(topic, timeout=TIMEOUT).topics[topic].partitions))
    out["delete_records"] = _futmap(a.delete_records([TopicPartition(topic, 0, 1)], request_timeout=TIMEOUT))
    out["delete"] = _futmap(a.delete_topics([topic], operation_timeout=TIMEOUT, request_timeout=TIMEOUT))
    out["delete_again"] = _futmap(a.delete_topics([topic], request_timeout=TIMEOUT))
    return out


def scenario_cluster() -> Any:
    a = _admin()
    out: dict[str, Any] = {}
    out["describe_cluster"] = _wait(a.describe_cluster(request_timeout=TIMEOUT))
    out["describe_cluster_ops"] = _wait(a.describe_cluster(include_authorized_operations=True,
                                                           request_timeout=TIMEOUT))
    out["cluster_id_type"] = _call(lambda: type(a.cluster_id(timeout=TIMEOUT)).__name__)
    out["len_type"] = type(len(a)).__name__
    md = a.list_topics(timeout=TIMEOUT)
    out["list_topics"] = {"type": type(md).__name__, "brokers": sorted(str(b) for b in md.brokers.values()),
                          "controller": md.controller_id, "cluster_id_is_str": isinstance(md.cluster_id, str)}
    return out


def scenario_groups() -> Any:
    a = _admin()
    group = _name("group")
    out: dict[str, Any] = {}
    lcg = a.list_consumer_groups(request_timeout=TIMEOUT, states={ConsumerGroupState.STABLE})
    result = lcg.result(timeout=TIMEOUT)
    out["list_consumer_groups"] = {"type": type(result).__name__, "valid_type": type(result.valid).__name__,
                                   "errors": _see(result.errors),
                                   "ours_listed": [g.group_id for g in result.valid or [] if g.group_id == group]}
    out["describe_missing_group"] = _futmap(a.describe_consumer_groups([group], request_timeout=TIMEOUT))
    out["list_offsets_missing_group"] = _futmap(a.list_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(group)], request_timeout=TIMEOUT))
    out["delete_missing_group"] = _futmap(a.delete_consumer_groups([group], request_timeout=TIMEOUT))
    out["list_groups"] = _call(lambda: [g for g in a.list_groups(timeout=TIMEOUT) if g.id == group])
    return out


def scenario_group_offsets() -> Any:
    a = _admin()
    topic, group = _name("otopic"), _name("ogroup")
    out: dict[str, Any] = {}
    out["create"] = _futmap(a.create_topics([NewTopic(topic, 1, 1)], operation_timeout=TIMEOUT,
                                            request_timeout=TIMEOUT))
    out["alter"] = _futmap(a.alter_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 0, 0)])], request_timeout=TIMEOUT))
    out["list"] = _futmap(a.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)],
                                                        request_timeout=TIMEOUT))
    out["list_partition"] = _futmap(a.list_consumer_group_offsets(
        [ConsumerGroupTopicPartitions(group, [TopicPartition(topic, 0)])], require_stable=True,
        request_timeout=TIMEOUT))
    out["describe"] = _futmap(a.describe_consumer_groups([group], request_timeout=TIMEOUT))
    out["delete_topic"] = _futmap(a.delete_topics([topic], request_timeout=TIMEOUT))
    return out


def scenario_acls_and_scram() -> Any:
    """What the broker says to the ACL and SCRAM calls (tansu may not implement them)."""
    a = _admin()
    flt = AclBindingFilter(ResourceType.ANY, None, ResourcePatternType.ANY, None, None, AclOperation.ANY,
                           AclPermissionType.ANY)
    return {"describe_acls": _wait(a.describe_acls(flt, request_timeout=TIMEOUT)),
            "describe_scram": _wait(a.describe_user_scram_credentials(request_timeout=TIMEOUT))}


def scenario_config_values_and_broker_configs() -> Any:
    """NewTopic config values of other types are sent as their str(); a broker's configuration
    with its synonyms."""
    a = _admin()
    topic = _name("ctopic")
    out: dict[str, Any] = {}
    out["create"] = _futmap(a.create_topics([NewTopic(topic, 1, 1, config={"retention.ms": 1000,
                                                                          "cleanup.policy": "compact"})],
                                            operation_timeout=TIMEOUT, request_timeout=TIMEOUT))
    configs = list(a.describe_configs([ConfigResource("topic", topic)], request_timeout=TIMEOUT).values())[0]
    entries = configs.result(timeout=TIMEOUT)
    out["retention"] = _see(entries.get("retention.ms"))
    out["cleanup"] = _see(entries.get("cleanup.policy"))
    out["entry_types"] = sorted({type(e).__name__ for e in entries.values()})
    md = a.list_topics(timeout=TIMEOUT)
    broker = str(next(iter(md.brokers)))
    bconf = list(a.describe_configs([ConfigResource(ResourceType.BROKER, broker)], request_timeout=TIMEOUT).values())
    out["broker"] = _wait(bconf[0])
    out["delete"] = _futmap(a.delete_topics([topic], request_timeout=TIMEOUT))
    out["describe_topic_ops"] = _futmap(a.describe_topics(TopicCollection([_name("nosuch")]),
                                                          include_authorized_operations=True,
                                                          request_timeout=TIMEOUT))
    return out


def scenario_list_offsets_max_timestamp() -> Any:
    a = _admin()
    topic = _name("mtopic")
    out: dict[str, Any] = {"create": _futmap(a.create_topics([NewTopic(topic, 1, 1)], operation_timeout=TIMEOUT,
                                                             request_timeout=TIMEOUT))}
    tp = TopicPartition(topic, 0)
    out["empty_max"] = _futmap(a.list_offsets({tp: OffsetSpec.max_timestamp()}, request_timeout=TIMEOUT))
    out["missing_partition"] = _futmap(a.list_offsets({TopicPartition(topic, 5): OffsetSpec.latest()},
                                                      request_timeout=TIMEOUT))
    out["delete"] = _futmap(a.delete_topics([topic], request_timeout=TIMEOUT))
    return out
