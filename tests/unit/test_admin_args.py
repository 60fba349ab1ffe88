"""AdminClient argument checking: wrong types raise TypeError, wrong values ValueError, before
anything is sent (the client points at an unreachable address and no future is created)."""

from __future__ import annotations

import math
from concurrent.futures import Future

import pytest

from confluent_kafka import TopicPartition
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    ConfigSource,
    ConsumerGroupState,
    ConsumerGroupTopicPartitions,
    ConsumerGroupType,
    ElectionType,
    IsolationLevel,
    NewPartitions,
    NewTopic,
    OffsetSpec,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    TopicCollection,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)
from confluent_kafka.cimpl import _AdminClientImpl


@pytest.fixture
def admin():
    a = AdminClient({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    yield a
    a.close()


def _acl(**over):
    args = dict(restype=ResourceType.TOPIC, name="t", resource_pattern_type=ResourcePatternType.LITERAL,
                principal="User:a", host="*", operation=AclOperation.READ,
                permission_type=AclPermissionType.ALLOW)
    args.update(over)
    return AclBinding(**args)


def _filter(**over):
    args = dict(restype=ResourceType.ANY, name=None, resource_pattern_type=ResourcePatternType.ANY,
                principal=None, host=None, operation=AclOperation.ANY, permission_type=AclPermissionType.ANY)
    args.update(over)
    return AclBindingFilter(**args)


# ---- request types ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, exc, text", [
    ((1,), TypeError, "topic must be a str"),
    (("",), ValueError, "must not be empty"),
    (("t", "3"), TypeError, "num_partitions must be an int"),
    (("t", 0), ValueError, "num_partitions"),
    (("t", 1, 0), ValueError, "replication_factor"),
    (("t", 1, True), TypeError, "replication_factor must be an int"),
    (("t", 2, 1, [[1], [2]]), ValueError, "replication_factor must be -1"),
    (("t", 2, -1, [1, 2]), TypeError, "replica_assignment[0]"),
    (("t", 2, -1, [[-1]]), ValueError, "broker id"),
    (("t", 1, 1, None, ["a"]), TypeError, "config must be a dict"),
    (("t", 1, 1, None, {"a": 1}), TypeError, "config value"),
])
def test_new_topic_rejects(args, exc, text):
    with pytest.raises(exc, match=None) as info:
        NewTopic(*args)
    assert text in str(info.value)


def test_new_topic_defaults_and_repr():
    t = NewTopic("t")
    assert (t.num_partitions, t.replication_factor, t.config) == (-1, -1, {})
    assert repr(t).startswith("NewTopic(topic='t'")
    assert NewTopic("t", 2, 1) == NewTopic("t", 2, 1)


@pytest.mark.parametrize("args, exc", [
    ((None, 2), TypeError), (("t", 0), ValueError), (("t", "2"), TypeError), (("t", 2, "x"), TypeError),
])
def test_new_partitions_rejects(args, exc):
    with pytest.raises(exc):
        NewPartitions(*args)


def test_config_resource_accepts_names_and_values():
    assert ConfigResource("topic", "t") == ConfigResource(ResourceType.TOPIC, "t") == ConfigResource(2, "t")
    assert hash(ConfigResource("TOPIC", "t")) == hash(ConfigResource(ResourceType.TOPIC, "t"))
    assert repr(ConfigResource("broker", "1")) == "ConfigResource(BROKER,1)"


@pytest.mark.parametrize("restype, name, exc", [
    ("nosuch", "t", ValueError), (99, "t", ValueError), (1.5, "t", TypeError), ("any", "t", ValueError),
    ("topic", 5, TypeError), ("topic", "", ValueError),
])
def test_config_resource_rejects(restype, name, exc):
    with pytest.raises(exc):
        ConfigResource(restype, name)


def test_config_resource_incremental_needs_an_operation():
    r = ConfigResource("topic", "t")
    with pytest.raises(ValueError, match="incremental_operation"):
        r.add_incremental_config(ConfigEntry("a", "b"))
    with pytest.raises(TypeError):
        r.add_incremental_config(("a", "b"))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ConfigEntry("a", "b", incremental_operation="nope")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ConfigResource("topic", "t").set_config("a", 1)  # type: ignore[arg-type]


def test_acl_binding_checks():
    assert _acl() == _acl() and hash(_acl()) == hash(_acl())
    assert _acl(operation="read") == _acl()
    with pytest.raises(ValueError, match="only filters"):
        _acl(name=None)
    with pytest.raises(ValueError, match="only filters"):
        _acl(operation=AclOperation.ANY)
    with pytest.raises(TypeError):
        _acl(restype=[1])
    with pytest.raises(ValueError):
        _filter(operation=AclOperation.UNKNOWN)
    assert "AclBindingFilter(restype=ANY" in repr(_filter())


