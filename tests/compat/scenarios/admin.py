"""AdminClient without a broker: argument checking of every method, the value classes, enums,
futures and their timeouts, a closed client. The client points at 127.0.0.1:1 (nothing listens)
and short timeouts keep every request bounded."""
from __future__ import annotations

import warnings
from typing import Any, Callable

from observe import data, outcome, raised, text

from confluent_kafka import (
    ConsumerGroupState,
    ConsumerGroupTopicPartitions,
    ConsumerGroupType,
    ElectionType,
    IsolationLevel,
    TopicCollection,
    TopicPartition,
)
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
    NewPartitions,
    NewTopic,
    OffsetSpec,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

warnings.simplefilter("ignore", DeprecationWarning)

CONF = {"bootstrap.servers": "127.0.0.1:1", "log_level": 0, "socket.timeout.ms": 1000}
_CLIENT: list[AdminClient] = []


def _admin() -> AdminClient:
    if not _CLIENT:
        _CLIENT.append(AdminClient(dict(CONF)))
    return _CLIENT[0]


def _calls(fn: Callable[..., Any], cases: dict[str, tuple[tuple[Any, ...], dict[str, Any]]]) -> dict[str, Any]:
    return {name: outcome(fn, *args, **kwargs) for name, (args, kwargs) in cases.items()}


