"""AdminClient argument checking: wrong types raise TypeError, wrong values ValueError, before
anything is sent (the client points at an unreachable address and no future is created)."""

from __future__ import annotations

import math
import warnings
from concurrent.futures import Future

import pytest

from cpython_texts import unexpected_keyword_text

from confluent_kafka import KafkaError, KafkaException, TopicPartition
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

# ---- value types keep what they are given, as upstream's do -----------------------------------

def test_new_topic_is_a_plain_holder():
    t = NewTopic("t", 3, 2, [[1, 2]], {"retention.ms": 1000})
    assert (t.topic, t.num_partitions, t.replication_factor) == ("t", 3, 2)
    assert t.replica_assignment == [[1, 2]] and t.config == {"retention.ms": 1000}
    assert repr(NewTopic("t")) == "NewTopic(topic=t)" and str(t) == "NewTopic(topic=t,num_partitions=3)"
    d = NewTopic("d")
    assert (d.num_partitions, d.replication_factor, d.replica_assignment, d.config) == (-1, -1, None, None)
    # Checked when the request is made, not here.
    assert NewTopic("", 0).num_partitions == 0


@pytest.mark.parametrize("args, kwargs, exc, text", [
    ((1,), {}, TypeError, "argument 1 must be str, not int"),
    (("t", "3"), {}, TypeError, "'str' object cannot be interpreted as an integer"),
    (("t", 2 ** 40), {}, OverflowError, "signed integer is greater than maximum"),
    (("t", 1, 1, None, ["a"]), {}, TypeError, "config must be a dict of strings"),
    (("t",), {"config": None}, TypeError, "config must be a dict of strings"),
    ((), {}, TypeError, "function missing required argument 'topic' (pos 1)"),
    (("t",), {"foo": 1}, TypeError, unexpected_keyword_text("foo", ["topic", "num_partitions", "replication_factor",
                                                            "replica_assignment", "config"])),
])
def test_new_topic_constructor_errors(args, kwargs, exc, text):
    with pytest.raises(exc) as info:
        NewTopic(*args, **kwargs)
    assert str(info.value) == text


def test_new_topic_order_hash_and_attributes():
    assert NewTopic("a") == NewTopic("a", -1, 3, config={"x": "y"})
    assert NewTopic("a", 1) < NewTopic("a", 2) < NewTopic("b", 1)
    assert hash(NewTopic("a")) == hash("a") and hash(NewTopic("a", 2)) == hash("a") ^ 2
    with pytest.raises(NotImplementedError):
        NewTopic("a") == "a"  # noqa: B015
    t = NewTopic("a")
    with pytest.raises(AttributeError):
        t.topic = "b"  # type: ignore[misc]
    t.num_partitions = 4
    assert t.num_partitions == 4
    with pytest.raises(TypeError):
        t.num_partitions = "x"  # type: ignore[assignment]


def test_c_value_types_pickle():
    import pickle

    from confluent_kafka import Uuid

    t = pickle.loads(pickle.dumps(NewTopic("a", 3, -1, [[1]] * 3, {"k": "v"})))
    assert (t.topic, t.num_partitions, t.replica_assignment, t.config) == ("a", 3, [[1]] * 3, {"k": "v"})
    p = pickle.loads(pickle.dumps(NewPartitions("a", 4, [[1]])))
    assert (p.topic, p.new_total_count, p.replica_assignment) == ("a", 4, [[1]])
    u = pickle.loads(pickle.dumps(Uuid(-5, 7)))
    assert (u.get_most_significant_bits(), u.get_least_significant_bits()) == (-5, 7)


def test_uninitialised_c_values_do_not_crash():
    from confluent_kafka import Uuid

    t = NewTopic.__new__(NewTopic)
    assert repr(t) == "NewTopic()" and t.topic is None and isinstance(hash(t), int)
    with pytest.raises(TypeError):
        t == NewTopic("a")  # noqa: B015
    with pytest.raises(TypeError):
        t.__reduce__()
    p = NewPartitions.__new__(NewPartitions)
    assert repr(p) == "NewPartitions()" and isinstance(hash(p), int)
    assert str(Uuid.__new__(Uuid)) == "AAAAAAAAAAAAAAAAAAAAAA"


