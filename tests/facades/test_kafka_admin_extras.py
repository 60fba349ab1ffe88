"""KafkaAdminClient of the kafka-python facade beyond topics, configs and groups: partitions,
offsets, records, ACLs, the cluster, SCRAM users, transactions, and kafka-python 3.0's result
shapes.

* ``test_admin_matches_kafka_python``: admin_extras_probe.py runs on tansu under the real
  kafka-python and under the facade; every observation must agree except GAPS (what librdkafka
  cannot do, or where kafka-python trips over tansu), each with its reason.
* The other tests check the facade alone: on tansu, on librdkafka's mock cluster (which serves
  offsets and group offsets), and, for what neither broker can serve (creating ACLs, electing
  leaders, adding partitions, deleting records: tansu lacks or breaks on those APIs and the mock
  cluster has no controller), against a stand-in for the native admin client that answers with
  the native result types, so that the mapping to kafka-python's shapes is still checked.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
import uuid
from typing import Any, Dict

import pytest

import confluent_kafka as ck
import confluent_kafka.admin as native
from confluent_kafka.compat.kafka import OffsetAndMetadata, TopicPartition
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka.admin import (
    ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, AlterConfigOp, ConfigResource,
    GroupState, KafkaAdminClient, MemberToRemove, NewPartitions, OffsetSpec, OffsetTimestamp, ResourcePattern,
    ResourcePatternFilter, ResourceType, ScramMechanism, UserScramCredentialDeletion, UserScramCredentialUpsertion)

HERE = pathlib.Path(__file__).resolve().parent
PROBE = HERE / "admin_extras_probe.py"

# What differs between kafka-python on tansu and the facade on tansu, and why.
GAPS = {
    # librdkafka reports neither a partition's leader epoch in topic metadata nor a config's type
    # and documentation: the facade gives -1, 'UNKNOWN' and None.
    "broker.describe_topics_epochs": "librdkafka's metadata has no leader epochs",
    "broker.describe_topic_partitions_epochs": "librdkafka's metadata has no leader epochs",
    "broker.describe_configs_set_type.retention.ms": "librdkafka's DescribeConfigs has no type or documentation",
    # No librdkafka API: the facade raises IncompatibleBrokerVersion (as kafka-python does for a
    # broker without the API), NotImplementedError for the client's own API version table.
    "broker.gaps.list_partition_reassignments": "librdkafka has no ListPartitionReassignments API",
    "broker.gaps.remove_group_members": "librdkafka has no admin LeaveGroup API",
    "broker.gaps.describe_features": "librdkafka does not expose ApiVersions' features",
    "broker.gaps.api_versions": "librdkafka does not expose negotiated API versions",
    "broker.gaps.get_broker_version_data": "librdkafka does not expose negotiated API versions",
    # kafka-python 3.0.12 fails on tansu's DescribeGroups answer (ValueError: 15 is not a valid
    # ACLOperation: it reads the authorized-operations bit field as operation numbers).
    "broker.gaps.describe_groups": "kafka-python cannot read tansu's authorized operations",
}
# The facade keeps kafka-python 2's list_consumer_group_offsets for programs written for it.
FACADE_ONLY_METHOD = "list_consumer_group_offsets"


def _run(cmd: list, env: dict) -> Any:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd=str(HERE))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _flatten(value: Any, prefix: str = "") -> Dict[str, Any]:
    if isinstance(value, dict) and value and "raises" not in value and "returns" not in value:
        out: Dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: value}


def test_admin_matches_kafka_python(kafka_bootstrap: str, peer_python: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    real = _run([peer_python, str(PROBE), kafka_bootstrap, f"ax{uuid.uuid4().hex[:10]}"], env)
    env["PYTHONPATH"] = str(HERE.parents[1] / "src")
    ours = _run([sys.executable, "-m", "confluent_kafka.compat", "run", str(PROBE), kafka_bootstrap,
                 f"ax{uuid.uuid4().hex[:10]}"], env)
    # the facade's one extra method, checked and then left out of the comparison
    assert FACADE_ONLY_METHOD in ours["surface"]["methods"] and FACADE_ONLY_METHOD not in real["surface"]["methods"]
    ours["surface"]["methods"].remove(FACADE_ONLY_METHOD)
    del ours["surface"]["signatures"][FACADE_ONLY_METHOD]
    flat_real, flat_ours = _flatten(real), _flatten(ours)
    assert set(flat_real) == set(flat_ours), set(flat_real) ^ set(flat_ours)
    differ = sorted(k for k in flat_real if flat_real[k] != flat_ours[k] and k not in GAPS)
    assert not differ, "\n".join(f"{k}: kafka-python {flat_real[k]!r} / facade {flat_ours[k]!r}" for k in differ)
    still = [k for k in GAPS if flat_real[k] == flat_ours[k]]
    assert not still, f"no longer different, drop from GAPS: {still}"
    assert len(flat_real) > 200
    # the facade answers each gap with kafka-python's error for a missing API, or NotImplementedError
    for key in ("list_partition_reassignments", "remove_group_members", "describe_features"):
        assert flat_ours[f"broker.gaps.{key}"] == {"raises": "IncompatibleBrokerVersion"}
    assert flat_ours["broker.gaps.api_versions"] == {"raises": "NotImplementedError"}


# ---- the facade on tansu --------------------------------------------------------------------

@pytest.fixture
def client(kafka_bootstrap: str) -> Any:
    c = KafkaAdminClient(bootstrap_servers=kafka_bootstrap, request_timeout_ms=10000)
    yield c
    c.close()


def test_topic_partition_pages(client: KafkaAdminClient, facade_topic: Any) -> None:
    a, b = facade_topic(3), facade_topic(2)
    missing = f"missing-{uuid.uuid4().hex[:8]}"
    whole = client.describe_topic_partitions([a, missing, b])
    assert [t["name"] for t in whole["topics"]] == [a, missing, b] and whole["next_cursor"] is None
    assert [t["error_code"] for t in whole["topics"]] == [0, 3, 0]
    assert isinstance(whole["topics"][0]["topic_id"], uuid.UUID)
    assert whole["topics"][0]["topic_id"] == uuid.UUID(client.describe_topics([a])[0]["topic_id"])
    # two partitions a page: a[0..1], then a[2] and b[0] (missing has none), then b[1]
    seen, cursor, pages = [], None, 0
    while True:
        page = client.describe_topic_partitions([a, missing, b], response_partition_limit=2, cursor=cursor)
        pages += 1
        seen += [(t["name"], p["partition_index"]) for t in page["topics"] for p in t["partitions"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [(a, 0), (a, 1), (a, 2), (b, 0), (b, 1)] and pages == 3
    first = client.describe_topic_partitions([a, b], response_partition_limit=2)
    assert first["next_cursor"] == {"topic_name": a, "partition_index": 2}


def test_topics_by_id_and_empty(client: KafkaAdminClient, facade_topic: Any) -> None:
    name = facade_topic(1)
    tid = uuid.UUID(client.describe_topics([name])[0]["topic_id"])
    unknown = uuid.uuid4()
    described = client.describe_topics([tid, unknown])
    assert described[0]["name"] == name and described[0]["topic_id"] == str(tid)
    assert described[1] == {"error_code": 100, "name": None, "topic_id": str(unknown), "is_internal": False,
                            "partitions": [], "authorized_operations": None}
    assert client.describe_topics([]) == []
    with pytest.raises(Errors.UnknownTopicIdError):
        client.delete_topics([unknown])
    assert client.delete_topics([unknown], raise_errors=False)["topics"][0]["error_code"] == 100
    assert name in client.list_topics()


def test_groups_on_tansu(client: KafkaAdminClient, facade_topic: Any, kafka_bootstrap: str) -> None:
    topic = facade_topic(2)
    group = f"ax-g-{uuid.uuid4().hex[:8]}"
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    assert client.alter_group_offsets(group, {tp0: OffsetAndMetadata(0, "meta", None)}) == {tp0: Errors.NoError}
    described = client.describe_groups([group])[group]
    assert list(described) == ["group_id", "group_state", "protocol_type", "protocol_data", "members",
                               "authorized_operations", "error"]
    assert described["group_id"] == group and described["error"] is None
    assert described["group_state"] in {s.value for s in GroupState}
    # offsets for a timestamp: the first record at or after it (tansu answers 0 for an empty log)
    assert client.list_partition_offsets({tp1: OffsetTimestamp(0)})[tp1].offset == 0
    assert client.reset_group_offsets(group, {tp0: OffsetSpec.LATEST, tp1: OffsetTimestamp(0)}) == {
        tp0: {"error": Errors.NoError, "offset": 0}, tp1: {"error": Errors.NoError, "offset": 0}}
    assert client.list_group_offsets({group: [tp0, tp1]})[group] == {
        tp0: OffsetAndMetadata(0, None, -1), tp1: OffsetAndMetadata(0, None, -1)}
    with pytest.raises(Errors.IncompatibleBrokerVersion):
        client.remove_group_members(group, [MemberToRemove(group_instance_id="i")])
    assert client.delete_groups([group]) == {group: "OK"}


def test_scram_on_tansu(client: KafkaAdminClient) -> None:
    user = f"ax-u-{uuid.uuid4().hex[:8]}"
    upsert = UserScramCredentialUpsertion(user, ScramMechanism.SCRAM_SHA_512, b"secret", iterations=8192)
    assert client.alter_user_scram_credentials([upsert]) == {user: None}
    # tansu acknowledges but keeps no credentials, and its answer about a user is empty: the
    # facade returns the entries the broker sent (none), as kafka-python would
    assert client.describe_user_scram_credentials([user]) == {}
    assert client.describe_user_scram_credentials() == {}
    assert client.describe_user_scram_credentials([]) == {}
    deletion = UserScramCredentialDeletion(user, "SCRAM-SHA-512")
    assert set(client.alter_user_scram_credentials([deletion])) == {user}


def test_closed_client_refuses_every_call(kafka_bootstrap: str) -> None:
    c = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    c.close()
    for call in (c.describe_cluster, c.list_transactions, lambda: c.describe_acls(None),
                 lambda: c.delete_records({}), lambda: c.list_partition_offsets({})):
        with pytest.raises(RuntimeError):
            call()


# ---- the facade on librdkafka's mock cluster ------------------------------------------------

def test_offsets_on_the_mock_cluster(mock_cluster: Any) -> None:
    servers = mock_cluster.bootstrap_servers
    producer = ck.Producer({"bootstrap.servers": servers})
    for value in (b"a", b"b", b"c"):
        producer.produce("mockt", value, partition=1)
    assert producer.flush(10) == 0
    c = KafkaAdminClient(bootstrap_servers=servers, request_timeout_ms=5000)
    tp0, tp1 = TopicPartition("mockt", 0), TopicPartition("mockt", 1)
    found = c.list_partition_offsets({tp1: OffsetSpec.LATEST, tp0: OffsetSpec.EARLIEST})
    assert found[tp1].offset == 3 and found[tp0].offset == 0
    assert c.list_partition_offsets({tp1: OffsetSpec.EARLIEST}, isolation_level=1)[tp1].offset == 0
    with pytest.raises(Errors.IncompatibleBrokerVersion):
        c.list_partition_offsets({tp1: OffsetSpec.EARLIEST_LOCAL})
    assert c.alter_group_offsets("mg", {tp1: OffsetAndMetadata(1, "m", -1)}) == {tp1: Errors.NoError}
    assert c.list_group_offsets({"mg": [tp1, tp0]})["mg"][tp0].offset == -1
    # 7 is beyond the end (3): clamped to it; -5 is before the start: clamped to the end as well
    assert c.reset_group_offsets("mg", {tp1: 7}) == {tp1: {"error": Errors.NoError, "offset": 3}}
    assert c.reset_group_offsets("mg", {tp1: OffsetSpec.EARLIEST})[tp1]["offset"] == 0
    committed = c.list_group_offsets({"mg": [tp1]})["mg"][tp1]  # the mock cannot list all of a group's
    assert committed.offset == 0 and committed.metadata == "m"
    # (Not delete_groups: the mock cluster has no DeleteGroups, and after that failure librdkafka
    # aborts when the client is destroyed: rd_kafka_q_destroy0 assertion, upstream's too.)
    c.close()


# ---- the mapping, against a stand-in native client --------------------------------------------

def _done(value: Any = None, exc: Any = None) -> concurrent.futures.Future:
    f: concurrent.futures.Future = concurrent.futures.Future()
    if exc is not None:
        f.set_exception(exc)
    else:
        f.set_result(value)
    return f


def _broker_error(code: int, text: str = "broker says no") -> ck.KafkaException:
    return ck.KafkaException(ck.KafkaError(code, text))


class FakeNative:
    """Answers like the native AdminClient would for a broker that serves these APIs."""

    def __init__(self) -> None:
        self.calls: list = []

    def create_acls(self, bindings: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("create_acls", bindings, kw))
        return {b: _done(exc=_broker_error(54)) if b.name == "bad" else _done(None) for b in bindings}

    def describe_acls(self, flt: Any, **kw: Any) -> concurrent.futures.Future:
        self.calls.append(("describe_acls", flt, kw))
        return _done([native.AclBinding(native.ResourceType.GROUP, "g", native.ResourcePatternType.PREFIXED,
                                        "User:b", "h", native.AclOperation.DESCRIBE, native.AclPermissionType.DENY)])

    def delete_acls(self, filters: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("delete_acls", filters, kw))
        return {f: _done(exc=_broker_error(54)) if f.name == "bad" else _done([native.AclBinding(
            native.ResourceType.TOPIC, "t", native.ResourcePatternType.LITERAL, "User:a", "*",
            native.AclOperation.READ, native.AclPermissionType.ALLOW)]) for f in filters}

    def create_partitions(self, specs: list, **kw: Any) -> Dict[str, concurrent.futures.Future]:
        self.calls.append(("create_partitions", specs, kw))
        return {s.topic: _done(exc=_broker_error(37, "too few")) if s.topic == "bad" else _done(None) for s in specs}

    def elect_leaders(self, kind: Any, parts: Any, **kw: Any) -> concurrent.futures.Future:
        self.calls.append(("elect_leaders", kind, parts, kw))
        return _done({ck.TopicPartition("t", 0): None, ck.TopicPartition("t", 1): _broker_error(84),
                      ck.TopicPartition("u", 0): None if parts is None else _broker_error(83)})

    def delete_records(self, parts: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("delete_records", parts, kw))
        out = {}
        for p in parts:
            key = ck.TopicPartition(p.topic, p.partition)
            out[key] = (_done(exc=_broker_error(1, "out of range")) if p.offset > 100
                        else _done(native.DeletedRecords(p.offset)))
        return out

    def describe_cluster(self, **kw: Any) -> concurrent.futures.Future:
        self.calls.append(("describe_cluster", kw))
        n1, n2 = ck.Node(1, "a", 9092, "r1"), ck.Node(2, "b", 9093)
        return _done(native.DescribeClusterResult(n2, [n1, n2], "cid",
                                                  [native.AclOperation.ALTER, native.AclOperation.DESCRIBE]))

    def describe_configs(self, resources: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("describe_configs", resources, kw))
        src = native.ConfigSource
        synonym = native.ConfigEntry("log.retention.ms", "5", source=src.STATIC_BROKER_CONFIG, is_synonym=True)
        entries = {
            "retention.ms": native.ConfigEntry("retention.ms", "5", source=src.DYNAMIC_TOPIC_CONFIG,
                                               synonyms={"log.retention.ms": synonym}),
            "cleanup.policy": native.ConfigEntry("cleanup.policy", "delete", source=src.DEFAULT_CONFIG,
                                                 is_default=True),
            "segment.bytes": native.ConfigEntry("segment.bytes", "9", source=src.STATIC_BROKER_CONFIG,
                                                is_read_only=True),
        }
        return {r: _done(entries) for r in resources}

    def incremental_alter_configs(self, resources: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("incremental_alter_configs", resources, kw))
        return {r: _done(exc=_broker_error(-165, "no IncrementalAlterConfigs")) for r in resources}

    def alter_configs(self, resources: list, **kw: Any) -> Dict[Any, concurrent.futures.Future]:
        self.calls.append(("alter_configs", resources, kw))
        return {r: _done(None) for r in resources}

    def describe_consumer_groups(self, ids: list, **kw: Any) -> Dict[str, concurrent.futures.Future]:
        self.calls.append(("describe_consumer_groups", ids, kw))
        member = native.MemberDescription("m-1", "cid", "/10.0.0.1", native.MemberAssignment(
            [ck.TopicPartition("t", 0), ck.TopicPartition("t", 2), ck.TopicPartition("u", 1)]), "inst")
        good = native.ConsumerGroupDescription("g", False, [member], "range", native.ConsumerGroupState.STABLE,
                                               ck.Node(1, "a", 9092), [native.AclOperation.READ])
        return {i: _done(good) if i == "g" else _done(exc=_broker_error(69, "no such group")) for i in ids}

    def describe_user_scram_credentials(self, users: Any, **kw: Any) -> Any:
        self.calls.append(("describe_user_scram_credentials", users, kw))
        desc = native.UserScramCredentialsDescription("alice", [native.ScramCredentialInfo(
            native.ScramMechanism.SCRAM_SHA_256, 4096)])
        if users is None:
            return _done({"alice": desc})
        return {u: _done(desc) if u == "alice" else _done(exc=_broker_error(91, "no credentials")) for u in users}

    def alter_user_scram_credentials(self, alterations: list, **kw: Any) -> Dict[str, concurrent.futures.Future]:
        self.calls.append(("alter_user_scram_credentials", alterations, kw))
        return {a.user: _done(exc=_broker_error(92, "bad iterations")) if a.user == "bob" else _done(None)
                for a in alterations}


@pytest.fixture
def fake() -> Any:
    c = KafkaAdminClient(bootstrap_servers="127.0.0.1:1", request_timeout_ms=1500)
    c._admin = FakeNative()
    yield c
    c.close()


def test_acls_mapping(fake: KafkaAdminClient) -> None:
    good = ACL("User:a", "*", ACLOperation.WRITE, ACLPermissionType.ALLOW,
               ResourcePattern(ResourceType.TOPIC, "t", ACLResourcePatternType.PREFIXED))
    bad = ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.DENY, ResourcePattern(ResourceType.CLUSTER, "bad"))
    assert fake.create_acls([good, bad]) == {"succeeded": [good], "failed": [Errors.SecurityDisabledError]}
    (_, bindings, kw), = fake._admin.calls
    assert kw == {"request_timeout": 1.5}
    assert bindings[0] == native.AclBinding(native.ResourceType.TOPIC, "t", native.ResourcePatternType.PREFIXED,
                                            "User:a", "*", native.AclOperation.WRITE, native.AclPermissionType.ALLOW)
    assert bindings[1].restype == native.ResourceType.BROKER  # kafka-python's CLUSTER
    everything = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                           ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))
    acls, error = fake.describe_acls(everything)
    assert error is Errors.NoError
    assert acls == [ACL("User:b", "h", ACLOperation.DESCRIBE, ACLPermissionType.DENY,
                        ResourcePattern(ResourceType.GROUP, "g", ACLResourcePatternType.PREFIXED))]
    failing = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY,
                        ResourcePatternFilter(ResourceType.TOPIC, "bad", ACLResourcePatternType.LITERAL))
    deleted = fake.delete_acls([everything, failing])
    assert deleted == [(everything, [ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW,
                                         ResourcePattern(ResourceType.TOPIC, "t"))], Errors.NoError),
                       (failing, [], Errors.SecurityDisabledError)]
    # librdkafka has no USER or DELEGATION_TOKEN ACLs, nor token operations
    user = ACL("User:a", "*", ACLOperation.READ, ACLPermissionType.ALLOW, ResourcePattern(ResourceType.USER, "u"))
    tokens = ACL("User:a", "*", ACLOperation.CREATE_TOKENS, ACLPermissionType.ALLOW,
                 ResourcePattern(ResourceType.TOPIC, "t"))
    for acl in (user, tokens):
        with pytest.raises(Errors.IncompatibleBrokerVersion):
            fake.create_acls([acl])
    with pytest.raises(Errors.IllegalArgumentError):
        fake.create_acls([everything])
    with pytest.raises(Errors.IllegalArgumentError):
        fake.delete_acls([object()])
    assert fake.create_acls([]) == {"succeeded": [], "failed": []}


def test_partitions_mapping(fake: KafkaAdminClient) -> None:
    response = fake.create_partitions({"t": 4, "u": {"count": 3, "assignments": [[1], [2]]},
                                       "v": NewPartitions(6, [[3]])}, timeout_ms=2500, validate_only=True)
    (_, specs, kw), = fake._admin.calls
    assert [(s.topic, s.new_total_count, s.replica_assignment) for s in specs] == [
        ("t", 4, None), ("u", 3, [[1], [2]]), ("v", 6, [[3]])]
    assert kw == {"operation_timeout": 2.5, "request_timeout": 2.5, "validate_only": True}
    assert response.throttle_time_ms == 0
    assert [(r.name, r.error_code, r.error_message) for r in response.results] == [
        ("t", 0, None), ("u", 0, None), ("v", 0, None)]
    assert response.to_dict() == {"throttle_time_ms": 0, "results": [
        {"name": n, "error_code": 0, "error_message": None} for n in "tuv"]}
    with pytest.raises(Errors.InvalidPartitionsError):
        fake.create_partitions({"bad": 2})
    failed = fake.create_partitions({"bad": 2}, raise_errors=False)
    assert failed.results[0].error_code == 37 and "too few" in failed.results[0].error_message

    # ElectionNotNeeded (84) is not an error; any other partition error is
    with pytest.raises(Errors.EligibleLeadersNotAvailableError):
        fake.elect_leaders(1, {"t": [0, 1], "u": [0]})
    kind, parts = fake._admin.calls[-1][1:3]
    assert kind == native.ElectionType.UNCLEAN
    assert [(p.topic, p.partition) for p in parts] == [("t", 0), ("t", 1), ("u", 0)]
    elected = fake.elect_leaders(0)
    assert fake._admin.calls[-1][2] is None
    assert elected.error_code == 0 and elected.to_dict()["replica_election_results"] == [
        {"topic": "t", "partition_result": [{"partition_id": 0, "error_code": 0, "error_message": None},
                                            {"partition_id": 1, "error_code": 84, "error_message": "broker says no"}]},
        {"topic": "u", "partition_result": [{"partition_id": 0, "error_code": 0, "error_message": None}]}]
    with pytest.raises(ValueError):
        fake.elect_leaders(5)

    t0, t1 = TopicPartition("t", 0), TopicPartition("t", 1)
    assert fake.delete_records({t0: 5, t1: -1}) == {
        t0: {"partition_index": 0, "low_watermark": 5, "error_code": 0},
        t1: {"partition_index": 1, "low_watermark": -1, "error_code": 0}}
    with pytest.raises(Errors.OffsetOutOfRangeError):
        fake.delete_records({t0: 5, t1: 500})
    with pytest.raises(Errors.BrokerResponseError) as info:
        fake.delete_records({t0: 500, t1: 500})
    assert type(info.value) is Errors.BrokerResponseError


def test_cluster_and_groups_mapping(fake: KafkaAdminClient) -> None:
    assert fake.describe_cluster() == {
        "cluster_id": "cid", "controller_id": 2,
        "brokers": [{"broker_id": 1, "host": "a", "port": 9092, "rack": "r1"},
                    {"broker_id": 2, "host": "b", "port": 9093, "rack": None}],
        "authorized_operations": ["ALTER", "DESCRIBE"]}
    groups = fake.describe_groups(["g", "nope"])
    assert groups["g"] == {
        "group_id": "g", "group_state": "Stable", "protocol_type": "consumer", "protocol_data": "range",
        "members": [{"member_id": "m-1", "group_instance_id": "inst", "client_id": "cid", "client_host": "/10.0.0.1",
                     "member_metadata": None,
                     "member_assignment": {"assigned_partitions": [{"topic": "t", "partitions": [0, 2]},
                                                                   {"topic": "u", "partitions": [1]}],
                                           "user_data": None}}],
        "authorized_operations": ["READ"], "error": None}
    assert groups["nope"]["error"].startswith("[Error 69] GroupIdNotFoundError")
    assert fake._admin.calls[-1][2]["include_authorized_operations"] is True


def test_configs_mapping(fake: KafkaAdminClient) -> None:
    topic = ConfigResource("topic", "t")
    shapes = {f: sorted(fake.describe_configs([topic], config_filter=f)["topic"]["t"])
              for f in ("all", "modified", "dynamic", "default", "static")}
    assert shapes == {"all": ["cleanup.policy", "retention.ms", "segment.bytes"], "modified": ["retention.ms"],
                      "dynamic": ["cleanup.policy", "retention.ms"], "default": ["cleanup.policy", "segment.bytes"],
                      "static": ["segment.bytes"]}
    described = fake.describe_configs([ConfigResource("topic", "t", ["retention.ms"])], include_synonyms=True)
    assert described == {"topic": {"t": {"retention.ms": {
        "value": "5", "read_only": False, "config_source": "DYNAMIC_TOPIC_CONFIG", "is_sensitive": False,
        "synonyms": [{"name": "log.retention.ms", "value": "5", "source": "STATIC_BROKER_CONFIG"}],
        "config_type": "UNKNOWN", "documentation": None}}}}
    assert fake.describe_configs([ConfigResource("topic", "t", {})]) == {"topic": {"t": {}}}
    # the broker lacks IncrementalAlterConfigs: alter_configs falls back to AlterConfigs, keeping
    # the values already set (AlterConfigs resets what it is not given)
    calls = fake._admin.calls
    start = len(calls)
    assert fake.alter_configs([ConfigResource("topic", "t", {"cleanup.policy": "compact"})]) == {"topic": {"t": "OK"}}
    kinds = [c[0] for c in calls[start:]]
    assert kinds == ["describe_configs", "incremental_alter_configs", "describe_configs", "alter_configs"]
    sent = calls[-1][1][0]
    assert sent.set_config_dict == {"retention.ms": "5", "cleanup.policy": "compact"}
    incremental = calls[start + 1][1][0]
    assert [(e.name, e.value, e.incremental_operation) for e in incremental.incremental_configs] == [
        ("cleanup.policy", "compact", native.AlterConfigOpType.SET)]
    with pytest.raises(Errors.IncompatibleBrokerVersion):
        fake.alter_configs([ConfigResource("topic", "t", {"cleanup.policy": (AlterConfigOp.APPEND, "x")})],
                           incremental=True)
    with pytest.raises(ValueError):  # AlterConfigs can only SET
        fake.alter_configs([ConfigResource("topic", "t", {"cleanup.policy": ("APPEND", "x")})], incremental=False)
    with pytest.raises(ValueError):  # segment.bytes is read-only: not alterable
        fake.alter_configs([ConfigResource("topic", "t", {"segment.bytes": "1"})])
    # a full reset deletes every value set on the resource (incremental; here through the fallback,
    # which sends AlterConfigs without them)
    start = len(calls)
    assert fake.reset_configs([ConfigResource("topic", "t")]) == {"topic": {"t": "OK"}}
    deletes = [c for c in calls[start:] if c[0] == "incremental_alter_configs"][0][1][0]
    assert [(e.name, e.incremental_operation) for e in deletes.incremental_configs] == [
        ("retention.ms", native.AlterConfigOpType.DELETE)]
    assert calls[-1][0] == "alter_configs" and calls[-1][1][0].set_config_dict == {}
    partial = fake.reset_configs([ConfigResource("topic", "t", ["cleanup.policy"])], incremental=False)
    assert partial == {"topic": {"t": "OK"}} and calls[-1][1][0].set_config_dict == {"retention.ms": "5"}
    with pytest.raises(ValueError):
        fake.describe_configs([ConfigResource("broker", "one")])
    with pytest.raises(Errors.IncompatibleBrokerVersion):
        fake.describe_configs([ConfigResource("client_metrics", "m")])


def test_scram_mapping(fake: KafkaAdminClient) -> None:
    assert fake.describe_user_scram_credentials() == {
        "alice": {"error": None, "credential_infos": [{"mechanism": ScramMechanism.SCRAM_SHA_256, "iterations": 4096}]}}
    assert fake.describe_user_scram_credentials(["alice", "carol"]) == {
        "alice": {"error": None, "credential_infos": [{"mechanism": ScramMechanism.SCRAM_SHA_256, "iterations": 4096}]},
        "carol": {"error": "no credentials", "credential_infos": []}}
    upsert = UserScramCredentialUpsertion("alice", "scram-sha-256", "pw", iterations=5000, salt=b"salt")
    result = fake.alter_user_scram_credentials([upsert, UserScramCredentialDeletion("bob", 2)])
    assert result == {"alice": None, "bob": "bad iterations"}
    sent = fake._admin.calls[-1][1]
    assert (sent[0].user, sent[0].password, sent[0].salt, sent[0].scram_credential_info.iterations) == (
        "alice", b"pw", b"salt", 5000)
    assert sent[1].mechanism == native.ScramMechanism.SCRAM_SHA_512
    # kafka-python's own salted password (PBKDF2-HMAC-SHA256)
    import hashlib
    assert upsert.salted_password == hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 5000)
    with pytest.raises(Errors.IllegalArgumentError):
        fake.alter_user_scram_credentials([("alice", "pw")])


def test_unsupported_requests(fake: KafkaAdminClient) -> None:
    tp = TopicPartition("t", 0)
    for call in (lambda: fake.describe_log_dirs({"t": [0]}), fake.describe_metadata_quorum, fake.describe_features,
                 fake.list_transactions, fake.find_hanging_transactions, lambda: fake.describe_transactions(["x"]),
                 lambda: fake.describe_producers([tp]), lambda: fake.abort_transaction(None),
                 lambda: fake.alter_replica_log_dirs({("t", 0, 1): "/d"}), lambda: fake.list_partition_reassignments(),
                 lambda: fake.alter_partition_reassignments({tp: None}), lambda: fake.delete_group_offsets("g", [tp]),
                 lambda: fake.remove_group_members("g", [MemberToRemove("m")]), fake.list_config_resources,
                 lambda: fake.update_features({"f": ("safe-downgrade", 1)})):
        with pytest.raises(Errors.IncompatibleBrokerVersion, match="librdkafka"):
            call()
    for call in (fake.api_versions, lambda: fake.get_broker_version_data(1)):
        with pytest.raises(NotImplementedError):
            call()
    with pytest.raises(ValueError):
        fake.update_features({"f": ("sideways", 1)})
    with pytest.raises(TypeError):
        fake.alter_replica_log_dirs({("t", 0): "/d"})
    assert fake._admin.calls == []