def _a(*args: Any, **kwargs: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return args, kwargs


def _group_ids_cases(**extra: tuple[tuple[Any, ...], dict[str, Any]]
                     ) -> dict[str, tuple[tuple[Any, ...], dict[str, Any]]]:
    """The group id lists that describe_consumer_groups and delete_consumer_groups are both
    called with (good, None, a bare string, empty, bad items, a duplicate), then ``extra``."""
    return {"ok": _a(["g"]), "none": _a(None), "str": _a("g"), "empty": _a([]), "none_item": _a([None]),
            "int_item": _a([1]), "empty_name": _a([""]), "dup": _a(["g", "g"]), **extra}


def _acl(**over: Any) -> AclBinding:
    args: dict[str, Any] = dict(restype=ResourceType.TOPIC, name="t", resource_pattern_type=ResourcePatternType.LITERAL,
                                principal="User:a", host="*", operation=AclOperation.READ,
                                permission_type=AclPermissionType.ALLOW)
    args.update(over)
    return AclBinding(**args)


def _filter(**over: Any) -> AclBindingFilter:
    args: dict[str, Any] = dict(restype=ResourceType.ANY, name=None, resource_pattern_type=ResourcePatternType.ANY,
                                principal=None, host=None, operation=AclOperation.ANY,
                                permission_type=AclPermissionType.ANY)
    args.update(over)
    return AclBindingFilter(**args)


# ---- argument checks, method by method -----------------------------------------------------

def scenario_create_topics_args() -> Any:
    a = _admin()
    return _calls(a.create_topics, {
        "str_list": _a(["t"]),
        "none": _a(None),
        "str": _a("t"),
        "empty": _a([]),
        "none_item": _a([None]),
        "tuple": _a((NewTopic("t"),)),
        "dup": _a([NewTopic("t"), NewTopic("t")]),
        "int_item": _a([1]),
        "empty_name": _a([NewTopic("")]),
        "cfg_int": _a([NewTopic("t", config={"retention.ms": 1000})]),
        "cfg_none": _a([NewTopic("t", config={"retention.ms": None})]),
        "cfg_float": _a([NewTopic("t", config={"x": 1.5})]),
        "cfg_bool": _a([NewTopic("t", config={"x": True})]),
        "cfg_key_int": _a([NewTopic("t", config={1: "a"})]),
        "assign_str": _a([NewTopic("t", replica_assignment="x")]),
        "assign_none_item": _a([NewTopic("t", replica_assignment=[None])]),
        "assign_str_item": _a([NewTopic("t", replica_assignment=[["x"]])]),
        "assign_with_rf": _a([NewTopic("t", 1, 1, replica_assignment=[[1]])]),
        "assign_with_np": _a([NewTopic("t", 2, replica_assignment=[[1]])]),
        "assign_ok": _a([NewTopic("t", replica_assignment=[[1], [2]])]),
        "np_zero": _a([NewTopic("t", 0)]),
        "rf_zero": _a([NewTopic("t", 1, 0)]),
        "np_neg": _a([NewTopic("t", -5)]),
        "ok": _a([NewTopic("t", 1, 1)]),
        "validate_only_str": _a([NewTopic("t")], validate_only="x"),
        "validate_only_int": _a([NewTopic("t")], validate_only=1),
        "validate_only_true": _a([NewTopic("t")], validate_only=True),
        "rt_str": _a([NewTopic("t")], request_timeout="x"),
        "rt_neg": _a([NewTopic("t")], request_timeout=-1),
        "rt_neg2": _a([NewTopic("t")], request_timeout=-2),
        "rt_int": _a([NewTopic("t")], request_timeout=1),
        "rt_none": _a([NewTopic("t")], request_timeout=None),
        "rt_huge": _a([NewTopic("t")], request_timeout=1e12),
        "ot_str": _a([NewTopic("t")], operation_timeout="x"),
        "ot_neg": _a([NewTopic("t")], operation_timeout=-3),
        "unknown_kw": _a([NewTopic("t")], foo=1),
        "positional_timeout": _a([NewTopic("t")], 1.0),
    })


def scenario_delete_topics_args() -> Any:
    a = _admin()
    return _calls(a.delete_topics, {
        "ok": _a(["t"]),
        "none": _a(None),
        "str": _a("t"),
        "empty": _a([]),
        "none_item": _a([None]),
        "int_item": _a([1]),
        "empty_name": _a([""]),
        "dup": _a(["t", "t"]),
        "tuple": _a(("t",)),
        "set": _a({"t"}),
        "rt_str": _a(["t"], request_timeout="x"),
        "ot_neg": _a(["t"], operation_timeout=-5),
        "unknown_kw": _a(["t"], foo=1),
    })


def scenario_create_partitions_args() -> Any:
    a = _admin()
    return _calls(a.create_partitions, {
        "ok": _a([NewPartitions("t", 2)]),
        "none": _a(None),
        "str_list": _a(["t"]),
        "empty": _a([]),
        "none_item": _a([None]),
        "dup": _a([NewPartitions("t", 2), NewPartitions("t", 3)]),
        "zero": _a([NewPartitions("t", 0)]),
        "neg": _a([NewPartitions("t", -1)]),
        "assign_ok": _a([NewPartitions("t", 3, [[1], [2]])]),
        "assign_str": _a([NewPartitions("t", 3, "x")]),
        "assign_bad_item": _a([NewPartitions("t", 3, [["x"]])]),
        "validate_only": _a([NewPartitions("t", 2)], validate_only=True),
        "validate_only_str": _a([NewPartitions("t", 2)], validate_only="x"),
    })


def scenario_describe_configs_args() -> Any:
    a = _admin()
    r = ConfigResource(ResourceType.TOPIC, "t")
    return _calls(a.describe_configs, {
        "ok": _a([r]),
        "none": _a(None),
        "str_list": _a(["t"]),
        "empty": _a([]),
        "none_item": _a([None]),
        "dup": _a([r, ConfigResource(ResourceType.TOPIC, "t")]),
        "two_brokers": _a([ConfigResource(ResourceType.BROKER, "1"), ConfigResource(ResourceType.BROKER, "2")]),
        "broker": _a([ConfigResource(ResourceType.BROKER, "1")]),
        "group": _a([ConfigResource(ResourceType.GROUP, "g")]),
        "any": _a([ConfigResource(ResourceType.ANY, "t")]),
        "unknown": _a([ConfigResource(ResourceType.UNKNOWN, "t")]),
        "empty_name": _a([ConfigResource(ResourceType.TOPIC, "")]),
        "tuple": _a((r,)),
        "rt_str": _a([r], request_timeout="x"),
        "validate_only": _a([r], validate_only=True),
    })


def scenario_alter_configs_args() -> Any:
    a = _admin()
    r = ConfigResource(ResourceType.TOPIC, "t", set_config={"retention.ms": "1"})
    return _calls(a.alter_configs, {
        "ok": _a([r]),
        "none": _a(None),
        "empty": _a([]),
        "none_item": _a([None]),
        "no_config": _a([ConfigResource(ResourceType.TOPIC, "t")]),
        "int_value": _a([ConfigResource(ResourceType.TOPIC, "t", set_config={"retention.ms": 1})]),
        "none_value": _a([ConfigResource(ResourceType.TOPIC, "t", set_config={"retention.ms": None})]),
        "int_key": _a([ConfigResource(ResourceType.TOPIC, "t", set_config={1: "a"})]),
        "dup": _a([r, ConfigResource(ResourceType.TOPIC, "t", set_config={"a": "b"})]),
        "validate_only": _a([r], validate_only=True),
        "validate_only_str": _a([r], validate_only="x"),
    })


def scenario_incremental_alter_configs_args() -> Any:
    a = _admin()

    def res(*entries: Any, restype: Any = ResourceType.TOPIC, name: str = "t") -> ConfigResource:
        return ConfigResource(restype, name, incremental_configs=list(entries))

    setop = ConfigEntry("retention.ms", "1", incremental_operation=AlterConfigOpType.SET)
    return _calls(a.incremental_alter_configs, {
        "ok": _a([res(setop)]),
        "none": _a(None),
        "empty": _a([]),
        "none_item": _a([None]),
        "str_item": _a(["t"]),
        "no_entries": _a([res()]),
        "dup": _a([res(setop), res(setop)]),
        "no_op": _a([res(ConfigEntry("a", "1"))]),
        "op_int": _a([res(ConfigEntry("a", "1", incremental_operation=0))]),
        "op_str": _a([res(ConfigEntry("a", "1", incremental_operation="SET"))]),
        "delete_value": _a([res(ConfigEntry("a", "1", incremental_operation=AlterConfigOpType.DELETE))]),
        "delete_none": _a([res(ConfigEntry("a", None, incremental_operation=AlterConfigOpType.DELETE))]),
        "set_none": _a([res(ConfigEntry("a", None, incremental_operation=AlterConfigOpType.SET))]),
        "value_int": _a([res(ConfigEntry("a", 1, incremental_operation=AlterConfigOpType.SET))]),
        "name_none": _a([res(ConfigEntry(None, "1", incremental_operation=AlterConfigOpType.SET))]),
        "entry_str": _a([res("a=1")]),
        "dup_entry": _a([res(setop, setop)]),
        "broker_two": _a([res(setop, restype=ResourceType.BROKER, name="1"),
                          res(setop, restype=ResourceType.BROKER, name="2")]),
        "broker_kw": _a([res(setop)], broker=1),
        "broker_kw_str": _a([res(setop)], broker="1"),
        "validate_only_str": _a([res(setop)], validate_only="x"),
    })


def scenario_acl_calls_args() -> Any:
    a = _admin()
    out = {}
    out["create"] = _calls(a.create_acls, {
        "ok": _a([_acl()]),
        "none": _a(None),
        "empty": _a([]),
        "none_item": _a([None]),
        "str_item": _a(["x"]),
        "dup": _a([_acl(), _acl()]),
        "filter_all_set": _a([AclBindingFilter(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:a", "*",
                                               AclOperation.READ, AclPermissionType.ALLOW)]),
        "tuple": _a((_acl(),)),
        "rt_str": _a([_acl()], request_timeout="x"),
    })
    out["describe"] = _calls(a.describe_acls, {
        "ok": _a(_filter()),
        "none": _a(None),
        "binding": _a(_acl()),
        "list": _a([_filter()]),
        "rt_neg": _a(_filter(), request_timeout=-5),
    })
    out["delete"] = _calls(a.delete_acls, {
        "ok": _a([_filter()]),
        "none": _a(None),
        "empty": _a([]),
        "none_item": _a([None]),
        "dup": _a([_filter(), _filter()]),
        "binding": _a([_acl()]),
        "single": _a(_filter()),
    })
    return out


def scenario_consumer_group_calls_args() -> Any:
    a = _admin()
    out = {}
    out["list"] = _calls(a.list_consumer_groups, {
        "ok": _a(),
        "states_set": _a(states={ConsumerGroupState.STABLE}),
        "states_list": _a(states=[ConsumerGroupState.STABLE]),
        "states_none": _a(states=None),
        "states_empty": _a(states=set()),
        "states_str": _a(states={"STABLE"}),
        "states_unknown": _a(states={ConsumerGroupState.UNKNOWN}),
        "types_set": _a(types={ConsumerGroupType.CLASSIC}),
        "types_list": _a(types=[ConsumerGroupType.CLASSIC]),
        "types_int": _a(types={1}),
        "types_unknown": _a(types={ConsumerGroupType.UNKNOWN}),
        "positional": _a(1.0),
        "rt_str": _a(request_timeout="x"),
        "unknown_kw": _a(foo=1),
    })
    out["describe"] = _calls(a.describe_consumer_groups, _group_ids_cases(
        auth_ops=_a(["g"], include_authorized_operations=True),
        auth_ops_str=_a(["g"], include_authorized_operations="x"),
    ))
    out["delete"] = _calls(a.delete_consumer_groups, _group_ids_cases(ot=_a(["g"], operation_timeout=1)))
    return out


def scenario_group_offsets_args() -> Any:
    a = _admin()
    tp = TopicPartition("t", 0)
    tpo = TopicPartition("t", 0, 5)
    cgtp = ConsumerGroupTopicPartitions
    out = {}
    out["list"] = _calls(a.list_consumer_group_offsets, {
        "ok": _a([cgtp("g")]),
        "ok_parts": _a([cgtp("g", [tp])]),
        "none": _a(None),
        "single": _a(cgtp("g")),
        "empty": _a([]),
        "two": _a([cgtp("g"), cgtp("h")]),
        "str_item": _a(["g"]),
        "none_item": _a([None]),
        "group_none": _a([cgtp(None)]),
        "group_int": _a([cgtp(1)]),
        "group_empty": _a([cgtp("")]),
        "parts_tuple": _a([cgtp("g", (tp,))]),
        "parts_empty": _a([cgtp("g", [])]),
        "parts_none_item": _a([cgtp("g", [None])]),
        "parts_str_item": _a([cgtp("g", ["t"])]),
        "parts_empty_topic": _a([cgtp("g", [TopicPartition("", 0)])]),
        "parts_neg_partition": _a([cgtp("g", [TopicPartition("t", -1)])]),
        "parts_offset": _a([cgtp("g", [tpo])]),
        "parts_dup": _a([cgtp("g", [tp, TopicPartition("t", 0)])]),
        "require_stable": _a([cgtp("g")], require_stable=True),
        "require_stable_str": _a([cgtp("g")], require_stable="x"),
    })
    out["alter"] = _calls(a.alter_consumer_group_offsets, {
        "ok": _a([cgtp("g", [tpo])]),
        "none": _a(None),
        "single": _a(cgtp("g", [tpo])),
        "empty": _a([]),
        "two": _a([cgtp("g", [tpo]), cgtp("h", [tpo])]),
        "str_item": _a(["g"]),
        "group_none": _a([cgtp(None, [tpo])]),
        "group_int": _a([cgtp(1, [tpo])]),
        "group_empty": _a([cgtp("", [tpo])]),
        "parts_none": _a([cgtp("g")]),
        "parts_tuple": _a([cgtp("g", (tpo,))]),
        "parts_empty": _a([cgtp("g", [])]),
        "parts_none_item": _a([cgtp("g", [None])]),
        "parts_str_item": _a([cgtp("g", ["t"])]),
        "parts_empty_topic": _a([cgtp("g", [TopicPartition("", 0, 1)])]),
        "parts_neg_partition": _a([cgtp("g", [TopicPartition("t", -1, 1)])]),
        "parts_no_offset": _a([cgtp("g", [tp])]),
        "parts_dup": _a([cgtp("g", [tpo, TopicPartition("t", 0, 7)])]),
    })
    return out


def scenario_describe_topics_args() -> Any:
    a = _admin()
    return _calls(a.describe_topics, {
        "ok": _a(TopicCollection(["t"])),
        "list": _a(["t"]),
        "none": _a(None),
        "names_none": _a(TopicCollection(None)),
        "names_str": _a(TopicCollection("t")),
        "names_tuple": _a(TopicCollection(("t",))),
        "names_empty": _a(TopicCollection([])),
        "names_none_item": _a(TopicCollection([None])),
        "names_int_item": _a(TopicCollection([1])),
        "names_empty_item": _a(TopicCollection([""])),
        "names_dup": _a(TopicCollection(["t", "t"])),
        "auth_ops": _a(TopicCollection(["t"]), include_authorized_operations=True),
        "auth_ops_str": _a(TopicCollection(["t"]), include_authorized_operations="x"),
    })


def scenario_describe_cluster_args() -> Any:
    a = _admin()
    return _calls(a.describe_cluster, {
        "ok": _a(),
        "auth_ops": _a(include_authorized_operations=True),
        "auth_ops_str": _a(include_authorized_operations="x"),
        "positional": _a(1),
        "rt_str": _a(request_timeout="x"),
        "unknown_kw": _a(foo=1),
    })


def scenario_list_offsets_args() -> Any:
    a = _admin()
    tp = TopicPartition("t", 0)
    return _calls(a.list_offsets, {
        "ok": _a({tp: OffsetSpec.latest()}),
        "ok_many": _a({tp: OffsetSpec.earliest(), TopicPartition("t", 1): OffsetSpec.max_timestamp(),
                       TopicPartition("u", 0): OffsetSpec.for_timestamp(5)}),
        "none": _a(None),
        "list": _a([tp]),
        "empty": _a({}),
        "key_str": _a({"t": OffsetSpec.latest()}),
        "key_none": _a({None: OffsetSpec.latest()}),
        "empty_topic": _a({TopicPartition("", 0): OffsetSpec.latest()}),
        "neg_partition": _a({TopicPartition("t", -1): OffsetSpec.latest()}),
        "spec_none": _a({tp: None}),
        "spec_int": _a({tp: -1}),
        "dup": _a({tp: OffsetSpec.latest(), TopicPartition("t", 0, 5): OffsetSpec.earliest()}),
        "isolation": _a({tp: OffsetSpec.latest()}, isolation_level=IsolationLevel.READ_COMMITTED),
        "isolation_int": _a({tp: OffsetSpec.latest()}, isolation_level=1),
        "isolation_none": _a({tp: OffsetSpec.latest()}, isolation_level=None),
        "rt_str": _a({tp: OffsetSpec.latest()}, request_timeout="x"),
    })


def scenario_delete_records_args() -> Any:
    a = _admin()
    return _calls(a.delete_records, {
        "ok": _a([TopicPartition("t", 0, 5)]),
        "ok_end": _a([TopicPartition("t", 0, -1)]),
        "none": _a(None),
        "empty": _a([]),
        "tuple": _a((TopicPartition("t", 0, 5),)),
        "none_item": _a([None]),
        "str_item": _a(["t"]),
        "neg_partition": _a([TopicPartition("t", -1, 5)]),
        "empty_topic": _a([TopicPartition("", 0, 5)]),
        "no_offset": _a([TopicPartition("t", 0)]),
        "neg_offset": _a([TopicPartition("t", 0, -2)]),
        "dup": _a([TopicPartition("t", 0, 5), TopicPartition("t", 0, 6)]),
        "ot": _a([TopicPartition("t", 0, 5)], operation_timeout=1),
    })


def scenario_elect_leaders_args() -> Any:
    a = _admin()
    tp = TopicPartition("t", 0)
    return _calls(a.elect_leaders, {
        "ok": _a(ElectionType.PREFERRED, [tp]),
        "all": _a(ElectionType.UNCLEAN, None),
        "no_partitions": _a(ElectionType.UNCLEAN),
        "type_none": _a(None, [tp]),
        "type_int": _a(0, [tp]),
        "type_str": _a("PREFERRED", [tp]),
        "parts_str": _a(ElectionType.PREFERRED, "t"),
        "parts_tuple": _a(ElectionType.PREFERRED, (tp,)),
        "parts_empty": _a(ElectionType.PREFERRED, []),
        "parts_none_item": _a(ElectionType.PREFERRED, [None]),
        "parts_neg": _a(ElectionType.PREFERRED, [TopicPartition("t", -1)]),
        "parts_empty_topic": _a(ElectionType.PREFERRED, [TopicPartition("", 0)]),
        "parts_dup": _a(ElectionType.PREFERRED, [tp, TopicPartition("t", 0)]),
        "parts_offset": _a(ElectionType.PREFERRED, [TopicPartition("t", 0, 5)]),
    })


def scenario_elect_leaders_timeouts() -> Any:
    """Upstream's elect_leaders raises SystemError for any keyword (its C parser is broken);
    ours takes request_timeout and operation_timeout (deliberate.py)."""
    a = _admin()
    tp = TopicPartition("t", 0)
    return {"ot": outcome(lambda: type(a.elect_leaders(ElectionType.PREFERRED, [tp], operation_timeout=1)).__name__),
            "rt": outcome(lambda: type(a.elect_leaders(ElectionType.PREFERRED, [tp], request_timeout=1)).__name__)}


def scenario_create_acls_filter_with_none() -> Any:
    """A filter whose name is None given to create_acls: upstream's C fails with SystemError;
    ours says what is wrong (deliberate.py)."""
    return outcome(_admin().create_acls, [_filter()])


def scenario_scram_calls_args() -> Any:
    a = _admin()
    info = ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 10000)
    ups = UserScramCredentialUpsertion
    out = {}
    out["describe"] = _calls(a.describe_user_scram_credentials, {
        "ok": _a(["u"]),
        "all": _a(),
        "none": _a(None),
        "str": _a("u"),
        "empty": _a([]),
        "none_item": _a([None]),
        "int_item": _a([1]),
        "empty_item": _a([""]),
        "dup": _a(["u", "u"]),
        "tuple": _a(("u",)),
    })
    out["alter"] = _calls(a.alter_user_scram_credentials, {
        "ok": _a([ups("u", info, b"pw")]),
        "ok_salt": _a([ups("u", info, b"pw", b"salt")]),
        "delete": _a([UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_512)]),
        "both_same_user": _a([ups("u", info, b"pw"), UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_512)]),
        "dup": _a([ups("u", info, b"pw"), ups("u", info, b"pw")]),
        "none": _a(None),
        "empty": _a([]),
        "tuple": _a((ups("u", info, b"pw"),)),
        "none_item": _a([None]),
        "base": _a([UserScramCredentialAlteration("u")]),
        "user_none": _a([ups(None, info, b"pw")]),
        "user_int": _a([ups(1, info, b"pw")]),
        "user_empty": _a([ups("", info, b"pw")]),
        "pw_none": _a([ups("u", info, None)]),
        "pw_str": _a([ups("u", info, "pw")]),
        "pw_empty": _a([ups("u", info, b"")]),
        "salt_empty": _a([ups("u", info, b"pw", b"")]),
        "salt_str": _a([ups("u", info, b"pw", "s")]),
        "info_none": _a([ups("u", None, b"pw")]),
        "iter_zero": _a([ups("u", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 0), b"pw")]),
        "mech_int": _a([ups("u", ScramCredentialInfo(1, 100), b"pw")]),
        "mech_unknown": _a([ups("u", ScramCredentialInfo(ScramMechanism.UNKNOWN, 100), b"pw")]),
        "del_mech_int": _a([UserScramCredentialDeletion("u", 1)]),
        "del_mech_unknown": _a([UserScramCredentialDeletion("u", ScramMechanism.UNKNOWN)]),
    })
    return out