def test_new_partitions():
    p = NewPartitions("t", 3)
    assert repr(p) == "NewPartitions(topic=t,new_total_count=3)" and p.replica_assignment is None
    assert NewPartitions("t", 3) == NewPartitions("t", 3) != NewPartitions("t", 4)
    assert hash(NewPartitions("t", 3)) == hash("t") ^ 3
    with pytest.raises(TypeError, match="function missing required argument 'new_total_count'"):
        NewPartitions("t")  # type: ignore[call-arg]


def test_uuid():
    from confluent_kafka import Uuid

    assert str(Uuid(1, 2)) == repr(Uuid(1, 2)) == "AAAAAAAAAAEAAAAAAAAAAg"
    assert str(Uuid(2 ** 63 - 1, -(2 ** 63))) == "f/////////+AAAAAAAAAAA"
    assert Uuid(1, 2) != Uuid(1, 2) and hash(Uuid(1, 2)) == hash(Uuid(1, 2))
    with pytest.raises(OverflowError):
        Uuid(2 ** 64, 0)


def test_config_resource():
    r = ConfigResource("topic", "t", set_config={"a": "b"})
    assert r.restype is ResourceType.TOPIC and r.restype_int == 2 and len(r) == 1
    assert ConfigResource.Type is ResourceType
    assert repr(r) == "ConfigResource(ResourceType.TOPIC,t)"
    assert r == ConfigResource(2, "t") and hash(r) == hash((ResourceType.TOPIC, "t"))
    with pytest.raises(ValueError, match='Unknown resource type "nope": should be a ConfigResource.Type'):
        ConfigResource("nope", "t")
    with pytest.raises(ValueError, match="Expected resource name to be a string"):
        ConfigResource("topic", None)  # type: ignore[arg-type]
    assert repr(ConfigEntry("a", "1")) == 'ConfigEntry(a="1")' and str(ConfigEntry("a", None)) == 'a="None"'


def test_acl_binding_checks():
    assert repr(_acl()) == ("AclBinding(ResourceType.TOPIC,t,ResourcePatternType.LITERAL,User:a,*,"
                            "AclOperation.READ,AclPermissionType.ALLOW)")
    assert _acl(restype="topic", operation=3) == _acl()
    with pytest.raises(ValueError, match="Cannot use enum restype, value ANY in this class"):
        _acl(restype=ResourceType.ANY)
    with pytest.raises(ValueError, match="Expected name to be not None"):
        _acl(name=None)
    with pytest.raises(TypeError, match="Expected host to be a string"):
        _acl(host=1)
    with pytest.raises(ValueError, match='Unknown value "nope": should be a ResourceType'):
        _acl(restype="nope")
    with pytest.raises(ValueError, match="Cannot use enum operation, value UNKNOWN in this class"):
        _filter(operation=AclOperation.UNKNOWN)


def test_offset_spec():
    assert OffsetSpec(-1) is OffsetSpec.latest() and OffsetSpec(-2) is OffsetSpec.earliest()
    assert type(OffsetSpec(7)).__name__ == "TimestampSpec" and OffsetSpec(7)._value == 7
    assert OffsetSpec.max_timestamp() < OffsetSpec.earliest() < OffsetSpec.latest() < OffsetSpec.for_timestamp(0)
    with pytest.raises(KeyError):
        OffsetSpec(-4)


def test_model_types_live_where_upstream_keeps_them():
    import pickle

    import confluent_kafka._model as model

    assert ConsumerGroupState.__module__ == "confluent_kafka._model" and model.ConsumerGroupState is ConsumerGroupState
    assert pickle.loads(pickle.dumps(ConsumerGroupState.STABLE)) is ConsumerGroupState.STABLE
    assert ConsumerGroupState["UNKOWN"] is ConsumerGroupState.UNKNOWN
    from confluent_kafka.admin import Node

    assert str(Node(1, "h", 9, "r")) == "(1) h:9 (Rack - r)" and str(Node(1, "h", 9)) == "(1) h:9 "


# ---- client methods: upstream's checks and messages ------------------------------------------

_NT = NewTopic("t")