def test_offset_spec():
    assert OffsetSpec.earliest()._value == -2 and OffsetSpec.latest()._value == -1
    assert OffsetSpec.max_timestamp()._value == -3
    assert OffsetSpec.for_timestamp(5)._value == 5
    assert repr(OffsetSpec.for_timestamp(5)) == "OffsetSpec.for_timestamp(5)"
    with pytest.raises(ValueError):
        OffsetSpec.for_timestamp(-1)
    with pytest.raises(TypeError):
        OffsetSpec.for_timestamp(1.5)  # type: ignore[arg-type]


def test_misc_types():
    with pytest.raises(TypeError):
        TopicCollection("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        TopicCollection([1])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        ConsumerGroupTopicPartitions(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ConsumerGroupTopicPartitions("g", TopicPartition("t", 0))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 0)
    with pytest.raises(TypeError):
        UserScramCredentialUpsertion("u", (1, 2), b"pw")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        UserScramCredentialUpsertion("u", ScramCredentialInfo("scram_sha_256", 4096), b"")
    with pytest.raises(ValueError):
        UserScramCredentialDeletion("u", "md5")
    assert ConfigSource(5) is ConfigSource.DEFAULT_CONFIG


# ---- client methods --------------------------------------------------------------------------

BAD_CALLS = [
    # (method, args, kwargs, exception, text)
    ("create_topics", ("t",), {}, TypeError, "new_topics must be a list of NewTopic"),
    ("create_topics", ([],), {}, ValueError, "must not be empty"),
    ("create_topics", (["t"],), {}, TypeError, "new_topics[0] must be a NewTopic"),
    ("create_topics", ([NewTopic("t"), NewTopic("t")],), {}, ValueError, "more than once"),
    ("create_topics", ([NewTopic("t")],), {"validate_only": 1}, TypeError, "validate_only must be a bool"),
    ("create_topics", ([NewTopic("t")],), {"request_timeout": "1"}, TypeError, "request_timeout"),
    ("create_topics", ([NewTopic("t")],), {"request_timeout": -1}, ValueError, "request_timeout"),
    ("create_topics", ([NewTopic("t")],), {"operation_timeout": math.nan}, ValueError, "operation_timeout"),
    ("create_topics", ([NewTopic("t")],), {"nosuch": 1}, TypeError, "nosuch"),
    ("delete_topics", ("t",), {}, TypeError, "topics must be a list of str"),
    ("delete_topics", ([1],), {}, TypeError, "topics[0] must be a str"),
    ("delete_topics", ([""],), {}, ValueError, "empty"),
    ("delete_topics", (["a", "a"],), {}, ValueError, "more than once"),
    ("create_partitions", ([NewTopic("t")],), {}, TypeError, "NewPartitions"),
    ("create_partitions", ([],), {}, ValueError, "must not be empty"),
    ("create_partitions", ([NewPartitions("t", 2), NewPartitions("t", 3)],), {}, ValueError, "more than once"),
    ("describe_topics", (["t"],), {}, TypeError, "TopicCollection"),
    ("describe_topics", (TopicCollection(["a", "a"]),), {}, ValueError, "more than once"),
    ("describe_topics", (TopicCollection(["a"]),), {"include_authorized_operations": "yes"}, TypeError,
     "include_authorized_operations"),
    ("describe_cluster", (), {"request_timeout": [1]}, TypeError, "request_timeout"),
    ("describe_cluster", (), {"include_authorized_operations": None}, TypeError, "bool"),
    ("describe_configs", ([("topic", "t")],), {}, TypeError, "ConfigResource"),
    ("describe_configs", (ConfigResource("topic", "t"),), {}, TypeError, "list"),
    ("describe_configs", ([ConfigResource("topic", "t")] * 2,), {}, ValueError, "more than once"),
    ("alter_configs", ([{"a": "b"}],), {}, TypeError, "ConfigResource"),
    ("incremental_alter_configs", ([ConfigResource("topic", "t")],), {}, ValueError, "no incremental_configs"),
    ("incremental_alter_configs",
     ([ConfigResource("topic", "t", incremental_configs=[ConfigEntry("a", None,
                                                                     incremental_operation=AlterConfigOpType.SET)])],),
     {}, ValueError, "needs a value"),
    ("create_acls", ([_filter()],), {}, TypeError, "not an AclBindingFilter"),
    ("create_acls", ([("a",)],), {}, TypeError, "AclBinding"),
    ("create_acls", ([_acl(), _acl()],), {}, ValueError, "more than once"),
    ("describe_acls", (_acl(),), {}, TypeError, "AclBindingFilter"),
    ("describe_acls", ([_filter()],), {}, TypeError, "AclBindingFilter"),
    ("delete_acls", (_filter(),), {}, TypeError, "list"),
    ("delete_acls", ([_acl()],), {}, TypeError, "AclBindingFilter"),
    ("list_consumer_groups", (), {"states": ConsumerGroupState.STABLE}, TypeError, "states"),
    ("list_consumer_groups", (), {"states": {"stable"}}, TypeError, "ConsumerGroupState"),
    ("list_consumer_groups", (), {"states": {ConsumerGroupState.UNKNOWN}}, ValueError, "UNKNOWN"),
    ("list_consumer_groups", (), {"types": [ConsumerGroupState.STABLE]}, TypeError, "ConsumerGroupType"),
    ("describe_consumer_groups", ("g",), {}, TypeError, "group_ids"),
    ("describe_consumer_groups", ([None],), {}, TypeError, "group_ids[0]"),
    ("delete_consumer_groups", ([],), {}, ValueError, "empty"),
    ("list_consumer_group_offsets", (ConsumerGroupTopicPartitions("g"),), {}, TypeError, "list"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")] * 2,), {}, ValueError, "exactly one"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g", [TopicPartition("t", -1)])],), {},
     ValueError, "partition must be >= 0"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g", ["t"])],), {}, TypeError,
     "TopicPartition"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")],), {"require_stable": 1}, TypeError,
     "require_stable"),
    ("alter_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")],), {}, ValueError, "topic_partitions"),
    ("alter_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0)])],), {},
     ValueError, "offset must be >= 0"),
    ("alter_consumer_group_offsets",
     ([ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0, 1), TopicPartition("t", 0, 2)])],), {},
     ValueError, "more than once"),
    ("list_offsets", ([TopicPartition("t", 0)],), {}, TypeError, "dict"),
    ("list_offsets", ({},), {}, ValueError, "empty"),
    ("list_offsets", ({TopicPartition("t", 0): -1},), {}, TypeError, "OffsetSpec"),
    ("list_offsets", ({TopicPartition("t", -1): OffsetSpec.latest()},), {}, ValueError, "partition"),
    ("list_offsets", ({TopicPartition("t", 0): OffsetSpec.latest()},), {"isolation_level": 1}, TypeError,
     "IsolationLevel"),
    ("delete_records", (TopicPartition("t", 0, 1),), {}, TypeError, "list"),
    ("delete_records", ([TopicPartition("t", 0, -2)],), {}, ValueError, "offset"),
    ("delete_records", ([TopicPartition("t", 0, 1), TopicPartition("t", 0, 2)],), {}, ValueError, "more than once"),
    ("elect_leaders", (0, None), {}, TypeError, "ElectionType"),
    ("elect_leaders", (ElectionType.PREFERRED, TopicPartition("t", 0)), {}, TypeError, "list"),
    ("elect_leaders", (ElectionType.PREFERRED, []), {}, ValueError, "empty"),
    ("describe_user_scram_credentials", ("u",), {}, TypeError, "users"),
    ("describe_user_scram_credentials", (["u", "u"],), {}, ValueError, "more than once"),
    ("alter_user_scram_credentials", ([("u", 1)],), {}, TypeError, "UserScramCredentialUpsertion"),
    ("alter_user_scram_credentials", ([],), {}, ValueError, "empty"),
    ("list_groups", (), {"group": 5}, TypeError, "group"),
    ("list_groups", (), {"timeout": "1"}, TypeError, "must be real number"),
    ("list_topics", (), {"topic": 5}, TypeError, "topic"),
    ("poll", ("x",), {}, TypeError, "must be real number"),
    ("cluster_id", (), {"timeout": "1"}, TypeError, "must be real number"),
]