def scenario_misc_calls() -> Any:
    a = _admin()
    return {
        "list_groups": outcome(a.list_groups, timeout=0.2),
        "list_groups_kw": outcome(a.list_groups, group="g", timeout=0.2),
        "list_groups_bad_group": outcome(a.list_groups, group=1, timeout=0.2),
        "list_topics": outcome(a.list_topics, timeout=0.2),
        "list_topics_topic_int": outcome(a.list_topics, topic=1, timeout=0.2),
        "cluster_id": outcome(a.cluster_id, timeout=0.2),
        "cluster_id_str": outcome(a.cluster_id, timeout="x"),
        "cluster_id_pos": outcome(a.cluster_id, 0.2),
        "cluster_id_kw": outcome(a.cluster_id, foo=1),
        "poll": outcome(lambda: type(a.poll(0)).__name__),
        "poll_none": outcome(a.poll, None),
        "poll_kw": outcome(lambda: type(a.poll(timeout=0.0)).__name__),
        "poll_bad_kw": outcome(a.poll, tmo=0),
        "poll_noarg": outcome(a.poll),
        "poll_str": outcome(a.poll, "x"),
        "sasl": outcome(a.set_sasl_credentials, "u", "p"),
        "sasl_none": outcome(a.set_sasl_credentials, None, "p"),
        "sasl_int": outcome(a.set_sasl_credentials, "u", 1),
        "len_type": type(len(a)).__name__,
    }


# ---- futures and timeouts ----------------------------------------------------------------

def _failure(fut: Any) -> Any:
    exc = fut.exception(timeout=10)
    if exc is None:
        return {"result": data(fut.result())}
    err = exc.args[0] if exc.args else None
    return {"exc": raised(exc), "code": getattr(err, "name", lambda: None)() if err is not None and hasattr(err, "name") else None,
            "retriable": err.retriable() if hasattr(err, "retriable") else None,
            "fatal": err.fatal() if hasattr(err, "fatal") else None}


def scenario_request_timeouts() -> Any:
    a = AdminClient(dict(CONF))
    rt = 0.3
    tp = TopicPartition("t", 0)
    out: dict[str, Any] = {}
    futs: dict[str, Any] = {
        "create_topics": a.create_topics([NewTopic("t", 1, 1)], request_timeout=rt)["t"],
        "delete_topics": a.delete_topics(["t"], request_timeout=rt)["t"],
        "create_partitions": a.create_partitions([NewPartitions("t", 2)], request_timeout=rt)["t"],
        "describe_configs": list(a.describe_configs([ConfigResource("topic", "t")], request_timeout=rt).values())[0],
        "alter_configs": list(a.alter_configs([ConfigResource("topic", "t", set_config={"a": "b"})],
                                              request_timeout=rt).values())[0],
        "incremental_alter_configs": list(a.incremental_alter_configs(
            [ConfigResource("topic", "t", incremental_configs=[
                ConfigEntry("a", "b", incremental_operation=AlterConfigOpType.SET)])],
            request_timeout=rt).values())[0],
        "create_acls": list(a.create_acls([_acl()], request_timeout=rt).values())[0],
        "describe_acls": a.describe_acls(_filter(), request_timeout=rt),
        "delete_acls": list(a.delete_acls([_filter()], request_timeout=rt).values())[0],
        "list_consumer_groups": a.list_consumer_groups(request_timeout=rt),
        "describe_consumer_groups": a.describe_consumer_groups(["g"], request_timeout=rt)["g"],
        "delete_consumer_groups": a.delete_consumer_groups(["g"], request_timeout=rt)["g"],
        "list_consumer_group_offsets": a.list_consumer_group_offsets([ConsumerGroupTopicPartitions("g")],
                                                                     request_timeout=rt)["g"],
        "alter_consumer_group_offsets": a.alter_consumer_group_offsets(
            [ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0, 1)])], request_timeout=rt)["g"],
        "describe_topics": a.describe_topics(TopicCollection(["t"]), request_timeout=rt)["t"],
        "describe_cluster": a.describe_cluster(request_timeout=rt),
        "list_offsets": list(a.list_offsets({tp: OffsetSpec.latest()}, request_timeout=rt).values())[0],
        "delete_records": list(a.delete_records([TopicPartition("t", 0, 1)], request_timeout=rt).values())[0],
        "elect_leaders": a.elect_leaders(ElectionType.PREFERRED, [tp]),
        "describe_user_scram_credentials": a.describe_user_scram_credentials(["u"], request_timeout=rt)["u"],
        "describe_all_scram": a.describe_user_scram_credentials(request_timeout=rt),
        "alter_user_scram_credentials": a.alter_user_scram_credentials(
            [UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_256)], request_timeout=rt)["u"],
    }
    for name, fut in futs.items():
        out[name] = {"type": type(fut).__name__, "outcome": _failure(fut)}
    groups = futs["list_consumer_groups"].result()
    out["list_consumer_groups_result"] = {
        "valid": data(groups.valid),
        "errors": [{"type": type(e).__name__, "code": e.code(), "text": e.str()} for e in groups.errors]}
    return out


def scenario_future_states() -> Any:
    """Every returned future is already running (it cannot be cancelled), as upstream's are."""
    a = _admin()
    out = {}
    futs = a.create_topics([NewTopic("s1"), NewTopic("s2")])
    out["create_topics"] = {k: [f.running(), f.done(), f.cancel()] for k, f in futs.items()}
    f = a.describe_cluster()
    out["describe_cluster"] = [f.running(), f.done(), f.cancel(), f.cancelled()]
    f = a.list_consumer_groups()
    out["list_consumer_groups"] = [f.running(), f.cancel()]
    f = a.describe_user_scram_credentials()
    out["describe_all_scram"] = [f.running(), f.cancel()]
    return out


