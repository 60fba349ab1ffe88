"""What a kafka-python program observes of ``KafkaAdminClient`` beyond topics, configs and groups
(and of those again, in kafka-python 3.0's shapes), as JSON on stdout.

Run twice by test_kafka_admin_extras.py: with the real kafka-python (``.bench-venv``), and through
``python -m confluent_kafka.compat run`` so that ``import kafka`` is the facade. Arguments: the
bootstrap servers of a running tansu broker and a fresh name prefix for the topics and groups
this run makes. Values that differ per run (names, ids, ports) are replaced by placeholders.
"""
from __future__ import annotations

import inspect
import json
import re
import sys
import uuid

import kafka.admin as admin_module
from kafka import KafkaAdminClient, KafkaProducer, OffsetAndMetadata, TopicPartition
from kafka.admin import (
    ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, AbortTransactionSpec, AlterConfigOp,
    ConfigResource, ConfigResourceType, ConfigSourceType, ConfigType, GroupState, GroupType, MemberToRemove,
    OffsetSpec, OffsetTimestamp, PartitionProducerState, ProducerState, ResourcePattern, ResourcePatternFilter,
    ResourceType, ScramMechanism, TransactionDescription, TransactionListing, TransactionState, UpdateFeatureType,
    UserScramCredentialDeletion, UserScramCredentialUpsertion)
from kafka.admin import NewPartitions, NewTopic
from kafka.structs import TopicPartitionReplica

BOOTSTRAP, PREFIX = sys.argv[1], sys.argv[2]
TOPIC, OTHER, GROUP = f"{PREFIX}-t", f"{PREFIX}-missing", f"{PREFIX}-g"
TIMEOUT_MS = 10000


def sig(obj, name):
    """The parameters (names, kinds, defaults) without annotations."""
    params = inspect.signature(getattr(obj, name)).parameters.values()
    return str(inspect.Signature([p.replace(annotation=inspect.Parameter.empty) for p in params]))