BAD_CALLS = [
    # (method, args, kwargs, exception, exact text)
    ("create_topics", (None,), {}, TypeError, "'NoneType' object is not iterable"),
    ("create_topics", (["t"],), {}, AttributeError, "'str' object has no attribute 'topic'"),
    ("create_topics", ([],), {}, ValueError, "Expected non-empty list of NewTopic objects"),
    ("create_topics", ([_NT],), {"validate_only": 1}, TypeError, "Expected validate_only to be bool type, not int"),
    ("create_topics", ([_NT],), {"request_timeout": "1"}, TypeError, "must be real number, not str"),
    ("create_topics", ([_NT],), {"request_timeout": None}, TypeError, "must be real number, not NoneType"),
    ("create_topics", ([_NT],), {"request_timeout": -1}, ValueError,
     'Invalid value type for "request_timeout": expecting integer in range 0..3600000'),
    ("create_topics", ([_NT],), {"operation_timeout": math.nan}, ValueError,
     'Invalid value type for "operation_timeout": expecting integer in range -1..3600000'),
    ("create_topics", ([_NT],), {"nosuch": 1}, TypeError, unexpected_keyword_text(
        "nosuch", ["topics", "future", "validate_only", "request_timeout", "operation_timeout"])),
    ("create_topics", ([_NT],), {"future": 1}, TypeError,
     "argument for function given by name ('future') and position (2)"),
    ("create_topics", ([_NT], 1.0), {}, TypeError, "AdminClient.create_topics() takes 2 positional arguments but 3 were given"),
    ("create_topics", ([NewTopic("t", -5)],), {}, ValueError,
     "Invalid NewTopic(t): num_partitions out of expected range 1..100000 or -1 for broker default"),
    ("create_topics", ([NewTopic("t", 1, 1, [[1]])],), {}, ValueError,
     "replication_factor and replica_assignment are mutually exclusive"),
    ("create_topics", ([NewTopic("t", 2, -1, [[1]])],), {}, ValueError,
     "replica_assignment must be a list of int lists with an outer size of num_partitions"),
    ("create_topics", ([NewTopic("t", -1, -1, [[1]])],), {}, ValueError,
     "Specifying a default partition count and a replica assignment are mutually exclusive"),
    ("create_topics", ([NewTopic("t", replica_assignment=None)],), {}, ValueError,
     "replica_assignment must be a list of int lists with an outer size of num_partitions"),
    ("delete_topics", ("t",), {}, TypeError, "argument 1 must be list, not str"),
    ("delete_topics", ([],), {}, ValueError, "Expected non-empty list of topic strings"),
    ("delete_topics", ([None],), {}, ValueError, "Expected list of topic strings, not NoneType"),
    ("delete_topics", (["t"],), {"validate_only": True}, TypeError,
     unexpected_keyword_text("validate_only", ["topics", "future", "request_timeout", "operation_timeout"])),
    ("delete_topics", (["t"],), {"request_timout": 1}, TypeError,
     unexpected_keyword_text("request_timout", ["topics", "future", "request_timeout", "operation_timeout"])),
    ("create_partitions", ([NewPartitions("t", 0)],), {}, ValueError,
     "Invalid NewPartitions(t): new_total_cnt out of expected range 1..100000"),
    ("create_partitions", ([NewPartitions("t", 2, [[1], [2], [3]])],), {}, ValueError,
     "replica_assignment must be a list of int lists with an outer size of new_total_count - existing partition count"),
    ("describe_topics", (["t"],), {}, TypeError, "Expected input to be instance of TopicCollection"),
    ("describe_topics", (TopicCollection("t"),), {}, TypeError, "Expected list of topic names to be described"),
    ("describe_topics", (TopicCollection([""]),), {}, ValueError, "Empty topic name at index 0 isn't allowed"),
    ("describe_topics", (TopicCollection([None]),), {}, TypeError, "Expected list of topics strings, not NoneType"),
    ("describe_cluster", (1,), {}, TypeError, "AdminClient.describe_cluster() takes 1 positional argument but 2 were given"),
    ("describe_cluster", (), {"include_authorized_operations": None}, TypeError,
     "Expected include_authorized_operations to be bool type, not NoneType"),
    ("describe_configs", ([None],), {}, ValueError,
     "Expected list of <class 'confluent_kafka.admin._config.ConfigResource'>"),
    ("describe_configs", ([ConfigResource("topic", "")],), {}, ValueError, "Invalid ConfigResource(2,)"),
    ("describe_configs", ([ConfigResource("topic", "t")],), {"broker": -1}, ValueError,
     'Invalid value type for "broker": expecting integer in range 0..2147483647'),
    ("alter_configs", ([],), {}, ValueError, "Expected non-empty list of ConfigResource objects"),
    ("incremental_alter_configs", (["t"],), {}, TypeError,
     "Expected list of <class 'confluent_kafka.admin._config.ConfigResource'>"),
    ("incremental_alter_configs", ([ConfigResource("topic", "t")],), {}, ValueError,
     "expected non-empty list of ConfigEntry to alter incrementally in incremental_configs field"),
    ("incremental_alter_configs", ([ConfigResource("topic", "t", incremental_configs=[ConfigEntry("a", "1")])],), {},
     TypeError, "Required attribute .value missing"),
    ("incremental_alter_configs",
     ([ConfigResource("topic", "t", incremental_configs=[ConfigEntry("a", None,
                                                                     incremental_operation=AlterConfigOpType.SET)])],),
     {}, TypeError, "Expected .value to be str type, not NoneType"),
    ("create_acls", ([_acl(), _acl()],), {}, ValueError, "duplicate ACL bindings not allowed"),
    ("create_acls", ([None],), {}, ValueError, "Expected list of <class 'confluent_kafka.admin._acl.AclBinding'>"),
    ("create_acls", ([_filter()],), {}, TypeError, "Expected .name to be str type, not NoneType"),
    ("describe_acls", (_acl(),), {}, TypeError, "Expected an AclBindingFilter object"),
    ("delete_acls", ([_filter(), _filter()],), {}, ValueError, "duplicate ACL binding filters not allowed"),
    ("delete_acls", ([],), {}, ValueError, "Expected non-empty list of AclBindingFilter objects"),
    ("list_consumer_groups", (), {"states": [ConsumerGroupState.STABLE]}, TypeError, "'states' must be a set"),
    ("list_consumer_groups", (), {"states": {"stable"}}, TypeError,
     "All elements of states must be of type ConsumerGroupState"),
    ("list_consumer_groups", (), {"types": {ConsumerGroupType.UNKNOWN}}, ValueError, "UNKNOWN type is not allowed"),
    ("list_consumer_groups", (), {"states_int": [99]}, ValueError, "Invalid group state value"),
    ("describe_consumer_groups", ("g",), {}, TypeError, "Expected input to be list of group ids to be described"),
    ("describe_consumer_groups", ([],), {}, ValueError, "Expected at least one group to be described"),
    ("describe_consumer_groups", ([None],), {}, ValueError, "Expected list of group strings, not NoneType"),
    ("delete_consumer_groups", ([1],), {}, ValueError, "Expected list of <class 'str'>"),
    ("delete_consumer_groups", (["g"],), {"operation_timeout": 1}, TypeError,
     unexpected_keyword_text("operation_timeout", ["group_ids", "future", "request_timeout"])),
    ("list_consumer_group_offsets", (ConsumerGroupTopicPartitions("g"),), {}, TypeError, "request must be a list"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")] * 2,), {}, ValueError,
     "Currently we support listing offsets for a single consumer group only"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0, 5)])],), {},
     ValueError, "Element of 'topic_partitions' must not have 'offset' value"),
    ("list_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")],), {"require_stable": 1}, TypeError,
     "Expected require_stable to be bool type, not int"),
    ("alter_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g")],), {}, ValueError,
     "'topic_partitions' cannot be null"),
    ("alter_consumer_group_offsets", ([ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0)])],), {},
     ValueError, "Element of 'topic_partitions' must not have negative value for 'offset' field"),
    ("list_offsets", ([TopicPartition("t", 0)],), {}, TypeError,
     "Expected topic_partition_offsets to be dict of [TopicPartitions,OffsetSpec] for list offsets request"),
    ("list_offsets", ({TopicPartition("t", 0): -1},), {}, TypeError, "Value must be a OffsetSpec"),
    ("list_offsets", ({TopicPartition("t", 0): OffsetSpec.latest()},), {"isolation_level": 1}, TypeError,
     "isolation_level argument should be an IsolationLevel"),
    ("delete_records", (TopicPartition("t", 0, 1),), {}, TypeError,
     "Expected Request to be a list, got 'TopicPartition' "),
    ("delete_records", ([TopicPartition("t", -1, 1)],), {}, ValueError, "'partition' cannot be negative"),
    ("elect_leaders", (0, None), {}, TypeError, "Expected 'election_type' to be of type 'ElectionType'"),
    ("elect_leaders", (ElectionType.PREFERRED, (TopicPartition("t", 0),)), {}, TypeError,
     "Expected 'partitions' to be a list, got 'tuple'"),
    ("describe_user_scram_credentials", ("u",), {}, TypeError, "Expected input to be list of String"),
    ("describe_user_scram_credentials", ([""],), {}, ValueError, "'user' cannot be empty"),
    ("describe_user_scram_credentials", (["u"],), {"request_timeout": "x", "foo": 1}, TypeError,
     "function takes at most 3 arguments (4 given)"),
    ("alter_user_scram_credentials", ([],), {}, ValueError, "Expected at least one alteration"),
    ("alter_user_scram_credentials", ([UserScramCredentialUpsertion("u", ScramCredentialInfo(
        ScramMechanism.SCRAM_SHA_256, 0), b"pw")],), {}, ValueError, "Iterations should be positive"),
    ("list_groups", (), {"group": 5}, TypeError, "argument 1 must be str or None, not int"),
    ("list_groups", (), {"timeout": "1"}, TypeError, "must be real number, not str"),
    # A close name is suggested from 3.13 on ("Did you mean 'timeout'?"), as upstream's C parser does.
    ("list_groups", (), {"timout": 1}, TypeError, unexpected_keyword_text("timout", ["group", "timeout"])),
    ("list_topics", (), {"topic": 5}, TypeError, "argument 1 must be str or None, not int"),
    ("cluster_id", (), {"timeout": "1"}, TypeError, "must be real number, not str"),
    ("poll", ("x",), {}, TypeError, "must be real number, not str"),
    ("poll", (), {}, TypeError, "function missing required argument 'timeout' (pos 1)"),
    ("set_sasl_credentials", (None, "p"), {}, TypeError, "argument 1 must be str, not None"),
]