def scenario_arg_order() -> Any:
    """Which error wins when a call has several: upstream's Python checks, then its C parser
    (too many arguments, types, unknown keywords), the bool flags, the list, a closed client or
    an option out of range, then the items."""
    a = _admin()
    nt = NewTopic("t")
    cases: dict[str, Callable[[], Any]] = {
        "ct_empty_rt": lambda: a.create_topics([], request_timeout=-1),
        "ct_empty_vo": lambda: a.create_topics([], validate_only=1),
        "ct_np_rt": lambda: a.create_topics([NewTopic("t", -5)], request_timeout=-1),
        "ct_np_vo": lambda: a.create_topics([NewTopic("t", -5)], validate_only=1),
        "ct_vo_rtstr": lambda: a.create_topics([nt], validate_only=1, request_timeout="x"),
        "ct_vo_foo": lambda: a.create_topics([nt], validate_only=1, foo=2),
        "ct_rtstr_foo": lambda: a.create_topics([nt], request_timeout="x", foo=2),
        "ct_rt_ot": lambda: a.create_topics([nt], request_timeout=-1, operation_timeout=-5),
        "ct_too_many": lambda: a.create_topics([nt], validate_only=True, request_timeout=1, operation_timeout=1, x=1),
        "ct_future_kw": lambda: a.create_topics([nt], future=1),
        "ct_two_bad": lambda: a.create_topics([NewTopic("t", -5), NewTopic("u", replica_assignment="x")]),
        "ct_duck": lambda: a.create_topics([type("NT", (), {"topic": "x"})()]),
        "ct_rt_tiny_neg": lambda: a.create_topics([nt], request_timeout=-0.0001),
        "ct_rt_unset": lambda: type(a.create_topics([nt], request_timeout=-12345)).__name__,
        "ct_rt_max": lambda: type(a.create_topics([nt], request_timeout=3600)).__name__,
        "ct_rt_over": lambda: a.create_topics([nt], request_timeout=3600.001),
        "ct_rt_nan": lambda: a.create_topics([nt], request_timeout=float("nan")),
        "ct_rt_inf": lambda: a.create_topics([nt], request_timeout=float("inf")),
        "ct_rt_bool": lambda: type(a.create_topics([nt], request_timeout=True)).__name__,
        "dt_empty_rt": lambda: a.delete_topics([], request_timeout=-1),
        "dt_none_rt": lambda: a.delete_topics([None], request_timeout=-1),
        "dt_bytes": lambda: list(a.delete_topics([b"a"])),
        "dc_broker_rt": lambda: a.describe_configs([ConfigResource("topic", "t")], broker=-1, request_timeout=-1),
        "dc_empty_name_rt": lambda: a.describe_configs([ConfigResource("topic", "")], request_timeout=-1),
        "dc_name_int": lambda: a.describe_configs([ConfigResource("topic", 1)]),
        "dc_broker_float": lambda: a.describe_configs([ConfigResource("topic", "t")], broker=1.5),
        "dc_broker_big": lambda: a.describe_configs([ConfigResource("topic", "t")], broker=2 ** 40),
        "ac_name_int": lambda: a.alter_configs([ConfigResource("topic", 1, set_config={"a": "b"})]),
        "dcg_none_rt": lambda: a.describe_consumer_groups([None], request_timeout=-1),
        "dcg_none_auth": lambda: a.describe_consumer_groups([None], include_authorized_operations=1),
        "dcg_future_kw": lambda: a.describe_consumer_groups(["g"], future=1),
        "dt2_empty_rt": lambda: a.describe_topics(TopicCollection([""]), request_timeout=-1),
        "dt2_int_auth": lambda: a.describe_topics(TopicCollection([1]), include_authorized_operations=1),
        "dt2_empty_list_rt": lambda: a.describe_topics(TopicCollection([]), request_timeout=-1),
        "lo_empty_rt": lambda: a.list_offsets({}, request_timeout=-1),
        "dr_empty_rt": lambda: a.delete_records([], request_timeout=-1),
        "dus_empty_rt": lambda: a.describe_user_scram_credentials([], request_timeout=-1),
        "dus_none_rt": lambda: a.describe_user_scram_credentials(None, request_timeout=-1),
        "dus_too_many": lambda: a.describe_user_scram_credentials(["u"], request_timeout="x", foo=1),
        "lcg_types_unknown_rt": lambda: a.list_consumer_groups(types={ConsumerGroupType.UNKNOWN}, request_timeout=-1),
        "lcg_states_int_bad": lambda: a.list_consumer_groups(states_int=[99], types_int=[99]),
        "lcg_states_int_str": lambda: a.list_consumer_groups(states_int=["x"]),
        "lcg_states_int_tuple": lambda: a.list_consumer_groups(states_int=(1,)),
        "lcg_types_int_bad": lambda: a.list_consumer_groups(types_int=[99]),
        "lcg_types_int_unknown": lambda: a.list_consumer_groups(types_int=[0]),
        "lcg_types_unknown": lambda: a.list_consumer_groups(types={ConsumerGroupType.UNKNOWN}),
        "da_binding_rt": lambda: a.describe_acls(_acl(), request_timeout=-1),
        "iac_no_entries_rt": lambda: a.incremental_alter_configs([ConfigResource("topic", "t")], request_timeout=-1),
        "iac_empty_name": lambda: a.incremental_alter_configs([ConfigResource("topic", "", incremental_configs=[
            ConfigEntry("a", "b", incremental_operation=AlterConfigOpType.SET)])]),
        "iac_all_none": lambda: a.incremental_alter_configs([ConfigResource("topic", "t", incremental_configs=[
            ConfigEntry(None, None, incremental_operation=None)])]),
        "iac_op_other_enum": lambda: a.incremental_alter_configs([ConfigResource("topic", "t", incremental_configs=[
            ConfigEntry("a", None, incremental_operation=ConfigSource.DEFAULT_CONFIG)])]),
        "lcgo_stable_rtstr": lambda: a.list_consumer_group_offsets([ConsumerGroupTopicPartitions("g")],
                                                                  require_stable=1, request_timeout="x"),
    }
    return {name: outcome(fn) for name, fn in cases.items()}


def scenario_closed_arg_order() -> Any:
    """A closed client: argument errors found before the closed check still win."""
    a = AdminClient(dict(CONF))
    a.__exit__(None, None, None)
    cases: dict[str, Callable[[], Any]] = {
        "ct_empty": lambda: a.create_topics([]),
        "ct_foo": lambda: a.create_topics([NewTopic("t")], foo=1),
        "ct_rtstr": lambda: a.create_topics([NewTopic("t")], request_timeout="x"),
        "ct_rt_neg": lambda: a.create_topics([NewTopic("t")], request_timeout=-1),
        "ct_np_bad": lambda: a.create_topics([NewTopic("t", -5)]),
        "dt_str": lambda: a.delete_topics("t"),
        "da_none": lambda: a.describe_acls(None),
        "lcg_states_list": lambda: a.list_consumer_groups(states=[1]),
        "dcg_none_item": lambda: a.describe_consumer_groups([None]),
        "dt2_empty_name": lambda: a.describe_topics(TopicCollection([""])),
        "list_topics_int": lambda: a.list_topics(topic=1),
        "cluster_id_str": lambda: a.cluster_id(timeout="x"),
        "list_groups_int": lambda: a.list_groups(group=1),
        "poll_str": lambda: a.poll("x"),
        "sasl_ints": lambda: a.set_sasl_credentials(1, 2),
        "close": lambda: a.close() if hasattr(a, "close") else None,
    }
    return {name: outcome(fn) for name, fn in cases.items() if name != "close"}


def scenario_future_maps() -> Any:
    """The keys of each returned dict of futures, and their order."""
    a = _admin()
    r1, r2 = ConfigResource("topic", "b"), ConfigResource("topic", "a")
    tp1, tp2 = TopicPartition("t", 1, 5), TopicPartition("t", 0, 5)
    out: dict[str, Any] = {}
    out["create_topics"] = list(a.create_topics([NewTopic("b"), NewTopic("a")]))
    out["delete_topics"] = list(a.delete_topics(["b", "a"]))
    out["describe_configs"] = [repr(k) for k in a.describe_configs([r1, r2])]
    out["delete_records"] = [repr(k) for k in a.delete_records([tp1, tp2])]
    lo = a.list_offsets({TopicPartition("t", 1): OffsetSpec.latest(), TopicPartition("t", 0): OffsetSpec.earliest()})
    out["list_offsets"] = [repr(k) for k in lo]
    out["list_offsets_key_offsets"] = [k.offset for k in lo]
    out["alter_scram"] = sorted(a.alter_user_scram_credentials([
        UserScramCredentialDeletion("b", ScramMechanism.SCRAM_SHA_256),
        UserScramCredentialDeletion("a", ScramMechanism.SCRAM_SHA_256)]))
    out["describe_topics"] = list(a.describe_topics(TopicCollection(["b", "a"])))
    out["describe_groups"] = list(a.describe_consumer_groups(["b", "a"]))
    return out


