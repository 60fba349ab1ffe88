"""AdminClient: cluster administration whose calls return ``concurrent.futures.Future`` objects.

Each call checks its arguments (TypeError/ValueError, nothing sent), creates one internal
future and hands it to the C layer with the request. librdkafka's background thread resolves
that future with plain values; a done-callback added here turns them into the typed result
classes and resolves the per-entity futures the caller got (one per topic, group, resource...).
Nothing needs to be polled, and no thread is started per call.

Every failure reaches a future as ``KafkaException`` whose ``args[0]`` is a ``KafkaError``:
a request-level error (timeout, client closed) fails every future of the call, an entity's own
error only that entity's future.
"""

from __future__ import annotations

from concurrent.futures import Future, InvalidStateError
from typing import (
    Any,
    Callable,
    Dict,
    Hashable,
    Iterable,
    List,
    Optional,
    Sequence,
    Set,
    Tuple,
    TypeVar,
    Union,
)

from confluent_kafka.cimpl import KafkaError, KafkaException, TopicPartition, _AdminClientImpl

from ._metadata import BrokerMetadata
from ._results import (
    ConsumerGroupDescription,
    ConsumerGroupListing,
    DeletedRecords,
    DescribeClusterResult,
    GroupMember,
    GroupMetadata,
    ListConsumerGroupsResult,
    ListOffsetsResultInfo,
    MemberAssignment,
    MemberDescription,
    Node,
    TopicDescription,
    TopicPartitionInfo,
    UserScramCredentialsDescription,
    Uuid,
)
from ._types import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
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
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

__all__ = ["AdminClient"]

K = TypeVar("K", bound=Hashable)
_Options = Dict[str, Any]


# ---- argument checks -------------------------------------------------------------------------

def _timeout(name: str, value: object) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds or None, not {type(value).__name__}")
    if value != value or value < 0:
        raise ValueError(f"{name} must be >= 0 seconds, got {value!r}")
    return float(value)


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return value


def _options(request_timeout: object = None, operation_timeout: object = None, **flags: object) -> _Options:
    opts: _Options = {
        "request_timeout": _timeout("request_timeout", request_timeout),
        "operation_timeout": _timeout("operation_timeout", operation_timeout),
    }
    for name, value in flags.items():
        opts[name] = _flag(name, value)
    return opts