def stable(value):
    """repr with dict items sorted (kafka-python builds some dicts from sets)."""
    if isinstance(value, dict):
        return "{" + ", ".join(sorted(f"{stable(k)}: {stable(v)}" for k, v in value.items())) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(stable(v) for v in value) + "]"
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return "(" + ", ".join(stable(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def outcome(fn):
    try:
        result = fn()
    except Exception as exc:  # the class is what is compared; the text is our own wording
        return {"raises": type(exc).__name__}
    return {"returns": stable(result)}


def enum_members(cls):
    return [[m.name, m.value] for m in cls]


def surface():
    methods = sorted(n for n, v in vars(KafkaAdminClient).items() if not n.startswith("_") and callable(v))
    for base in KafkaAdminClient.__mro__[1:]:
        methods += [n for n, v in vars(base).items() if not n.startswith("_") and callable(v) and n not in methods]
    methods = sorted(set(methods))
    enums = (ResourceType, ACLOperation, ACLPermissionType, ACLResourcePatternType, AlterConfigOp, ConfigResourceType,
             ConfigSourceType, ConfigType, GroupState, GroupType, OffsetSpec, ScramMechanism, TransactionState,
             UpdateFeatureType, admin_module.ConfigFilterType)
    tuples = (AbortTransactionSpec, PartitionProducerState, ProducerState, TransactionDescription, TransactionListing)
    pattern = ResourcePattern(ResourceType.TOPIC, "t")
    acl = ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
    flt = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                    ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    upsert = UserScramCredentialUpsertion("u", "SCRAM-SHA-256", "pw", salt=b"s" * 24)
    return {
        "all": sorted(admin_module.__all__),
        "methods": methods,
        "signatures": {m: sig(KafkaAdminClient, m) for m in methods},
        "enums": {e.__name__: enum_members(e) for e in enums},
        "tuples": {t.__name__: [list(t._fields), list(t._field_defaults.items())] for t in tuples},
        "values": {
            "pattern": repr(pattern), "acl": repr(acl), "filter": repr(flt),
            "acl_eq": acl == ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW, ResourcePattern(
                ResourceType.TOPIC, "t", ACLResourcePatternType.LITERAL)),
            "acl_hash": hash(acl) == hash(ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
                                              ResourcePattern(ResourceType.TOPIC, "t"))),
            "member": repr(MemberToRemove("m", reason="r")),
            "member_eq": MemberToRemove("m") == MemberToRemove(member_id="m"),
            "offset_ts": repr(OffsetTimestamp(5)), "offset_ts_int": OffsetTimestamp(5) + 1,
            "upsert": repr(upsert), "upsert_salted": upsert.salted_password.hex(), "upsert_iter": upsert.iterations,
            "deletion": repr(UserScramCredentialDeletion("u", 2)),
            "sha512": ScramMechanism.SCRAM_SHA_512.hash_name,
            "config_resource": [repr(ConfigResource("topic", "t", {"a": "b"})), str(ConfigResource("broker", "1"))],
            "new_partitions": [NewPartitions(3).total_count, NewPartitions(3, [[1]]).new_assignments],
            "new_topic": vars(NewTopic("t", 2)),
            "state_from": [GroupState.build_from("stable").value, GroupState.value_for("PREPARING-REBALANCE"),
                           GroupType.build_from("classic").value],
            "source_modified": [s.is_modified() for s in ConfigSourceType],
            "op_value": [AlterConfigOp.value_for("delete"), AlterConfigOp.value_for(3)],
            "filter_skip": [[f.name, [f.should_skip(s) for s in ConfigSourceType]]
                            for f in admin_module.ConfigFilterType],
        },
        "bad_values": {
            "pattern_any": outcome(lambda: ResourcePattern(ResourceType.ANY, "t")),
            "pattern_match": outcome(lambda: ResourcePattern(ResourceType.TOPIC, "t", ACLResourcePatternType.MATCH)),
            "pattern_filter_str": outcome(lambda: ResourcePatternFilter("topic", "t", ACLResourcePatternType.ANY)),
            "acl_any_op": outcome(lambda: ACL("User:a", "*", ACLOperation.ANY, ACLPermissionType.ALLOW, pattern)),
            "acl_any_perm": outcome(lambda: ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ANY, pattern)),
            "acl_filter_pattern": outcome(lambda: ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
                                                      ResourcePatternFilter(ResourceType.ANY, None,
                                                                            ACLResourcePatternType.ANY))),
            "filter_str_op": outcome(lambda: ACLFilter(None, None, "read", ACLPermissionType.ANY, pattern)),
            "filter_bad_pattern": outcome(lambda: ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY, "t")),
            "upsert_unknown": outcome(lambda: UserScramCredentialUpsertion("u", 0, "pw")),
            "upsert_bad_name": outcome(lambda: UserScramCredentialUpsertion("u", "sha1", "pw")),
            "deletion_bad": outcome(lambda: UserScramCredentialDeletion("u", 7)),
            "config_resource_kind": outcome(lambda: ConfigResource("nope", "t")),
            "group_state": outcome(lambda: GroupState.build_from("nope")),
            "op_value": outcome(lambda: AlterConfigOp.value_for("nope")),
            "unknown_hash": outcome(lambda: ScramMechanism.UNKNOWN.hash_name),
        },
    }


def shape_topic(t):
    """A describe_topics/describe_topic_partitions entry without the per-run topic id, and with
    the partitions' leader epochs apart (``epochs``): librdkafka does not report them."""
    t = dict(t)
    if t.get("topic_id") is not None:
        t["topic_id"] = "<id:%s>" % type(t["topic_id"]).__name__
    t["partitions"] = [dict(p) for p in t["partitions"]]
    epochs = [p.pop("leader_epoch") for p in t["partitions"]]
    return t, epochs


def shape_topics(topics):
    shaped = [shape_topic(t) for t in topics]
    return [t for t, _ in shaped], [e for _, e in shaped]