def _every_call(a: AdminClient) -> dict[str, Any]:
    """Every method of a client that has no handle, with valid arguments."""
    tp = TopicPartition("t", 0)
    calls: dict[str, Callable[[], Any]] = {
        "enter": lambda: a.__enter__() is a,
        "len": lambda: len(a),
        "poll": lambda: a.poll(0),
        "create_topics": lambda: a.create_topics([NewTopic("t")]),
        "create_topics_bad": lambda: a.create_topics(None),
        "delete_topics": lambda: a.delete_topics(["t"]),
        "create_partitions": lambda: a.create_partitions([NewPartitions("t", 2)]),
        "describe_configs": lambda: a.describe_configs([ConfigResource("topic", "t")]),
        "alter_configs": lambda: a.alter_configs([ConfigResource("topic", "t", set_config={"a": "b"})]),
        "incremental_alter_configs": lambda: a.incremental_alter_configs([ConfigResource(
            "topic", "t", incremental_configs=[ConfigEntry("a", "b", incremental_operation=AlterConfigOpType.SET)])]),
        "create_acls": lambda: a.create_acls([_acl()]),
        "describe_acls": lambda: a.describe_acls(_filter()),
        "delete_acls": lambda: a.delete_acls([_filter()]),
        "list_consumer_groups": lambda: a.list_consumer_groups(),
        "describe_consumer_groups": lambda: a.describe_consumer_groups(["g"]),
        "delete_consumer_groups": lambda: a.delete_consumer_groups(["g"]),
        "list_consumer_group_offsets": lambda: a.list_consumer_group_offsets([ConsumerGroupTopicPartitions("g")]),
        "alter_consumer_group_offsets": lambda: a.alter_consumer_group_offsets(
            [ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0, 1)])]),
        "describe_topics": lambda: a.describe_topics(TopicCollection(["t"])),
        "describe_cluster": lambda: a.describe_cluster(),
        "list_offsets": lambda: a.list_offsets({tp: OffsetSpec.latest()}),
        "delete_records": lambda: a.delete_records([TopicPartition("t", 0, 1)]),
        "elect_leaders": lambda: a.elect_leaders(ElectionType.PREFERRED, [tp]),
        "describe_user_scram_credentials": lambda: a.describe_user_scram_credentials(["u"]),
        "alter_user_scram_credentials": lambda: a.alter_user_scram_credentials(
            [UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_256)]),
        "list_topics": lambda: a.list_topics(timeout=0.1),
        "list_groups": lambda: a.list_groups(timeout=0.1),
        "cluster_id": lambda: a.cluster_id(timeout=0.1),
        "set_sasl_credentials": lambda: a.set_sasl_credentials("u", "p"),
    }
    return {name: outcome(fn) for name, fn in calls.items()}


def scenario_closed_client() -> Any:
    a = AdminClient(dict(CONF))
    out: dict[str, Any] = {"exit": outcome(a.__exit__, None, None, None),
                           "exit_again": outcome(a.__exit__, None, None, None)}
    out.update(_every_call(a))
    return out


class _WrappingAdmin(AdminClient):
    """A subclass that wraps another client and never calls AdminClient.__init__."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner


def scenario_uninitialised_clients() -> Any:
    """A client that never had a handle (a subclass skipping __init__, __new__ alone, an __init__
    that failed) answers as a closed one; argument errors still come first."""
    failed = _WrappingAdmin.__new__(_WrappingAdmin)
    init = outcome(lambda: AdminClient.__init__(failed, {**CONF, "acks": "bogus"}))
    out: dict[str, Any] = {"failed init": init}
    for name, a in (("subclass", _WrappingAdmin(None)), ("bare __new__", AdminClient.__new__(AdminClient)),
                    ("after failed init", failed)):
        seen = _every_call(a)
        seen["create_topics empty"] = outcome(lambda: a.create_topics([]))
        seen["list_topics int"] = outcome(lambda: a.list_topics(topic=1))
        seen["bool"] = outcome(lambda: bool(a))
        seen["exit"] = outcome(a.__exit__, None, None, None)
        seen["poll after exit"] = outcome(a.poll, 0)
        out[name] = seen
    return out


def scenario_context_manager() -> Any:
    with AdminClient(dict(CONF)) as a:
        inside = outcome(a.describe_cluster, request_timeout=0.2)
        entered = type(a).__name__
    return {"inside": inside, "entered": entered, "after": outcome(a.describe_cluster)}


def scenario_constructor() -> Any:
    return {
        "no_args": outcome(AdminClient),
        "none": outcome(AdminClient, None),
        "str": outcome(AdminClient, "x"),
        "empty": text(lambda: type(AdminClient({})).__name__),
        "kwargs_only": text(lambda: type(AdminClient(**{"bootstrap.servers": "127.0.0.1:1"})).__name__),
        "bad_key": outcome(AdminClient, {"bootstrap.servers": "127.0.0.1:1", "no.such.key": 1}),
        "dict_and_kwargs": text(lambda: type(AdminClient({"bootstrap.servers": "127.0.0.1:1"},
                                                          logger=None)).__name__),
    }


# ---- value classes ---------------------------------------------------------------------------

def _r(value: Any) -> str:
    """repr() with object addresses masked (default reprs name them)."""
    import re

    return re.sub(r" at 0x[0-9a-f]+", " at ADDR", repr(value))


def _rs(fn: Callable[[], Any]) -> Any:
    try:
        v = fn()
    except Exception as exc:  # noqa: BLE001
        return raised(exc)
    return {"repr": _r(v), "str": re.sub(r" at 0x[0-9a-f]+", " at ADDR", str(v)), "type": type(v).__name__}


import re  # noqa: E402


def _attrs(obj: Any) -> Any:
    return {k: _r(v) for k, v in sorted(vars(obj).items())} if hasattr(obj, "__dict__") else None


def _enum_members(cls: Any) -> Any:
    return {"members": [[m.name, m.value] for m in cls], "aliases": sorted(cls.__members__),
            "type_mro": [c.__name__ for c in cls.__mro__],
            "module": cls.__module__, "qualname": cls.__qualname__}


def scenario_enums() -> Any:
    from confluent_kafka.admin import AclOperation as AO
    enums = {"AclOperation": AO, "AclPermissionType": AclPermissionType, "AlterConfigOpType": AlterConfigOpType,
             "ConfigSource": ConfigSource, "ConsumerGroupState": ConsumerGroupState,
             "ConsumerGroupType": ConsumerGroupType, "ElectionType": ElectionType, "IsolationLevel": IsolationLevel,
             "ResourcePatternType": ResourcePatternType, "ResourceType": ResourceType, "ScramMechanism": ScramMechanism}
    out: dict[str, Any] = {}
    for name, cls in enums.items():
        members = list(cls)
        first, last = members[0], members[-1]
        out[name] = {
            "shape": _enum_members(cls),
            "repr": repr(first), "str": str(first),
            "lt": outcome(lambda: first < last),
            "gt": outcome(lambda: last > first),
            "le": outcome(lambda: first <= last),
            "lt_int": outcome(lambda: first < 5),
            "eq_int": first == first.value,
            "sorted": outcome(lambda: [m.name for m in sorted(reversed(members))]),
            "by_value": outcome(lambda: cls(first.value).name),
            "by_bad_value": outcome(cls, 99),
            "by_name": outcome(lambda: cls[first.name].name),
            "hashable": hash(first) == hash(cls(first.value)),
            "doc": bool(cls.__doc__),
        }
    out["ConsumerGroupState_UNKOWN"] = outcome(lambda: ConsumerGroupState["UNKOWN"].name)
    out["ConsumerGroupState_UNKOWN_attr"] = outcome(lambda: ConsumerGroupState.UNKOWN is ConsumerGroupState.UNKNOWN)
    out["ConfigResource_Type"] = outcome(lambda: ConfigResource.Type is ResourceType)
    return out


def scenario_new_topic() -> Any:
    nt = NewTopic
    cases: dict[str, Callable[[], Any]] = {
        "plain": lambda: nt("a"),
        "np": lambda: nt("a", 3),
        "np_rf": lambda: nt("a", 3, 2),
        "np_neg": lambda: nt("a", -5),
        "np_zero": lambda: nt("a", 0),
        "rf_only": lambda: nt("a", replication_factor=3),
        "all_kw": lambda: nt(topic="a", num_partitions=1, replication_factor=1, replica_assignment=None, config=None),
        "config": lambda: nt("a", config={"retention.ms": 1000}),
        "config_list": lambda: nt("a", config=[1]),
        "config_str": lambda: nt("a", config="x"),
        "topic_none": lambda: nt(None),
        "topic_int": lambda: nt(1),
        "topic_bytes": lambda: nt(b"a"),
        "np_str": lambda: nt("a", "3"),
        "np_float": lambda: nt("a", 3.0),
        "np_bool": lambda: nt("a", True),
        "np_none": lambda: nt("a", None),
        "np_huge": lambda: nt("a", 2 ** 40),
        "no_args": lambda: nt(),
        "too_many": lambda: nt("a", 1, 1, None, None, 5),
        "unknown_kw": lambda: nt("a", foo=1),
        "assign_str": lambda: nt("a", replica_assignment="x"),
    }
    out: dict[str, Any] = {name: _rs(fn) for name, fn in cases.items()}
    t = nt("a", 3, 2, [[1, 2], [3]], {"k": 1})
    out["attrs"] = {k: _r(getattr(t, k)) for k in ("topic", "num_partitions", "replication_factor",
                                                   "replica_assignment", "config")}
    out["defaults"] = {k: _r(getattr(nt("a"), k)) for k in ("num_partitions", "replication_factor",
                                                            "replica_assignment", "config")}
    out["config_is_copy"] = outcome(lambda: (lambda d: nt("a", config=d).config is d)({"a": "b"}))
    out["eq"] = nt("a") == nt("a")
    out["eq_np"] = nt("a") == nt("a", 2)
    out["eq_rf"] = nt("a", 1, 1) == nt("a", 1, 2)
    out["eq_cfg"] = nt("a", config={"a": "b"}) == nt("a")
    out["ne"] = nt("a") != nt("b")
    out["lt"] = nt("a") < nt("b")
    out["lt_np"] = nt("a", 1) < nt("a", 2)
    out["gt"] = nt("b") > nt("a")
    out["le"] = nt("a") <= nt("a")
    out["eq_str"] = outcome(lambda: nt("a") == "a")
    out["ne_none"] = outcome(lambda: nt("a") != None)  # noqa: E711
    out["hash_topic"] = hash(nt("a")) == hash("a")
    out["hash_np"] = hash(nt("a", 2)) == hash(nt("a", 3))
    out["sorted"] = [x.topic for x in sorted([nt("c"), nt("a"), nt("b")])]
    out["in_set"] = len({nt("a"), nt("a"), nt("a", 2)})
    t2 = nt("a")
    out["set_topic"] = outcome(lambda: setattr(t2, "topic", "b"))
    out["set_np"] = outcome(lambda: setattr(t2, "num_partitions", 7) or t2.num_partitions)
    out["set_np_str"] = outcome(lambda: setattr(t2, "num_partitions", "x"))
    out["set_rf"] = outcome(lambda: setattr(t2, "replication_factor", 2) or t2.replication_factor)
    out["set_config"] = outcome(lambda: setattr(t2, "config", {"x": "y"}) or t2.config)
    out["set_config_none"] = outcome(lambda: setattr(t2, "config", None) or t2.config)
    out["set_assign"] = outcome(lambda: setattr(t2, "replica_assignment", [[1]]) or t2.replica_assignment)
    out["set_other"] = _kind(lambda: setattr(t2, "other", 1))
    out["del_np"] = outcome(lambda: delattr(t2, "num_partitions"))
    out["type_name"] = [type(t).__name__, type(t).__qualname__]
    out["doc"] = bool(NewTopic.__doc__)
    out["subclass"] = outcome(lambda: type("X", (NewTopic,), {})("a").topic)
    return out


def scenario_new_partitions() -> Any:
    np_ = NewPartitions
    cases: dict[str, Callable[[], Any]] = {
        "plain": lambda: np_("a", 3),
        "assign": lambda: np_("a", 3, [[1], [2]]),
        "kw": lambda: np_(topic="a", new_total_count=3, replica_assignment=None),
        "zero": lambda: np_("a", 0),
        "neg": lambda: np_("a", -1),
        "missing": lambda: np_("a"),
        "topic_none": lambda: np_(None, 1),
        "topic_int": lambda: np_(1, 1),
        "count_str": lambda: np_("a", "1"),
        "count_none": lambda: np_("a", None),
        "count_float": lambda: np_("a", 1.5),
        "assign_str": lambda: np_("a", 3, "x"),
        "too_many": lambda: np_("a", 1, None, 4),
    }
    out: dict[str, Any] = {name: _rs(fn) for name, fn in cases.items()}
    p = np_("a", 3, [[1]])
    out["attrs"] = {k: _r(getattr(p, k)) for k in ("topic", "new_total_count", "replica_assignment")}
    out["default_assign"] = _r(np_("a", 3).replica_assignment)
    out["eq"] = np_("a", 3) == np_("a", 3)
    out["eq_count"] = np_("a", 3) == np_("a", 4)
    out["eq_assign"] = np_("a", 3, [[1]]) == np_("a", 3)
    out["lt"] = np_("a", 3) < np_("b", 1)
    out["lt_count"] = np_("a", 3) < np_("a", 4)
    out["eq_str"] = outcome(lambda: np_("a", 3) == "a")
    out["hash_topic"] = hash(np_("a", 3)) == hash("a")
    out["hash_eq"] = hash(np_("a", 3)) == hash(np_("a", 3))
    out["hash_count"] = hash(np_("a", 3)) == hash(np_("a", 4))
    p2 = np_("a", 3)
    out["set_topic"] = outcome(lambda: setattr(p2, "topic", "b"))
    out["set_count"] = outcome(lambda: setattr(p2, "new_total_count", 5) or p2.new_total_count)
    out["set_assign"] = outcome(lambda: setattr(p2, "replica_assignment", [[1]]) or p2.replica_assignment)
    out["type_name"] = type(p).__name__
    return out


def scenario_uuid() -> Any:
    from confluent_kafka import Uuid

    cases: dict[str, Callable[[], Any]] = {
        "small": lambda: Uuid(1, 2),
        "zero": lambda: Uuid(0, 0),
        "neg": lambda: Uuid(-1, -2),
        "big": lambda: Uuid(2 ** 63 - 1, -(2 ** 63)),
        "too_big": lambda: Uuid(2 ** 64, 0),
        "str": lambda: Uuid("a", 0),
        "float": lambda: Uuid(1.0, 0),
        "none": lambda: Uuid(),
        "one": lambda: Uuid(1),
        "kw": lambda: Uuid(most_significant_bits=1, least_significant_bits=2),
    }
    out: dict[str, Any] = {name: _rs(fn) for name, fn in cases.items()}
    u = Uuid(-5, 7)
    out["bits"] = [u.get_most_significant_bits(), u.get_least_significant_bits()]
    out["eq"] = Uuid(1, 2) == Uuid(1, 2)
    out["eq_self"] = u == u
    out["hash"] = hash(Uuid(1, 2)) == hash(Uuid(1, 2))
    out["hash_differs"] = hash(Uuid(1, 2)) == hash(Uuid(1, 3))
    out["lt"] = _kind(lambda: Uuid(1, 2) < Uuid(1, 3))
    out["set_attr"] = _kind(lambda: setattr(u, "x", 1))
    out["type"] = type(u).__name__
    out["same_class"] = __import__("confluent_kafka").Uuid is __import__("confluent_kafka.cimpl").cimpl.Uuid
    return out


def _kind(fn: Callable[[], Any]) -> Any:
    """Only the exception type: CPython's text names the C type, whose module is
    ``confluent_kafka.cimpl`` here and ``cimpl`` upstream (true of every C type of the package)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001
        return type(exc).__name__
    return "no exception"