def _items(name: str, value: object, cls: Union[type, Tuple[type, ...]], what: str) -> List[Any]:
    """A non-empty list (or tuple) of instances of cls."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name} must be a list of {what}, not {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} must not be empty")
    for i, item in enumerate(value):
        if not isinstance(item, cls):
            raise TypeError(f"{name}[{i}] must be a {what}, not {type(item).__name__}")
    return list(value)


def _names(name: str, value: object, what: str) -> List[str]:
    """A non-empty list of distinct, non-empty str."""
    items = _items(name, value, str, "str")
    seen: Set[str] = set()
    for item in items:
        if not item:
            raise ValueError(f"{name} must not contain an empty {what}")
        if item in seen:
            raise ValueError(f"{name} lists {what} {item!r} more than once")
        seen.add(item)
    return items


def _unique(name: str, keys: Iterable[Hashable], what: str) -> None:
    seen: Set[Hashable] = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"{name} lists {what} {key!r} more than once")
        seen.add(key)


def _partition(name: str, tp: object, need_offset: bool = False) -> TopicPartition:
    if not isinstance(tp, TopicPartition):
        raise TypeError(f"{name} must be a TopicPartition, not {type(tp).__name__}")
    if not tp.topic:
        raise ValueError(f"{name}: topic must not be empty")
    if tp.partition < 0:
        raise ValueError(f"{name}: partition must be >= 0, got {tp.partition}")
    if need_offset and tp.offset < 0:
        raise ValueError(f"{name}: offset must be >= 0, got {tp.offset}")
    return tp


def _partitions(name: str, value: object, need_offset: bool = False) -> List[TopicPartition]:
    items = _items(name, value, TopicPartition, "TopicPartition")
    parts = [_partition(f"{name}[{i}]", tp, need_offset) for i, tp in enumerate(items)]
    _unique(name, ((tp.topic, tp.partition) for tp in parts), "partition")
    return parts


# ---- result plumbing -------------------------------------------------------------------------

def _settle(fut: "Future[Any]", value: Any = None, exc: Optional[BaseException] = None) -> None:
    """Resolve fut unless the caller cancelled it meanwhile."""
    if fut.done():
        return
    try:
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(value)
    except InvalidStateError:
        pass


def _failure(err: Optional[KafkaError]) -> Optional[KafkaException]:
    return None if err is None else KafkaException(err)


def _missing(what: object) -> KafkaException:
    return KafkaException(KafkaError(KafkaError._FAIL, f"the broker returned no result for {what!r}"))


def _fan_out(outer: "Future[Any]", keys: Sequence[K],
             convert: Callable[[Any], Dict[Any, Any]],
             key_of: Callable[[K], Any] = lambda k: k) -> Dict[K, "Future[Any]"]:
    """One future per key, resolved from outer's result: convert() maps key_of(key) to the value
    or to the KafkaException of that key."""
    futures: Dict[K, Future[Any]] = {k: Future() for k in keys}

    def done(f: "Future[Any]") -> None:
        exc = f.exception()
        if exc is None:
            try:
                results = convert(f.result())
            except BaseException as e:  # a conversion bug must still resolve every future
                exc = e
        if exc is not None:
            for fut in futures.values():
                _settle(fut, exc=exc)
            return
        for key, fut in futures.items():
            rk = key_of(key)
            if rk not in results:
                _settle(fut, exc=_missing(key))
                continue
            value = results[rk]
            if isinstance(value, KafkaException):
                _settle(fut, exc=value)
            else:
                _settle(fut, value)

    outer.add_done_callback(done)
    return futures


def _then(outer: "Future[Any]", convert: Callable[[Any], Any]) -> "Future[Any]":
    """A future resolved with convert(outer's result), or with outer's exception."""
    fut: Future[Any] = Future()

    def done(f: "Future[Any]") -> None:
        exc = f.exception()
        if exc is None:
            try:
                value = convert(f.result())
            except BaseException as e:
                exc = e
        if exc is not None:
            _settle(fut, exc=exc)
        else:
            _settle(fut, value)

    outer.add_done_callback(done)
    return fut


def _node(t: Optional[Tuple[int, str, int, Optional[str]]]) -> Optional[Node]:
    return None if t is None else Node(t[0], t[1], t[2], t[3])


def _ops(ops: Optional[List[int]]) -> Optional[List[AclOperation]]:
    if ops is None:
        return None
    return [AclOperation(o) if o in AclOperation._value2member_map_ else AclOperation.UNKNOWN for o in ops]


def _enum(cls: Any, value: int) -> Any:
    return cls(value) if value in cls._value2member_map_ else cls(0)


def _config_entry(t: Tuple[Any, ...]) -> ConfigEntry:
    name, value, source, read_only, default, sensitive, synonym, synonyms = t
    return ConfigEntry(name, value, _enum(ConfigSource, source), read_only, default, sensitive, synonym,
                       {s.name: s for s in (_config_entry(x) for x in synonyms)})


def _acl(t: Tuple[Any, ...], cls: type = AclBinding) -> AclBinding:
    acl: AclBinding = object.__new__(cls)
    acl.restype = _enum(ResourceType, t[0])
    acl.name = t[1]
    acl.resource_pattern_type = _enum(ResourcePatternType, t[2])
    acl.principal = t[3]
    acl.host = t[4]
    acl.operation = _enum(AclOperation, t[5])
    acl.permission_type = _enum(AclPermissionType, t[6])
    return acl


def _topic_errors(result: List[Tuple[str, Optional[KafkaError]]]) -> Dict[str, Optional[KafkaException]]:
    return {name: _failure(err) for name, err in result}


def _topic_description(t: Tuple[Any, ...]) -> Union[TopicDescription, KafkaException]:
    name, topic_id, internal, err, parts, ops = t
    if err is not None:
        return KafkaException(err)
    return TopicDescription(
        name, None if topic_id is None else Uuid(*topic_id), internal,
        [TopicPartitionInfo(p[0], _node(p[1]), [n for n in map(_node, p[2]) if n is not None],
                            [n for n in map(_node, p[3]) if n is not None]) for p in parts],
        _ops(ops))


def _group_description(t: Tuple[Any, ...]) -> Union[ConsumerGroupDescription, KafkaException]:
    group_id, err, simple, assignor, state, gtype, coordinator, members, ops = t
    if err is not None:
        return KafkaException(err)
    return ConsumerGroupDescription(
        group_id, simple,
        [MemberDescription(m[0], m[1], m[2], MemberAssignment(m[4]), m[3],
                           None if m[5] is None else MemberAssignment(m[5])) for m in members],
        assignor, _enum(ConsumerGroupState, state), _node(coordinator), _ops(ops),
        _enum(ConsumerGroupType, gtype))


def _group_offsets(result: List[Tuple[str, Optional[KafkaError], List[TopicPartition]]]) -> Dict[str, Any]:
    return {group: KafkaException(err) if err is not None else ConsumerGroupTopicPartitions(group, parts)
            for group, err, parts in result}


class AdminClient(_AdminClientImpl):
    """Administer topics, configs, ACLs, consumer groups, offsets and SCRAM users.

    ``conf`` is a dict of librdkafka properties (``bootstrap.servers`` at least) plus the
    Python-only ``error_cb``, ``stats_cb``, ``throttle_cb``, ``oauth_cb`` and ``logger``, whose
    callbacks are served by :meth:`poll`. Results do not need :meth:`poll`.

    Timeouts are in seconds: ``request_timeout`` bounds the whole request (default
    ``socket.timeout.ms``), ``operation_timeout`` how long the broker waits for the operation to
    complete across the cluster. When a timeout passes the futures fail with
    ``KafkaError._TIMED_OUT``. :meth:`close` fails pending futures with ``KafkaError._DESTROY``.
    """

    def __init__(self, conf: Optional[Dict[str, Any]] = None, **kwargs: Any) -> None:
        super().__init__(conf, **kwargs)

    def __enter__(self) -> "AdminClient":
        super().__enter__()
        return self

    # ---- topics --------------------------------------------------------------------------

    def create_topics(self, new_topics: List[NewTopic], operation_timeout: Optional[float] = None,
                      request_timeout: Optional[float] = None,
                      validate_only: bool = False) -> Dict[str, "Future[None]"]:
        """Create topics. Returns ``{topic: Future}``; each future resolves to None once its
        topic exists (or would, with ``validate_only=True``)."""
        topics = _items("new_topics", new_topics, NewTopic, "NewTopic")
        _unique("new_topics", (t.topic for t in topics), "topic")
        opts = _options(request_timeout, operation_timeout, validate_only=validate_only)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, [t.topic for t in topics], _topic_errors)
        self._create_topics(outer, [t._spec() for t in topics], opts)
        return futures

    def delete_topics(self, topics: List[str], operation_timeout: Optional[float] = None,
                      request_timeout: Optional[float] = None) -> Dict[str, "Future[None]"]:
        """Delete topics. Returns ``{topic: Future}`` resolving to None once deleted."""
        names = _names("topics", topics, "topic")
        opts = _options(request_timeout, operation_timeout)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, names, _topic_errors)
        self._delete_topics(outer, names, opts)
        return futures

    def create_partitions(self, new_partitions: List[NewPartitions], operation_timeout: Optional[float] = None,
                          request_timeout: Optional[float] = None,
                          validate_only: bool = False) -> Dict[str, "Future[None]"]:
        """Add partitions to topics. Returns ``{topic: Future}`` resolving to None."""
        parts = _items("new_partitions", new_partitions, NewPartitions, "NewPartitions")
        _unique("new_partitions", (p.topic for p in parts), "topic")
        opts = _options(request_timeout, operation_timeout, validate_only=validate_only)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, [p.topic for p in parts], _topic_errors)
        self._create_partitions(outer, [p._spec() for p in parts], opts)
        return futures

    def describe_topics(self, topics: TopicCollection, request_timeout: Optional[float] = None,
                        include_authorized_operations: bool = False) -> Dict[str, "Future[TopicDescription]"]:
        """Describe topics. Returns ``{topic: Future}`` resolving to :class:`TopicDescription`."""
        if not isinstance(topics, TopicCollection):
            raise TypeError(f"topics must be a TopicCollection, not {type(topics).__name__}")
        names = list(topics.topic_names)
        if not names:
            return {}
        _unique("topics", names, "topic")
        opts = _options(request_timeout, include_authorized_operations=include_authorized_operations)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, names, lambda r: {t[0]: _topic_description(t) for t in r})
        self._describe_topics(outer, names, opts)
        return futures

    def describe_cluster(self, request_timeout: Optional[float] = None,
                         include_authorized_operations: bool = False) -> "Future[DescribeClusterResult]":
        """Describe the cluster: its id, controller and brokers."""
        opts = _options(request_timeout, include_authorized_operations=include_authorized_operations)
        outer: Future[Any] = Future()
        fut = _then(outer, lambda r: DescribeClusterResult(
            _node(r[1]), [n for n in map(_node, r[2]) if n is not None], r[0], _ops(r[3])))
        self._describe_cluster(outer, opts)
        return fut

    def list_groups(self, group: Optional[str] = None, timeout: Optional[float] = -1) -> List[GroupMetadata]:
        """The groups the brokers know (all, or just ``group``), synchronously. Prefer
        :meth:`list_consumer_groups` and :meth:`describe_consumer_groups`."""
        out: List[GroupMetadata] = []
        for name, err, state, ptype, protocol, broker, members in self._list_groups(group, timeout):
            g = GroupMetadata()
            g.id, g.error, g.state, g.protocol_type, g.protocol = name, err, state, ptype, protocol
            b = BrokerMetadata()
            b.id, b.host, b.port = broker
            g.broker = b
            for mid, client_id, client_host, metadata, assignment in members:
                m = GroupMember()
                m.id, m.client_id, m.client_host, m.metadata, m.assignment = (
                    mid, client_id, client_host, metadata, assignment)
                g.members.append(m)
            out.append(g)
        return out

    # ---- configs -------------------------------------------------------------------------

    def describe_configs(self, resources: List[ConfigResource], request_timeout: Optional[float] = None
                         ) -> Dict[ConfigResource, "Future[Dict[str, ConfigEntry]]"]:
        """Describe resources' configuration. Returns ``{ConfigResource: Future}`` resolving to
        ``{name: ConfigEntry}``."""
        res = _items("resources", resources, ConfigResource, "ConfigResource")
        _unique("resources", res, "resource")
        opts = _options(request_timeout)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, res, self._configs_of(True), ConfigResource._key)
        self._describe_configs(outer, [r._key() for r in res], opts)
        return futures

    @staticmethod
    def _configs_of(described: bool) -> Callable[[Any], Dict[Any, Any]]:
        def convert(result: List[Tuple[Any, ...]]) -> Dict[Any, Any]:
            out: Dict[Any, Any] = {}
            for restype, name, err, entries in result:
                if err is not None:
                    out[(restype, name)] = KafkaException(err)
                elif described:
                    out[(restype, name)] = {e.name: e for e in map(_config_entry, entries)}
                else:
                    out[(restype, name)] = None
            return out
        return convert

    def alter_configs(self, resources: List[ConfigResource], request_timeout: Optional[float] = None,
                      validate_only: bool = False) -> Dict[ConfigResource, "Future[None]"]:
        """Replace resources' whole dynamic configuration with their ``set_config`` values
        (deprecated by Kafka: prefer :meth:`incremental_alter_configs`)."""
        res = _items("resources", resources, ConfigResource, "ConfigResource")
        _unique("resources", res, "resource")
        opts = _options(request_timeout, validate_only=validate_only)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, res, self._configs_of(False), ConfigResource._key)
        self._alter_configs(outer, [(r.restype.value, r.name, dict(r.set_config_dict)) for r in res], opts)
        return futures

    def incremental_alter_configs(self, resources: List[ConfigResource], request_timeout: Optional[float] = None,
                                  validate_only: bool = False) -> Dict[ConfigResource, "Future[None]"]:
        """Apply each resource's ``incremental_configs`` (set, delete, append, subtract)."""
        res = _items("resources", resources, ConfigResource, "ConfigResource")
        _unique("resources", res, "resource")
        specs = []
        for r in res:
            if not r.incremental_configs:
                raise ValueError(f"{r!r} has no incremental_configs")
            ops = []
            for e in r.incremental_configs:
                assert e.incremental_operation is not None
                if e.incremental_operation.name != "DELETE" and e.value is None:
                    raise ValueError(f"{r!r}: config {e.name!r} needs a value for {e.incremental_operation.name}")
                ops.append((e.name, e.incremental_operation.value, e.value))
            specs.append((r.restype.value, r.name, ops))
        opts = _options(request_timeout, validate_only=validate_only)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, res, self._configs_of(False), ConfigResource._key)
        self._incremental_alter_configs(outer, specs, opts)
        return futures

    # ---- ACLs ----------------------------------------------------------------------------

    def create_acls(self, acls: List[AclBinding], request_timeout: Optional[float] = None
                    ) -> Dict[AclBinding, "Future[None]"]:
        """Create ACLs. Returns ``{AclBinding: Future}`` resolving to None."""
        items = _items("acls", acls, AclBinding, "AclBinding")
        for i, a in enumerate(items):
            if isinstance(a, AclBindingFilter):
                raise TypeError(f"acls[{i}] must be an AclBinding, not an AclBindingFilter")
        _unique("acls", items, "ACL")
        opts = _options(request_timeout)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, items, lambda r: {a: _failure(e) for a, e in zip(items, r)})
        self._create_acls(outer, [a._spec() for a in items], opts)
        return futures

    def describe_acls(self, acl_binding_filter: AclBindingFilter, request_timeout: Optional[float] = None
                      ) -> "Future[List[AclBinding]]":
        """The ACLs matching a filter."""
        if not isinstance(acl_binding_filter, AclBindingFilter):
            raise TypeError("acl_binding_filter must be an AclBindingFilter, not "
                            f"{type(acl_binding_filter).__name__}")
        opts = _options(request_timeout)
        outer: Future[Any] = Future()
        fut = _then(outer, lambda r: [_acl(t) for t in r])
        self._describe_acls(outer, acl_binding_filter._spec(), opts)
        return fut

    def delete_acls(self, acl_binding_filters: List[AclBindingFilter], request_timeout: Optional[float] = None
                    ) -> Dict[AclBindingFilter, "Future[List[AclBinding]]"]:
        """Delete the ACLs matching each filter. Returns ``{filter: Future}`` resolving to the
        deleted ACLs."""
        items = _items("acl_binding_filters", acl_binding_filters, AclBindingFilter, "AclBindingFilter")
        _unique("acl_binding_filters", items, "filter")
        opts = _options(request_timeout)
        outer: Future[Any] = Future()

        def convert(r: List[Tuple[Any, ...]]) -> Dict[Any, Any]:
            return {f: KafkaException(err) if err is not None else [_acl(t) for t in acls]
                    for f, (err, acls) in zip(items, r)}

        futures = _fan_out(outer, items, convert)
        self._delete_acls(outer, [f._spec() for f in items], opts)
        return futures

    # ---- consumer groups -----------------------------------------------------------------

    def list_consumer_groups(self, request_timeout: Optional[float] = None,
                             states: Optional[Iterable[ConsumerGroupState]] = None,
                             types: Optional[Iterable[ConsumerGroupType]] = None
                             ) -> "Future[ListConsumerGroupsResult]":
        """List consumer groups, optionally only those in ``states`` / of ``types``."""
        opts = _options(request_timeout)
        for name, value, cls in (("states", states, ConsumerGroupState), ("types", types, ConsumerGroupType)):
            if value is None:
                continue
            if not isinstance(value, (set, frozenset, list, tuple)):
                raise TypeError(f"{name} must be a set of {cls.__name__}, not {type(value).__name__}")
            members = []
            for v in value:
                if not isinstance(v, cls):
                    raise TypeError(f"{name} must contain {cls.__name__} members, not {type(v).__name__}")
                if v.name == "UNKNOWN":
                    raise ValueError(f"{name} must not contain {cls.__name__}.UNKNOWN")
                members.append(v.value)
            opts[name] = sorted(set(members))

        def convert(r: Tuple[List[Tuple[Any, ...]], List[KafkaError]]) -> ListConsumerGroupsResult:
            valid = [ConsumerGroupListing(g, simple, _enum(ConsumerGroupState, st), _enum(ConsumerGroupType, ty))
                     for g, simple, st, ty in r[0]]
            return ListConsumerGroupsResult(valid, [KafkaException(e) for e in r[1]])

        outer: Future[Any] = Future()
        fut = _then(outer, convert)
        self._list_consumer_groups(outer, opts)
        return fut

    def describe_consumer_groups(self, group_ids: List[str], request_timeout: Optional[float] = None,
                                 include_authorized_operations: bool = False
                                 ) -> Dict[str, "Future[ConsumerGroupDescription]"]:
        """Describe consumer groups. Returns ``{group_id: Future}`` resolving to
        :class:`ConsumerGroupDescription`."""
        names = _names("group_ids", group_ids, "group id")
        opts = _options(request_timeout, include_authorized_operations=include_authorized_operations)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, names, lambda r: {t[0]: _group_description(t) for t in r})
        self._describe_consumer_groups(outer, names, opts)
        return futures

    def delete_consumer_groups(self, group_ids: List[str], request_timeout: Optional[float] = None,
                               operation_timeout: Optional[float] = None) -> Dict[str, "Future[None]"]:
        """Delete (empty) consumer groups. Returns ``{group_id: Future}`` resolving to None."""
        names = _names("group_ids", group_ids, "group id")
        opts = _options(request_timeout, operation_timeout)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, names, lambda r: {g: _failure(e) for g, e in r})
        self._delete_consumer_groups(outer, names, opts)
        return futures

    def list_consumer_group_offsets(self, list_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                    require_stable: bool = False, request_timeout: Optional[float] = None
                                    ) -> Dict[str, "Future[ConsumerGroupTopicPartitions]"]:
        """A group's committed offsets (all partitions, or those listed). Takes one
        :class:`ConsumerGroupTopicPartitions`; returns ``{group_id: Future}``."""
        reqs = _items("list_consumer_group_offsets_request", list_consumer_group_offsets_request,
                      ConsumerGroupTopicPartitions, "ConsumerGroupTopicPartitions")
        if len(reqs) != 1:
            raise ValueError("list_consumer_group_offsets takes exactly one ConsumerGroupTopicPartitions")
        req = reqs[0]
        parts = None
        if req.topic_partitions is not None:
            parts = _partitions("topic_partitions", req.topic_partitions)
        opts = _options(request_timeout, require_stable=require_stable)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, [req.group_id], _group_offsets)
        self._list_consumer_group_offsets(outer, [(req.group_id, parts)], opts)
        return futures

    def alter_consumer_group_offsets(self, alter_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                     request_timeout: Optional[float] = None
                                     ) -> Dict[str, "Future[ConsumerGroupTopicPartitions]"]:
        """Set a group's committed offsets (the group must have no active members). Takes one
        :class:`ConsumerGroupTopicPartitions` whose partitions carry offsets >= 0."""
        reqs = _items("alter_consumer_group_offsets_request", alter_consumer_group_offsets_request,
                      ConsumerGroupTopicPartitions, "ConsumerGroupTopicPartitions")
        if len(reqs) != 1:
            raise ValueError("alter_consumer_group_offsets takes exactly one ConsumerGroupTopicPartitions")
        req = reqs[0]
        if req.topic_partitions is None:
            raise ValueError("alter_consumer_group_offsets needs topic_partitions with offsets")
        parts = _partitions("topic_partitions", req.topic_partitions, need_offset=True)
        opts = _options(request_timeout)
        outer: Future[Any] = Future()
        futures = _fan_out(outer, [req.group_id], _group_offsets)
        self._alter_consumer_group_offsets(outer, [(req.group_id, parts)], opts)
        return futures

    # ---- offsets, records, leaders -------------------------------------------------------

    def list_offsets(self, topic_partition_offsets: Dict[TopicPartition, OffsetSpec],
                     isolation_level: Optional[IsolationLevel] = None, request_timeout: Optional[float] = None
                     ) -> Dict[TopicPartition, "Future[ListOffsetsResultInfo]"]:
        """Look up offsets by :class:`OffsetSpec` (earliest, latest, max timestamp, or the first
        at a timestamp). Returns ``{TopicPartition: Future}`` resolving to
        :class:`ListOffsetsResultInfo`."""
        if not isinstance(topic_partition_offsets, dict):
            raise TypeError("topic_partition_offsets must be a dict of TopicPartition to OffsetSpec, not "
                            f"{type(topic_partition_offsets).__name__}")
        if not topic_partition_offsets:
            raise ValueError("topic_partition_offsets must not be empty")
        keys = list(topic_partition_offsets)
        request = []
        for i, tp in enumerate(keys):
            _partition(f"topic_partition_offsets key {i}", tp)
            spec = topic_partition_offsets[tp]
            if not isinstance(spec, OffsetSpec):
                raise TypeError(f"the OffsetSpec of {tp!r} must be an OffsetSpec, not {type(spec).__name__}")
            request.append(TopicPartition(tp.topic, tp.partition, spec._value))
        _unique("topic_partition_offsets", ((tp.topic, tp.partition) for tp in keys), "partition")
        opts = _options(request_timeout)
        if isolation_level is not None:
            if not isinstance(isolation_level, IsolationLevel):
                raise TypeError(f"isolation_level must be an IsolationLevel, not {type(isolation_level).__name__}")
            opts["isolation_level"] = isolation_level.value

        def convert(r: List[Tuple[Any, ...]]) -> Dict[Any, Any]:
            return {(t, p): KafkaException(err) if err is not None else ListOffsetsResultInfo(off, ts, epoch)
                    for t, p, err, off, ts, epoch in r}

        outer: Future[Any] = Future()
        futures = _fan_out(outer, keys, convert, lambda tp: (tp.topic, tp.partition))
        self._list_offsets(outer, request, opts)
        return futures

    def delete_records(self, topic_partition_offsets: List[TopicPartition], request_timeout: Optional[float] = None,
                       operation_timeout: Optional[float] = None) -> Dict[TopicPartition, "Future[DeletedRecords]"]:
        """Delete the records before each partition's offset (OFFSET_END: all of them). Returns
        ``{TopicPartition: Future}`` resolving to :class:`DeletedRecords`."""
        items = _items("topic_partition_offsets", topic_partition_offsets, TopicPartition, "TopicPartition")
        for i, tp in enumerate(items):
            _partition(f"topic_partition_offsets[{i}]", tp)
            if tp.offset < 0 and tp.offset != -1:
                raise ValueError(f"topic_partition_offsets[{i}]: offset must be >= 0 or OFFSET_END, got {tp.offset}")
        _unique("topic_partition_offsets", ((tp.topic, tp.partition) for tp in items), "partition")
        opts = _options(request_timeout, operation_timeout)

        def convert(r: List[TopicPartition]) -> Dict[Any, Any]:
            return {(tp.topic, tp.partition): KafkaException(tp.error) if tp.error is not None
                    else DeletedRecords(tp.offset) for tp in r}

        outer: Future[Any] = Future()
        futures = _fan_out(outer, items, convert, lambda tp: (tp.topic, tp.partition))
        self._delete_records(outer, [TopicPartition(tp.topic, tp.partition, tp.offset) for tp in items], opts)
        return futures

    def elect_leaders(self, election_type: ElectionType, partitions: Optional[List[TopicPartition]] = None,
                      request_timeout: Optional[float] = None, operation_timeout: Optional[float] = None
                      ) -> "Future[Dict[TopicPartition, Optional[KafkaException]]]":
        """Elect partition leaders (all partitions when ``partitions`` is None). The future
        resolves to ``{TopicPartition: None or KafkaException}``."""
        if not isinstance(election_type, ElectionType):
            raise TypeError(f"election_type must be an ElectionType, not {type(election_type).__name__}")
        parts = None if partitions is None else _partitions("partitions", partitions)
        opts = _options(request_timeout, operation_timeout)
        outer: Future[Any] = Future()
        fut = _then(outer, lambda r: {TopicPartition(t, p): _failure(err) for t, p, err in r})
        self._elect_leaders(outer, election_type.value,
                            None if parts is None else [TopicPartition(tp.topic, tp.partition) for tp in parts], opts)
        return fut

    # ---- SCRAM ---------------------------------------------------------------------------

    def describe_user_scram_credentials(self, users: Optional[List[str]] = None,
                                        request_timeout: Optional[float] = None) -> Any:
        """The SCRAM credentials of ``users``: ``{user: Future}`` resolving to
        :class:`UserScramCredentialsDescription`; with users None, one future resolving to
        ``{user: UserScramCredentialsDescription}`` for every user."""
        names = None if users is None else _names("users", users, "user")
        opts = _options(request_timeout)

        def describe(t: Tuple[Any, ...]) -> Any:
            user, err, infos = t
            if err is not None:
                return KafkaException(err)
            return UserScramCredentialsDescription(
                user, [ScramCredentialInfo(_enum(ScramMechanism, m), max(it, 1)) for m, it in infos])

        outer: Future[Any] = Future()
        if names is None:
            def all_users(r: List[Tuple[Any, ...]]) -> Dict[str, Any]:
                out: Dict[str, Any] = {}
                for t in r:
                    d = describe(t)
                    if isinstance(d, KafkaException):
                        raise d
                    out[t[0]] = d
                return out
            fut = _then(outer, all_users)
            self._describe_user_scram_credentials(outer, [], opts)
            return fut
        futures = _fan_out(outer, names, lambda r: {t[0]: describe(t) for t in r})
        self._describe_user_scram_credentials(outer, names, opts)
        return futures

    def alter_user_scram_credentials(self, alterations: List[UserScramCredentialAlteration],
                                     request_timeout: Optional[float] = None) -> Dict[str, "Future[None]"]:
        """Upsert or delete SCRAM credentials. Returns ``{user: Future}`` resolving to None."""
        items = _items("alterations", alterations, (UserScramCredentialUpsertion, UserScramCredentialDeletion),
                       "UserScramCredentialUpsertion or UserScramCredentialDeletion")
        opts = _options(request_timeout)
        users = list(dict.fromkeys(a.user for a in items))
        outer: Future[Any] = Future()
        futures = _fan_out(outer, users, lambda r: {u: _failure(e) for u, e in r})
        self._alter_user_scram_credentials(outer, [a._spec() for a in items], opts)
        return futures