@pytest.mark.parametrize("method, args, kwargs, exc, text", BAD_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)])
def test_bad_arguments_raise_before_sending(admin, method, args, kwargs, exc, text):
    with pytest.raises(exc) as info:
        getattr(admin, method)(*args, **kwargs)
    assert text in str(info.value)


def test_every_public_call_is_covered_by_the_bad_argument_table():
    covered = {c[0] for c in BAD_CALLS}
    public = {n for n in dir(AdminClient) if not n.startswith("_") and callable(getattr(AdminClient, n))}
    untested = public - covered - {"close", "set_sasl_credentials"}
    assert not untested, sorted(untested)


def test_set_sasl_credentials_types(admin):
    with pytest.raises(TypeError):
        admin.set_sasl_credentials(1, "p")
    admin.set_sasl_credentials("u", "p")


# ---- the C entry points validate too ---------------------------------------------------------

@pytest.fixture
def impl():
    a = _AdminClientImpl({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    yield a
    a.close()


C_BAD_CALLS = [
    ("_create_topics", (None, [], None), TypeError),                    # not a Future
    ("_create_topics", ("future", "t", None), TypeError),               # not a list
    ("_create_topics", ("future", ["t"], None), TypeError),             # element not a tuple
    ("_create_topics", ("future", [("t", "1", 1, None, None)], None), TypeError),
    ("_create_topics", ("future", [("t", 1, 1, [[-3]], None)], None), ValueError),
    ("_create_topics", ("future", [("t", 1, 1, None, {"a": 1})], None), TypeError),
    ("_create_topics", ("future", [("t", 1, 1, None, None)], []), TypeError),          # options not a dict
    ("_create_topics", ("future", [("t", 1, 1, None, None)], {"bogus": 1}), TypeError),
    ("_create_topics", ("future", [("t", 1, 1, None, None)], {"request_timeout": -1}), ValueError),
    ("_create_topics", ("future", [("t", 1, 1, None, None)], {"validate_only": 1}), TypeError),
    ("_delete_topics", ("future", [1], None), TypeError),
    ("_create_partitions", ("future", [("t", 0, None)], None), ValueError),
    ("_describe_configs", ("future", [(0, "t")], None), ValueError),
    ("_describe_configs", ("future", [("topic", "t")], None), TypeError),
    ("_alter_configs", ("future", [(2, "t", [])], None), TypeError),
    ("_incremental_alter_configs", ("future", [(2, "t", [("a", 99, "v")])], None), ValueError),
    ("_create_acls", ("future", [(2, "t", 3, "User:a", "*", 99, 3)], None), ValueError),
    ("_describe_acls", ("future", [1], None), TypeError),
    ("_list_consumer_groups", ("future", {"states": [99]}), ValueError),
    ("_list_consumer_groups", ("future", {"isolation_level": 7}), ValueError),
    ("_describe_consumer_groups", ("future", "g", None), TypeError),
    ("_list_consumer_group_offsets", ("future", [("g", "x")], None), TypeError),
    ("_alter_consumer_group_offsets", ("future", [("g", None)], None), TypeError),
    ("_describe_topics", ("future", [None], None), TypeError),
    ("_describe_cluster", ("future", 5), TypeError),
    ("_list_offsets", ("future", [1], None), TypeError),
    ("_delete_records", ("future", None, None), TypeError),
    ("_elect_leaders", ("future", 7, None, None), ValueError),
    ("_describe_user_scram_credentials", ("future", [b"u"], None), TypeError),
    ("_alter_user_scram_credentials", ("future", [("u", 1, 4096, 5, None)], None), TypeError),
]


@pytest.mark.parametrize("method, args, exc", C_BAD_CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(C_BAD_CALLS)])
def test_c_entry_points_validate(impl, method, args, exc):
    args = tuple(Future() if a == "future" else a for a in args)
    with pytest.raises(exc):
        getattr(impl, method)(*args)


def test_c_entry_point_wrong_arity(impl):
    with pytest.raises(TypeError):
        impl._create_topics(Future())
    with pytest.raises(TypeError):
        impl._describe_cluster()


def test_a_rejected_call_leaves_no_pending_future(impl):
    f: Future = Future()
    with pytest.raises(TypeError):
        impl._create_topics(f, [("t", 1, 1, None, {"a": 1})], None)
    # Closing fails what is pending; a future never registered stays untouched.
    impl.close()
    assert not f.done()


def test_enums_round_trip():
    assert ResourceType.TOPIC.value == 2 and AclOperation.IDEMPOTENT_WRITE.value == 12
    assert ConsumerGroupType.CLASSIC.value == 2 and IsolationLevel.READ_COMMITTED.value == 1
    assert ScramMechanism.SCRAM_SHA_512.value == 2 and ElectionType.UNCLEAN.value == 1
    assert sorted([ResourceType.GROUP, ResourceType.TOPIC]) == [ResourceType.TOPIC, ResourceType.GROUP]


def test_constructor_checks_its_configuration():
    from confluent_kafka import KafkaError, KafkaException

    with pytest.raises(TypeError, match="expected configuration dict"):
        AdminClient("bootstrap.servers=x")  # type: ignore[arg-type]
    with pytest.raises(KafkaException) as info:
        AdminClient({"no.such.property": "1"})
    assert info.value.args[0].code() == KafkaError._INVALID_ARG
    with pytest.raises(TypeError, match="error_cb"):
        AdminClient({"error_cb": 5})
    a = AdminClient(**{"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    assert a.close() is True