def scenario_c_value_pickles() -> Any:
    """NewTopic, NewPartitions and Uuid pickle and copy here (upstream refuses: deliberate.py)."""
    import copy
    import pickle

    from confluent_kafka import Uuid

    out: dict[str, Any] = {}
    for name, value in {"NewTopic": NewTopic("a", 3, 2, [[1, 2]] * 3, {"k": "v"}), "NewTopic_plain": NewTopic("a"),
                        "NewPartitions": NewPartitions("a", 4, [[1]]), "Uuid": Uuid(-5, 7)}.items():
        out[name] = {"pickle": _rs(lambda: pickle.loads(pickle.dumps(value))),
                     "copy": _rs(lambda: copy.copy(value))}
    return out


def scenario_config_classes() -> Any:
    out: dict[str, Any] = {}
    cases: dict[str, Callable[[], Any]] = {
        "entry": lambda: ConfigEntry("a", "1"),
        "entry_none": lambda: ConfigEntry("a", None),
        "entry_int": lambda: ConfigEntry("a", 1),
        "entry_name_none": lambda: ConfigEntry(None, "1"),
        "entry_op": lambda: ConfigEntry("a", "1", incremental_operation=AlterConfigOpType.SET),
        "entry_op_str": lambda: ConfigEntry("a", "1", incremental_operation="SET"),
        "entry_source_int": lambda: ConfigEntry("a", "1", source=5),
        "entry_missing": lambda: ConfigEntry("a"),
        "res_topic": lambda: ConfigResource(ResourceType.TOPIC, "t"),
        "res_str": lambda: ConfigResource("topic", "t"),
        "res_str_upper": lambda: ConfigResource("BROKER", "1"),
        "res_int": lambda: ConfigResource(2, "t"),
        "res_bad_str": lambda: ConfigResource("nope", "t"),
        "res_bad_int": lambda: ConfigResource(99, "t"),
        "res_any": lambda: ConfigResource(ResourceType.ANY, "t"),
        "res_unknown": lambda: ConfigResource(ResourceType.UNKNOWN, "t"),
        "res_name_none": lambda: ConfigResource("topic", None),
        "res_name_int": lambda: ConfigResource("topic", 1),
        "res_restype_none": lambda: ConfigResource(None, "t"),
        "res_restype_float": lambda: ConfigResource(2.0, "t"),
        "res_error": lambda: ConfigResource("topic", "t", error="boom"),
        "res_set_config_list": lambda: ConfigResource("topic", "t", set_config=[("a", "b")]),
        "res_incr_tuple": lambda: ConfigResource("topic", "t", incremental_configs=(ConfigEntry("a", "b"),)),
        "res_incr_str": lambda: ConfigResource("topic", "t", incremental_configs="ab"),
    }
    out.update({name: _rs(fn) for name, fn in cases.items()})
    e = ConfigEntry("a", "1")
    out["entry_attrs"] = _attrs(e)
    out["entry_full_attrs"] = _attrs(ConfigEntry("a", "1", ConfigSource.DEFAULT_CONFIG, 1, 0, "", [], {"x": e},
                                                 AlterConfigOpType.APPEND))
    out["entry_eq"] = ConfigEntry("a", "1") == ConfigEntry("a", "1")
    out["entry_hash_eq"] = hash(ConfigEntry("a", "1")) == hash(ConfigEntry("a", "1"))
    r = ConfigResource("topic", "t", set_config={"a": "b"})
    out["res_attrs"] = _attrs(r)
    out["res_len"] = len(r)
    r.set_config("c", "d")
    r.set_config("a", "z", overwrite=False)
    out["res_after_set"] = _r(r.set_config_dict)
    out["res_set_config_int"] = outcome(lambda: r.set_config(1, 2) or _r(r.set_config_dict))
    out["res_len2"] = len(r)
    r2 = ConfigResource("topic", "t")
    out["res_add_incr"] = outcome(lambda: r2.add_incremental_config(ConfigEntry("x", "1")) or len(r2.incremental_configs))
    out["res_add_incr_str"] = outcome(lambda: r2.add_incremental_config("x") or len(r2.incremental_configs))
    out["res_len_incr"] = len(r2)
    out["res_eq"] = ConfigResource("topic", "t") == ConfigResource(ResourceType.TOPIC, "t", set_config={"a": "b"})
    out["res_eq_other"] = outcome(lambda: ConfigResource("topic", "t") == "t")
    out["res_hash"] = hash(ConfigResource("topic", "t")) == hash((ResourceType.TOPIC, "t"))
    out["res_lt"] = ConfigResource("topic", "a") < ConfigResource("topic", "b")
    out["res_lt_type"] = ConfigResource("broker", "a") < ConfigResource("topic", "b")
    out["res_lt_type_name"] = ConfigResource("group", "a") < ConfigResource("topic", "b")
    out["res_gt"] = outcome(lambda: ConfigResource("topic", "a") > ConfigResource("topic", "b"))
    out["res_lt_other"] = outcome(lambda: ConfigResource("topic", "a") < 1)
    out["res_sorted"] = [_r(x) for x in sorted([ConfigResource("topic", "b"), ConfigResource("broker", "1"),
                                                ConfigResource("topic", "a"), ConfigResource("group", "g")])]
    out["res_error_repr"] = _r(ConfigResource("topic", "t", error=ValueError("x")))
    out["res_restype_int_attr"] = getattr(ConfigResource("topic", "t"), "restype_int", None)
    out["res_set_config_copy"] = (lambda d: ConfigResource("topic", "t", set_config=d).set_config_dict is d)({"a": "b"})
    out["type_entry"] = ConfigEntry.__module__
    out["type_res"] = ConfigResource.__module__
    return out