@pytest.mark.parametrize("method, args, kwargs, exc, text", BAD_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_CALLS)])
def test_bad_arguments_raise_before_sending(admin, method, args, kwargs, exc, text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(exc) as info:
            getattr(admin, method)(*args, **kwargs)
    assert str(info.value) == text


def test_every_public_call_is_covered_by_the_bad_argument_table():
    covered = {c[0] for c in BAD_CALLS}
    public = {n for n in dir(AdminClient) if not n.startswith("_") and callable(getattr(AdminClient, n))}
    untested = public - covered - {"close"}
    assert not untested, sorted(untested)


def test_accepted_the_way_upstream_accepts(admin):
    """What upstream lets through reaches librdkafka here too (duplicates included)."""
    assert list(admin.create_topics([NewTopic("t"), NewTopic("t")])) == ["t"]
    assert list(admin.delete_topics([1])) == [1]
    assert admin.create_topics([NewTopic("t", config={"retention.ms": 1000, "x": None})])["t"].running()
    assert admin.list_offsets({}) == {}
    assert admin.describe_topics(TopicCollection([])) == {}
    assert admin.create_topics([_NT], request_timeout=-12345)  # upstream's "not given" value
    assert admin.describe_configs([ConfigResource(ResourceType.ANY, "t")])


def test_closed_client_messages():
    a = AdminClient({"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    assert a.__exit__(None, None, None) is None
    assert a.__enter__() is a and len(a) == 0
    with pytest.raises(RuntimeError, match="^AdminClient has been closed$"):
        a.create_topics([_NT])
    with pytest.raises(ValueError, match="Expected non-empty list"):
        a.create_topics([])  # the argument is checked before the client
    for call in (lambda: a.list_topics(), lambda: a.cluster_id(), lambda: a.set_sasl_credentials("u", "p")):
        with pytest.raises(RuntimeError, match="^Handle has been closed$"):
            call()


def test_len_and_cluster_id(admin):
    assert isinstance(len(admin), int)
    with pytest.raises(KafkaException) as info:
        admin.cluster_id(timeout=0.1)
    assert info.value.args[0].code() == KafkaError._TIMED_OUT
    assert "Failed to retrieve cluster id" in info.value.args[0].str()


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
    ("_describe_configs", ("future", [(2, "")], None), ValueError),
    ("_describe_configs", ("future", [(2, "t")], {"broker": -1}), ValueError),
    ("_describe_configs", ("future", [(2, "t")], {"request_timeout": 1.5}), TypeError),  # milliseconds: an int
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
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'conf'"):
        AdminClient(**{"bootstrap.servers": "127.0.0.1:1"})  # type: ignore[call-arg]
    a = AdminClient({}, **{"bootstrap.servers": "127.0.0.1:1", "log_level": 0})
    assert a.close() is True