def broker_calls(client, producer):
    tp0, tp1, tp9 = TopicPartition(TOPIC, 0), TopicPartition(TOPIC, 1), TopicPartition(OTHER, 0)
    pattern = ResourcePattern(ResourceType.TOPIC, TOPIC)
    acl = ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
    everything = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                           ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    obs = {}
    created = client.create_topics({TOPIC: {"num_partitions": 2, "replication_factor": 1}})
    obs["create_topics"] = [dict(t, topic_id=t["topic_id"] and "<id>") for t in created["topics"]]
    again = client.create_topics([TOPIC], raise_errors=False)["topics"]
    obs["create_again"] = [[t["name"], t["error_code"], t["topic_id"]] for t in again]
    obs["create_again_raises"] = outcome(lambda: client.create_topics([NewTopic(TOPIC, 2, 1)]))
    obs["create_bad"] = {
        "empty": outcome(lambda: client.create_topics([])),
        "mixed": outcome(lambda: client.create_topics([TOPIC, NewTopic(OTHER)])),
        "validate_and_wait": outcome(lambda: client.create_topics([OTHER], validate_only=True,
                                                                  wait_for_metadata=True)),
    }
    obs["wait_for_topics"] = outcome(lambda: client.wait_for_topics([TOPIC]))
    obs["wait_for_missing"] = outcome(lambda: client.wait_for_topics([OTHER], timeout_ms=300))
    obs["describe_topics"], obs["describe_topics_epochs"] = shape_topics(client.describe_topics([TOPIC, OTHER]))
    topic_id = uuid.UUID(created["topics"][0]["topic_id"])
    obs["describe_topics_by_id"] = outcome(lambda: [t["name"] for t in client.describe_topics([topic_id])])
    obs["create_with_configs"] = outcome(lambda: [t["error_code"] for t in client.create_topics(
        [NewTopic(f"{PREFIX}-c", 1, 1, topic_configs={"retention.ms": "1000"})], wait_for_metadata=True)["topics"]])
    described = client.describe_configs([ConfigResource("topic", f"{PREFIX}-c")], include_synonyms=True,
                                        config_filter="all")["topic"][f"{PREFIX}-c"]
    obs["describe_configs_set"] = {k: {f: v for f, v in c.items() if f not in ("config_type", "documentation")}
                                   for k, c in described.items()}
    obs["describe_configs_set_type"] = {k: [c["config_type"], c["documentation"]] for k, c in described.items()}
    obs["delete_by_id"] = outcome(lambda: [[t["error_code"], t["topic_id"] is not None] for t in client.delete_topics(
        [uuid.UUID(client.describe_topics([f"{PREFIX}-c"])[0]["topic_id"])])["topics"]])
    pages = client.describe_topic_partitions([TOPIC, OTHER])
    topics, obs["describe_topic_partitions_epochs"] = shape_topics(pages["topics"])
    obs["describe_topic_partitions"] = {"topics": topics, "next_cursor": pages["next_cursor"]}
    cluster = client.describe_cluster()
    for b in cluster["brokers"]:
        b["port"] = "<port>"
    obs["describe_cluster"] = cluster

    for value in (b"a", b"b", b"c"):
        producer.send(TOPIC, value, partition=0).get(timeout=30)
    obs["list_partition_offsets"] = {
        "earliest_latest": outcome(lambda: {repr(k): [v.offset, v.leader_epoch]
                                            for k, v in client.list_partition_offsets(
            {tp0: OffsetSpec.EARLIEST, tp1: OffsetSpec.LATEST}).items()}),
        "read_committed": outcome(lambda: {repr(k): v.offset for k, v in client.list_partition_offsets(
            {tp1: OffsetSpec.LATEST}, isolation_level="read_committed").items()}),
        "empty": outcome(lambda: client.list_partition_offsets({})),
        "str_spec": outcome(lambda: client.list_partition_offsets({tp0: "latest"})),
        "bad_spec": outcome(lambda: client.list_partition_offsets({tp0: -9})),
        "bad_level": outcome(lambda: client.list_partition_offsets({tp0: OffsetSpec.LATEST}, isolation_level="x")),
        "timestamp": outcome(lambda: {repr(k): v.offset for k, v in client.list_partition_offsets(
            {tp1: OffsetTimestamp(0), tp0: 0}).items()}),
        "unknown_partition": outcome(lambda: client.list_partition_offsets({TopicPartition(TOPIC, 9): -1})),
    }

    obs["alter_group_offsets"] = outcome(lambda: client.alter_group_offsets(
        GROUP, {tp0: OffsetAndMetadata(2, "m", -1)}))
    obs["alter_group_offsets_empty"] = outcome(lambda: client.alter_group_offsets(GROUP, {}))
    obs["list_group_offsets"] = outcome(lambda: client.list_group_offsets(GROUP))
    obs["list_group_offsets_parts"] = outcome(lambda: client.list_group_offsets({GROUP: [tp0, tp1]}))
    obs["list_group_offsets_list"] = outcome(lambda: client.list_group_offsets([GROUP]))
    obs["list_group_offsets_missing"] = outcome(lambda: client.list_group_offsets(f"{GROUP}-missing"))
    obs["list_group_offsets_empty"] = outcome(lambda: client.list_group_offsets({}))
    obs["reset_group_offsets"] = outcome(lambda: client.reset_group_offsets(
        GROUP, {tp0: OffsetSpec.EARLIEST, tp1: 5}))
    obs["reset_group_offsets_latest"] = outcome(lambda: client.reset_group_offsets(GROUP, {tp0: OffsetSpec.LATEST}))
    obs["reset_group_offsets_bad"] = outcome(lambda: client.reset_group_offsets(GROUP, {tp0: "x"}))
    obs["reset_group_offsets_empty"] = outcome(lambda: client.reset_group_offsets(GROUP, {}))
    obs["list_group_offsets_after"] = outcome(lambda: client.list_group_offsets(GROUP))
    obs["list_groups"] = [g for g in client.list_groups() if g["group_id"] == GROUP]
    obs["list_groups_bad_state"] = outcome(lambda: client.list_groups(states_filter=["nope"]))
    obs["list_groups_bad_type"] = outcome(lambda: client.list_groups(types_filter=["nope"]))
    obs["list_groups_filtered"] = outcome(lambda: [g for g in client.list_groups(
        states_filter=[GroupState.EMPTY, "Stable"], types_filter=["classic"]) if g["group_id"] == GROUP])
    obs["delete_group_offsets_empty"] = outcome(lambda: client.delete_group_offsets(GROUP, []))
    obs["delete_group_offsets"] = outcome(lambda: client.delete_group_offsets(GROUP, [tp0]))
    obs["remove_group_members_empty"] = outcome(lambda: client.remove_group_members(GROUP, []))
    obs["delete_groups"] = outcome(lambda: client.delete_groups([GROUP, f"{GROUP}-missing"]))

    topic_res = ConfigResource("topic", TOPIC)
    obs["configs"] = {
        "describe_modified": outcome(lambda: client.describe_configs([topic_res])),
        "describe_all_keys": outcome(lambda: sorted(client.describe_configs(
            [topic_res], config_filter="all")["topic"][TOPIC])),
        "describe_named": outcome(lambda: client.describe_configs([ConfigResource("topic", TOPIC, [])])),
        "describe_broker": outcome(lambda: client.describe_configs([ConfigResource("broker", "111")])),
        "describe_missing": outcome(lambda: client.describe_configs([ConfigResource("topic", OTHER)])),
        "describe_bad_broker": outcome(lambda: client.describe_configs([ConfigResource("broker", "abc")])),
        "describe_bad_filter": outcome(lambda: client.describe_configs([topic_res], config_filter="sometimes")),
        "alter_unknown": outcome(lambda: client.alter_configs([ConfigResource("topic", TOPIC, {"x.y": "1"})])),
        "alter": outcome(lambda: client.alter_configs([ConfigResource("topic", TOPIC, {"retention.ms": "3600000"})],
                                                      raise_on_unknown=False)),
        "alter_tuple": outcome(lambda: client.alter_configs(
            [ConfigResource("topic", TOPIC, {"retention.ms": (AlterConfigOp.SET, "7200000")})],
            raise_on_unknown=False)),
        "alter_bad_op": outcome(lambda: client.alter_configs(
            [ConfigResource("topic", TOPIC, {"retention.ms": ("NOPE", "1")})], raise_on_unknown=False)),
        "alter_old_api": outcome(lambda: client.alter_configs(
            [ConfigResource("topic", TOPIC, {"retention.ms": "1"})], raise_on_unknown=False, incremental=False)),
        "alter_old_api_delete": outcome(lambda: client.alter_configs(
            [ConfigResource("topic", TOPIC, {"retention.ms": ("DELETE", None)})], raise_on_unknown=False,
            incremental=False)),
        "alter_not_dict": outcome(lambda: client.alter_configs([ConfigResource("topic", TOPIC, ["retention.ms"])],
                                                               raise_on_unknown=False)),
        "reset_unknown": outcome(lambda: client.reset_configs([ConfigResource("topic", TOPIC, ["retention.ms"])])),
        "reset": outcome(lambda: client.reset_configs([ConfigResource("topic", TOPIC, ["retention.ms"])],
                                                      raise_on_unknown=False)),
        "list_config_resources": outcome(lambda: client.list_config_resources()),
        "list_config_resources_bad": outcome(lambda: client.list_config_resources(["nope"])),
    }

    obs["acls"] = {
        "describe": outcome(lambda: client.describe_acls(everything)),
        "create_filter": outcome(lambda: client.create_acls([everything])),
        "delete_acl_str": outcome(lambda: client.delete_acls(["x"])),
        "delete": outcome(lambda: client.delete_acls([everything])),
    }
    obs["unsupported_on_tansu"] = {
        "create_partitions": outcome(lambda: client.create_partitions({TOPIC: 3})),
        "create_partitions_old": outcome(lambda: client.create_partitions({TOPIC: NewPartitions(3)})),
        "elect_leaders": outcome(lambda: client.elect_leaders(0, {TOPIC: [0]})),
        "elect_leaders_topics": outcome(lambda: client.elect_leaders(1, [TOPIC])),
        "create_partitions_dict": outcome(lambda: client.create_partitions(
            {TOPIC: {"count": 3, "assignments": [[111]]}})),
        "create_partitions_no_count": outcome(lambda: client.create_partitions({TOPIC: {"assignments": []}})),
        "elect_leaders_bad": outcome(lambda: client.elect_leaders(7, {TOPIC: [0]})),
        "alter_partition_reassignments": outcome(lambda: client.alter_partition_reassignments({tp0: [111]})),
        "alter_partition_reassignments_empty": outcome(lambda: client.alter_partition_reassignments({tp0: []})),
        "alter_partition_reassignments_str": outcome(lambda: client.alter_partition_reassignments({tp0: ["a"]})),
        "describe_log_dirs": outcome(lambda: client.describe_log_dirs()),
        "describe_log_dirs_dict": outcome(lambda: client.describe_log_dirs({TOPIC: [0]})),
        "alter_replica_log_dirs_empty": outcome(lambda: client.alter_replica_log_dirs({})),
        "alter_replica_log_dirs": outcome(lambda: client.alter_replica_log_dirs(
            {TopicPartitionReplica(TOPIC, 0, 111): "/tmp"})),
        "describe_metadata_quorum": outcome(lambda: client.describe_metadata_quorum()),
        "update_features": outcome(lambda: client.update_features({"f": 1})),
        "update_features_bad": outcome(lambda: client.update_features(["f"])),
        "list_transactions": outcome(lambda: client.list_transactions()),
        "describe_transactions": outcome(lambda: client.describe_transactions(["x"])),
        "describe_transactions_empty": outcome(lambda: client.describe_transactions([])),
        "describe_producers": outcome(lambda: client.describe_producers([tp0])),
        "describe_producers_empty": outcome(lambda: client.describe_producers([])),
        "abort_transaction": outcome(lambda: client.abort_transaction(AbortTransactionSpec(tp0, 1, 0))),
        "find_hanging_transactions": outcome(lambda: client.find_hanging_transactions()),
    }
    obs["scram"] = {
        "alter_bad": outcome(lambda: client.alter_user_scram_credentials(["x"])),
        "alter": outcome(lambda: client.alter_user_scram_credentials(
            [UserScramCredentialUpsertion(f"{PREFIX}-u", ScramMechanism.SCRAM_SHA_256, "pw")])),
    }
    # What kafka-python can do on tansu and the facade cannot (test_kafka_admin_extras.GAPS says why).
    obs["gaps"] = {
        "list_partition_reassignments": outcome(lambda: client.list_partition_reassignments({TOPIC: [0]})),
        "remove_group_members": outcome(lambda: client.remove_group_members(GROUP, [MemberToRemove("m")])),
        "api_versions": outcome(lambda: type(client.api_versions()).__name__),
        "get_broker_version_data": outcome(lambda: client.get_broker_version_data(111) is not None),
        "describe_features": outcome(lambda: client.describe_features()),
        "describe_groups": outcome(lambda: sorted(client.describe_groups([GROUP])[GROUP])),
    }
    # Last: tansu drops the connection on DeleteRecords (a broker thread panics; the broker lives on).
    obs["delete_records_empty"] = outcome(lambda: client.delete_records({}))
    obs["delete_records"] = outcome(lambda: client.delete_records({tp0: 1}))
    deleted = client.delete_topics([TOPIC, OTHER], raise_errors=False)["topics"]
    obs["delete_topics"] = [[t["name"], t["error_code"]] for t in deleted]
    obs["delete_topics_raises"] = outcome(lambda: client.delete_topics([OTHER]))
    return obs


def main() -> None:
    obs = {"surface": surface()}
    client = KafkaAdminClient(bootstrap_servers=BOOTSTRAP, request_timeout_ms=TIMEOUT_MS)
    producer = KafkaProducer(bootstrap_servers=BOOTSTRAP)
    try:
        obs["broker"] = broker_calls(client, producer)
    finally:
        producer.close()
    client.close()
    obs["closed"] = {"close_twice": outcome(client.close), "list_topics": outcome(client.list_topics)}
    text = json.dumps(obs, indent=1, sort_keys=True, default=repr)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    # the facade's classes live in confluent_kafka.compat.kafka.*, imported as kafka.*
    print(text.replace(PREFIX, "PREFIX").replace("confluent_kafka.compat.kafka.", "kafka."))


if __name__ == "__main__":
    main()