def scenario_config_entry_synonyms_default() -> Any:
    """Upstream's ConfigEntry shares one default synonyms dict between all entries (a mutable
    default argument); ours gives each entry its own (deliberate.py)."""
    a, b = ConfigEntry("a", "1"), ConfigEntry("b", "2")
    a.synonyms["x"] = ConfigEntry("x", "2")
    return {"shared": a.synonyms is b.synonyms, "b_sees_a": list(b.synonyms)}


def scenario_acl_classes() -> Any:
    cases: dict[str, Callable[[], Any]] = {
        "binding": lambda: _acl(),
        "binding_str_enums": lambda: _acl(restype="topic", resource_pattern_type="literal", operation="read",
                                          permission_type="allow"),
        "binding_int_enums": lambda: _acl(restype=2, resource_pattern_type=3, operation=3, permission_type=3),
        "binding_bad_str": lambda: _acl(restype="nope"),
        "binding_bad_int": lambda: _acl(restype=99),
        "binding_float": lambda: _acl(restype=2.0),
        "binding_any": lambda: _acl(restype=ResourceType.ANY),
        "binding_match": lambda: _acl(resource_pattern_type=ResourcePatternType.MATCH),
        "binding_op_any": lambda: _acl(operation=AclOperation.ANY),
        "binding_perm_any": lambda: _acl(permission_type=AclPermissionType.ANY),
        "binding_unknown": lambda: _acl(restype=ResourceType.UNKNOWN),
        "binding_name_none": lambda: _acl(name=None),
        "binding_name_int": lambda: _acl(name=1),
        "binding_principal_none": lambda: _acl(principal=None),
        "binding_host_int": lambda: _acl(host=1),
        "binding_restype_none": lambda: _acl(restype=None),
        "filter": lambda: _filter(),
        "filter_unknown": lambda: _filter(restype=ResourceType.UNKNOWN),
        "filter_unknown_op": lambda: _filter(operation=AclOperation.UNKNOWN),
        "filter_name_int": lambda: _filter(name=1),
        "filter_restype_none": lambda: _filter(restype=None),
        "filter_match": lambda: _filter(resource_pattern_type=ResourcePatternType.MATCH),
        "missing": lambda: AclBinding(ResourceType.TOPIC, "t"),
    }
    out: dict[str, Any] = {name: _rs(fn) for name, fn in cases.items()}
    out["attrs"] = _attrs(_acl())
    out["filter_attrs"] = _attrs(_filter())
    out["eq"] = _acl() == _acl()
    out["eq_filter"] = _acl() == AclBindingFilter(ResourceType.TOPIC, "t", ResourcePatternType.LITERAL, "User:a", "*",
                                                  AclOperation.READ, AclPermissionType.ALLOW)
    out["eq_other"] = outcome(lambda: _acl() == "x")
    out["hash"] = hash(_acl()) == hash(_acl())
    out["lt"] = _acl(name="a") < _acl(name="b")
    out["lt_other"] = outcome(lambda: _acl() < 1)
    out["sorted"] = [x.name for x in sorted([_acl(name="b"), _acl(name="a"), _acl(name="c")])]
    out["filter_none_sort"] = outcome(lambda: sorted([_filter(), _filter(name="x")]))
    out["mro"] = [c.__name__ for c in AclBindingFilter.__mro__]
    out["module"] = AclBinding.__module__
    return out


def scenario_offset_spec() -> Any:
    out: dict[str, Any] = {}
    specs = {"earliest": OffsetSpec.earliest(), "latest": OffsetSpec.latest(), "max": OffsetSpec.max_timestamp(),
             "ts": OffsetSpec.for_timestamp(1000)}
    for name, s in specs.items():
        out[name] = {"type": type(s).__name__, "mro": [c.__name__ for c in type(s).__mro__], "value": s._value,
                     "repr": _r(s), "attrs": _attrs(s)}
    out["same_earliest"] = OffsetSpec.earliest() is OffsetSpec.earliest()
    out["same_ts"] = OffsetSpec.for_timestamp(5) is OffsetSpec.for_timestamp(5)
    out["eq_ts"] = OffsetSpec.for_timestamp(5) == OffsetSpec.for_timestamp(5)
    out["hash_ts"] = hash(OffsetSpec.for_timestamp(5)) == hash(OffsetSpec.for_timestamp(5))
    out["index_neg1"] = _rs(lambda: type(OffsetSpec(-1)).__name__)
    out["index_neg2"] = _rs(lambda: type(OffsetSpec(-2)).__name__)
    out["index_neg3"] = _rs(lambda: type(OffsetSpec(-3)).__name__)
    out["index_neg4"] = _rs(lambda: OffsetSpec(-4))
    out["index_pos"] = _rs(lambda: (type(OffsetSpec(7)).__name__, OffsetSpec(7)._value))
    out["index_zero"] = _rs(lambda: (type(OffsetSpec(0)).__name__, OffsetSpec(0)._value))
    out["index_is_latest"] = OffsetSpec(-1) is OffsetSpec.latest()
    out["index_str"] = _rs(lambda: OffsetSpec("x"))
    out["index_none"] = _rs(lambda: OffsetSpec(None))
    out["no_index"] = _rs(lambda: OffsetSpec())
    out["lt"] = OffsetSpec.max_timestamp() < OffsetSpec.earliest() < OffsetSpec.latest() < OffsetSpec.for_timestamp(0)
    out["gt"] = outcome(lambda: OffsetSpec.latest() > OffsetSpec.earliest())
    out["le"] = outcome(lambda: OffsetSpec.latest() <= OffsetSpec.latest())
    out["lt_int"] = outcome(lambda: OffsetSpec.latest() < 1)
    out["sorted"] = [s._value for s in sorted([OffsetSpec.for_timestamp(3), OffsetSpec.latest(),
                                               OffsetSpec.max_timestamp(), OffsetSpec.earliest()])]
    out["ts_str"] = _rs(lambda: OffsetSpec.for_timestamp("x")._value)
    out["ts_neg"] = _rs(lambda: OffsetSpec.for_timestamp(-5)._value)
    out["ts_attr"] = OffsetSpec.for_timestamp(9).timestamp
    out["abstract"] = outcome(lambda: __import__("inspect").isabstract(OffsetSpec))
    out["module"] = OffsetSpec.__module__
    return out


def scenario_scram_classes() -> Any:
    info = ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096)
    cases: dict[str, Callable[[], Any]] = {
        "info": lambda: info,
        "info_int": lambda: ScramCredentialInfo(1, 0),
        "ups": lambda: UserScramCredentialUpsertion("u", info, b"pw"),
        "ups_salt": lambda: UserScramCredentialUpsertion("u", info, b"pw", b"s"),
        "ups_str_pw": lambda: UserScramCredentialUpsertion("u", info, "pw"),
        "ups_missing": lambda: UserScramCredentialUpsertion("u", info),
        "del": lambda: UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_512),
        "del_str": lambda: UserScramCredentialDeletion("u", "SCRAM_SHA_512"),
        "alt": lambda: UserScramCredentialAlteration("u"),
        "alt_none": lambda: UserScramCredentialAlteration(None),
    }
    out: dict[str, Any] = {name: _rs(fn) for name, fn in cases.items()}
    out["info_attrs"] = _attrs(info)
    out["ups_attrs"] = _attrs(UserScramCredentialUpsertion("u", info, b"pw"))
    out["del_attrs"] = _attrs(UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_512))
    out["info_eq"] = ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 1) == ScramCredentialInfo(
        ScramMechanism.SCRAM_SHA_256, 1)
    out["del_eq"] = UserScramCredentialDeletion("u", ScramMechanism.SCRAM_SHA_512) == UserScramCredentialDeletion(
        "u", ScramMechanism.SCRAM_SHA_512)
    out["mro"] = [c.__name__ for c in UserScramCredentialUpsertion.__mro__]
    out["module"] = ScramCredentialInfo.__module__
    return out


def scenario_result_classes() -> Any:
    import confluent_kafka
    from confluent_kafka.admin import (
        ConsumerGroupDescription,
        ConsumerGroupListing,
        DeletedRecords,
        DescribeClusterResult,
        ListConsumerGroupsResult,
        ListOffsetsResultInfo,
        MemberAssignment,
        MemberDescription,
        TopicDescription,
        UserScramCredentialsDescription,
    )

    Node = confluent_kafka.Node
    TopicPartitionInfo = confluent_kafka.TopicPartitionInfo
    n = Node(1, "h", 9092)
    cases: dict[str, Callable[[], Any]] = {
        "node": lambda: n,
        "node_rack": lambda: Node(1, "h", 9092, "r1"),
        "node_str_id": lambda: Node("1", "h", 9092),
        "node_missing": lambda: Node(1, "h"),
        "tpi": lambda: TopicPartitionInfo(0, n, [n], [n]),
        "td": lambda: TopicDescription("t", None, False, []),
        "td_ops": lambda: TopicDescription("t", None, False, [], [3, "READ", AclOperation.WRITE]),
        "td_ops_empty": lambda: TopicDescription("t", None, False, [], []),
        "td_ops_bad": lambda: TopicDescription("t", None, False, [], [99]),
        "cluster": lambda: DescribeClusterResult(n, [n]),
        "cluster_ops": lambda: DescribeClusterResult(n, [n], "cid", [1, 2]),
        "listing": lambda: ConsumerGroupListing("g", False),
        "listing_state": lambda: ConsumerGroupListing("g", False, 3, "CLASSIC"),
        "listing_bad_state": lambda: ConsumerGroupListing("g", False, "nope"),
        "list_result": lambda: ListConsumerGroupsResult(),
        "assignment": lambda: MemberAssignment(None),
        "assignment_missing": lambda: MemberAssignment(),
        "member": lambda: MemberDescription("m", "c", "h", MemberAssignment([])),
        "group": lambda: ConsumerGroupDescription("g", False, [], "range", ConsumerGroupState.STABLE, n),
        "group_state_int": lambda: ConsumerGroupDescription("g", False, [], "range", 3, n, None, 2),
        "group_state_none": lambda: ConsumerGroupDescription("g", False, [], "range", None, n, None, None),
        "group_ops": lambda: ConsumerGroupDescription("g", False, [], "range", "STABLE", n, ["READ"]),
        "offsets": lambda: ListOffsetsResultInfo(5, 10, 2),
        "offsets_neg_epoch": lambda: ListOffsetsResultInfo(5, 10, -1),
        "offsets_none_epoch": lambda: ListOffsetsResultInfo(5, 10, None),
        "deleted": lambda: DeletedRecords(5),
        "scram_desc": lambda: UserScramCredentialsDescription("u", []),
        "cgtp": lambda: ConsumerGroupTopicPartitions("g"),
        "cgtp_parts": lambda: ConsumerGroupTopicPartitions("g", [TopicPartition("t", 0)]),
        "tc": lambda: TopicCollection(["a"]),
        "tc_none": lambda: TopicCollection(None),
    }
    out: dict[str, Any] = {}
    for name, fn in cases.items():
        r = _rs(fn)
        if "raises" not in r:
            obj = fn()
            r["attrs"] = _attrs(obj)
            r["eq"] = obj == fn()
            r["hash_eq"] = outcome(lambda: hash(obj) == hash(fn()))
            r["module"] = type(obj).__module__
        out[name] = r
    out["node_id_string"] = Node(7, "h", 1).id_string
    out["listing_no_state_attr"] = hasattr(ConsumerGroupListing("g", False), "state")
    out["group_no_state_attr"] = hasattr(ConsumerGroupDescription("g", False, [], "r", None, n), "state")
    return out


def scenario_metadata_classes() -> Any:
    from confluent_kafka.admin import (
        BrokerMetadata,
        ClusterMetadata,
        GroupMember,
        GroupMetadata,
        PartitionMetadata,
        TopicMetadata,
    )

    out: dict[str, Any] = {}
    for cls in (BrokerMetadata, ClusterMetadata, GroupMember, GroupMetadata, PartitionMetadata, TopicMetadata):
        obj = cls()
        out[cls.__name__] = {"repr": _r(obj), "str": _r(str(obj))[1:-1], "attrs": _attrs(obj), "module": cls.__module__,
                             "eq": obj == cls()}
    t = TopicMetadata()
    t.topic = "t"
    t.partitions = {0: PartitionMetadata()}
    out["topic_filled"] = [_r(t), str(t)]
    p = PartitionMetadata()
    p.id = 3
    from confluent_kafka import KafkaError

    p.error = KafkaError(KafkaError._TIMED_OUT)
    t.error = p.error
    out["partition_error"] = [_r(p), str(p)]
    out["topic_error"] = [_r(t), str(t)]
    g = GroupMetadata()
    g.id = "g"
    g.error = p.error
    out["group_error"] = [_r(g), str(g)]
    b = BrokerMetadata()
    b.id, b.host, b.port = 1, "h", 2
    out["broker_filled"] = [_r(b), str(b)]
    c = ClusterMetadata()
    c.cluster_id = "cid"
    out["cluster_filled"] = [_r(c), str(c)]
    return out


def scenario_module_names() -> Any:
    import importlib

    out: dict[str, Any] = {}
    for mod, names in {
        "confluent_kafka.admin._acl": ["AclOperation", "AclPermissionType", "AclBinding", "AclBindingFilter",
                                       "ResourceType", "ResourcePatternType", "string_type"],
        "confluent_kafka.admin._cluster": ["DescribeClusterResult", "Node", "AclOperation"],
        "confluent_kafka.admin._config": ["AlterConfigOpType", "ConfigSource", "ConfigEntry", "ConfigResource",
                                          "ResourceType"],
        "confluent_kafka.admin._group": ["ConsumerGroupListing", "ListConsumerGroupsResult", "MemberAssignment",
                                         "MemberDescription", "ConsumerGroupDescription", "TopicPartition",
                                         "ConsumerGroupState", "ConsumerGroupType", "Node", "AclOperation"],
        "confluent_kafka.admin._listoffsets": ["OffsetSpec", "TimestampSpec", "MaxTimestampSpec", "LatestSpec",
                                               "EarliestSpec", "ListOffsetsResultInfo"],
        "confluent_kafka.admin._metadata": ["ClusterMetadata", "BrokerMetadata", "TopicMetadata",
                                            "PartitionMetadata", "GroupMember", "GroupMetadata", "KafkaError"],
        "confluent_kafka.admin._records": ["DeletedRecords"],
        "confluent_kafka.admin._resource": ["ResourceType", "ResourcePatternType"],
        "confluent_kafka.admin._scram": ["ScramMechanism", "ScramCredentialInfo", "UserScramCredentialsDescription",
                                         "UserScramCredentialAlteration", "UserScramCredentialUpsertion",
                                         "UserScramCredentialDeletion"],
        "confluent_kafka.admin._topic": ["TopicDescription", "TopicPartitionInfo", "Uuid", "AclOperation"],
        "confluent_kafka._model": ["Node", "ConsumerGroupTopicPartitions", "ConsumerGroupState",
                                   "ConsumerGroupType", "TopicCollection", "TopicPartitionInfo", "IsolationLevel",
                                   "ElectionType"],
        "confluent_kafka.admin": ["string_type", "KafkaError", "KafkaException", "OFFSET_INVALID",
                                  "_ElectionType", "_TopicCollection", "_ConsumerGroupState",
                                  "_ConsumerGroupTopicPartitions", "_ConsumerGroupType", "_IsolationLevel",
                                  "_TopicPartition", "_AdminClientImpl", "NewTopic", "NewPartitions",
                                  "CONFIG_SOURCE_DEFAULT_CONFIG", "RESOURCE_TOPIC", "ConfigSource"],
    }.items():
        try:
            m = importlib.import_module(mod)
        except ImportError as exc:
            out[mod] = raised(exc)
            continue
        out[mod] = {n: (getattr(m, n).__name__ if hasattr(getattr(m, n, None), "__name__") else _r(getattr(m, n)))
                    if hasattr(m, n) else "missing" for n in names}
    import confluent_kafka.admin as adm

    out["same_objects"] = {
        "_ConsumerGroupState": adm._ConsumerGroupState is ConsumerGroupState,
        "_TopicPartition": adm._TopicPartition is TopicPartition,
        "_TopicCollection": adm._TopicCollection is TopicCollection,
        "KafkaError": adm.KafkaError is __import__("confluent_kafka").KafkaError,
        "NewTopic": adm.NewTopic is __import__("confluent_kafka.cimpl").cimpl.NewTopic,
        "AdminImpl": adm._AdminClientImpl is __import__("confluent_kafka.cimpl").cimpl._AdminClientImpl,
        "AdminClient_base": adm.AdminClient.__mro__[1].__name__,
    }
    out["admin_module"] = adm.AdminClient.__module__
    return out


def _pickle_dump(values: dict[str, Any]) -> Any:
    import base64
    import pickle

    out = {}
    for name, v in values.items():
        try:
            out[name] = base64.b64encode(pickle.dumps(v, protocol=2)).decode()
        except Exception as exc:  # noqa: BLE001
            out[name] = raised(exc)
    return out


def _pickle_values() -> dict[str, Any]:
    return {
        "ResourceType": ResourceType.TOPIC, "ConsumerGroupState": ConsumerGroupState.STABLE,
        "ConsumerGroupType": ConsumerGroupType.CLASSIC, "ElectionType": ElectionType.UNCLEAN,
        "IsolationLevel": IsolationLevel.READ_COMMITTED, "AclOperation": AclOperation.READ,
        "AclPermissionType": AclPermissionType.DENY, "ResourcePatternType": ResourcePatternType.PREFIXED,
        "ConfigSource": ConfigSource.DEFAULT_CONFIG, "AlterConfigOpType": AlterConfigOpType.APPEND,
        "ScramMechanism": ScramMechanism.SCRAM_SHA_512,
        "ConfigResource": ConfigResource("topic", "t", set_config={"a": "b"}),
        "ConfigEntry": ConfigEntry("a", "b"),
        "AclBinding": _acl(),
        "AclBindingFilter": _filter(),
        "TopicCollection": TopicCollection(["a"]),
        "ConsumerGroupTopicPartitions": ConsumerGroupTopicPartitions("g"),
        "ScramCredentialInfo": ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 10),
        "OffsetSpec_latest": OffsetSpec.latest(),
        "OffsetSpec_ts": OffsetSpec.for_timestamp(5),
    }


def dump_pickles() -> Any:
    return _pickle_dump(_pickle_values())


def crossed_pickles(given: Any) -> Any:
    import base64
    import pickle

    out = {}
    for side in ("ours", "upstream"):
        for name, blob in given[side].items():
            if not isinstance(blob, str):
                out[f"{side}:{name}"] = blob
                continue
            try:
                v = pickle.loads(base64.b64decode(blob))
                out[f"{side}:{name}"] = {"type": type(v).__name__, "module": type(v).__module__, "repr": _r(v),
                                         "attrs": _attrs(v) if not isinstance(v, __import__("enum").Enum) else None}
            except Exception as exc:  # noqa: BLE001
                out[f"{side}:{name}"] = raised(exc)
    return out
