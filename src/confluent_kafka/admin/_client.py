"""AdminClient: cluster administration whose calls return ``concurrent.futures.Future`` objects.

Each call checks its arguments as upstream confluent-kafka does (its Python layer, then its C
layer: the same exception types and messages, in the same order), creates one internal future
and hands it to the C layer with the request. librdkafka's background thread resolves that
future with plain values; a done-callback added here turns them into the result classes and
resolves the futures the caller got (one per topic, group, resource...). Nothing needs to be
polled, and no thread is started per call.

Every failure reaches a future as ``KafkaException`` whose ``args[0]`` is a ``KafkaError``: a
request-level error (timeout, client closed) fails every future of the call, an entity's own
error only that entity's future.
"""

from __future__ import annotations

import concurrent.futures
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union, cast

from ..cimpl import (
    OFFSET_INVALID,
    KafkaError,
    KafkaException,
    NewPartitions,
    NewTopic,
    TopicPartition,
    _AdminClientImpl,
    _check_keywords,
)
from . import _args
from ._acl import AclBinding, AclBindingFilter, AclOperation, AclPermissionType
from ._cluster import DescribeClusterResult
from ._config import AlterConfigOpType, ConfigEntry, ConfigResource, ConfigSource
from ._group import (
    ConsumerGroupDescription,
    ConsumerGroupListing,
    ListConsumerGroupsResult,
    MemberAssignment,
    MemberDescription,
)
from ._listoffsets import ListOffsetsResultInfo, OffsetSpec
from ._metadata import BrokerMetadata, ClusterMetadata, GroupMember, GroupMetadata
from ._model_types import *  # noqa: F401,F403 - the model types (its __all__)
from ._records import DeletedRecords
from ._resource import ResourcePatternType, ResourceType
from ._scram import (
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialAlteration,
    UserScramCredentialDeletion,
    UserScramCredentialsDescription,
    UserScramCredentialUpsertion,
)
from ._topic import TopicDescription
from ._util import string_type

if TYPE_CHECKING:  # pragma: no cover - typing only
    from typing_extensions import TypedDict, Unpack

    class _Timeout(TypedDict, total=False):
        request_timeout: float

    class _Timeouts(_Timeout, total=False):
        operation_timeout: float

    class _CreateOptions(_Timeouts, total=False):
        validate_only: bool

    class _DescribeConfigsOptions(_Timeout, total=False):
        broker: int

    class _AlterConfigsOptions(_DescribeConfigsOptions, total=False):
        validate_only: bool

    class _DescribeOptions(_Timeout, total=False):
        include_authorized_operations: bool

    class _ListGroupsOptions(_Timeout, total=False):
        states: Optional[Iterable[ConsumerGroupState]]
        types: Optional[Iterable[ConsumerGroupType]]

    class _GroupOffsetsOptions(_Timeout, total=False):
        require_stable: bool

    class _ListOffsetsOptions(_Timeout, total=False):
        isolation_level: IsolationLevel

__all__ = ["AdminClient"]

Future = concurrent.futures.Future
_KwSpec = List[Tuple[str, str]]

# The keywords of upstream's C functions, in their parser's order.
_T, _OT, _VO, _BROKER = ("request_timeout", "f"), ("operation_timeout", "f"), ("validate_only", "O"), ("broker", "i")
_AUTH, _STABLE = ("include_authorized_operations", "O"), ("require_stable", "O")


# ---- futures ---------------------------------------------------------------------------------

def _new_future() -> "Future[Any]":
    """A future in the running state (it cannot be cancelled), as upstream hands them out."""
    f: Future[Any] = Future()
    if not f.set_running_or_notify_cancel():  # pragma: no cover - a new future is never cancelled
        raise RuntimeError("Future was cancelled prematurely")
    return f


def _settle(fut: "Future[Any]", value: Any = None, exc: Optional[BaseException] = None) -> None:
    """Resolve ``fut`` unless it is resolved already."""
    if fut.done():
        return
    try:
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(value)
    except concurrent.futures.InvalidStateError:  # pragma: no cover - resolved meanwhile
        pass


def _fail_all(futmap: Dict[Any, "Future[Any]"], exc: BaseException) -> None:
    for fut in futmap.values():
        _settle(fut, exc=exc)


def _futures(keys: Iterable[Any], class_check: Optional[type] = None,
             error: type = ValueError) -> Dict[Any, "Future[Any]"]:
    """One running future per key (equal keys share one). ``class_check``: every key must be an
    instance of it (``error`` otherwise, with upstream's message)."""
    futmap: Dict[Any, Future[Any]] = {}
    for key in keys:
        if class_check is not None and not isinstance(key, class_check):
            raise error(f"Expected list of {class_check!r}")
        futmap[key] = _new_future()
    return futmap


def _internal(futmap: Dict[Any, "Future[Any]"],
              distribute: Callable[[Any, Dict[Any, "Future[Any]"]], None]) -> "Future[Any]":
    """The future the C layer resolves; its result is handed to ``distribute`` (its exception,
    or one ``distribute`` raises, fails every future of ``futmap``)."""
    f = _new_future()

    def done(inner: "Future[Any]") -> None:
        try:
            distribute(inner.result(), futmap)
        except Exception as e:  # noqa: BLE001 - a request-level failure fails every future
            _fail_all(futmap, e)

    f.add_done_callback(done)
    return f


def _length_check(results: Any, futmap: Dict[Any, "Future[Any]"]) -> None:
    if len(results) != len(futmap):
        raise RuntimeError(f"Results length {len(results)} is different from future-map length {len(futmap)}")


def _by_index(results: List[Any], futmap: Dict[Any, "Future[Any]"]) -> None:
    """Results in request order: KafkaError fails that future, anything else is its result."""
    _length_check(results, futmap)
    for fut, value in zip(list(futmap.values()), results):
        if isinstance(value, KafkaError):
            _settle(fut, exc=KafkaException(value))
        else:
            _settle(fut, value)


def _by_key(results: Dict[Any, Any], futmap: Dict[Any, "Future[Any]"]) -> None:
    """Results by key: KafkaError fails that future, anything else is its result."""
    _length_check(results, futmap)
    for key, value in results.items():
        fut = futmap.get(key)
        if fut is None:
            raise RuntimeError(f"Key {key} not found in future-map: {futmap}")
        if isinstance(value, KafkaError):
            _settle(fut, exc=KafkaException(value))
        else:
            _settle(fut, value)


def _topics_result(results: Dict[str, Optional[KafkaError]], futmap: Dict[Any, "Future[Any]"]) -> None:
    for topic, error in results.items():
        fut = futmap.get(topic)
        if fut is None:
            raise RuntimeError(f"Topic {topic} not found in future-map: {futmap}")
        if error is not None:
            _settle(fut, exc=KafkaException(error))
        else:
            _settle(fut, None)


def _resources_result(results: Dict[ConfigResource, Any], futmap: Dict[Any, "Future[Any]"]) -> None:
    for resource, configs in results.items():
        fut = futmap.get(resource)
        if fut is None:
            raise RuntimeError(f"Resource {resource} not found in future-map: {futmap}")
        if resource.error is not None:
            _settle(fut, exc=KafkaException(resource.error))
        else:
            _settle(fut, configs)


# ---- conversion of the C layer's plain results ------------------------------------------------

def _node(t: Optional[Tuple[int, str, int, Optional[str]]]) -> Optional[Node]:
    return None if t is None else Node(t[0], t[1], t[2], t[3])


def _enum(cls: Any, value: int) -> Any:
    try:
        return cls(value)
    except ValueError:
        return list(cls)[0]


def _ops(ops: Optional[List[int]]) -> Optional[List[Any]]:
    if ops is None:
        return None
    return [_enum(AclOperation, o) for o in ops]


def _config_entry(t: Tuple[Any, ...]) -> ConfigEntry:
    name, value, source, read_only, default, sensitive, synonym, synonyms = t
    # The source stays the int librdkafka gives (ConfigSource(entry.source) for the member), as
    # upstream leaves it.
    return ConfigEntry(name, value, source, read_only, default, sensitive, synonym,
                       {s.name: s for s in (_config_entry(x) for x in synonyms)})


def _configs(described: bool) -> Callable[[List[Tuple[Any, ...]]], Dict[ConfigResource, Any]]:
    def convert(result: List[Tuple[Any, ...]]) -> Dict[ConfigResource, Any]:
        out: Dict[ConfigResource, Any] = {}
        for restype, name, err, entries in result:
            resource = ConfigResource(restype, name, error=err)
            out[resource] = {e.name: e for e in map(_config_entry, entries)} if described else None
        return out
    return convert


def _acl(t: Tuple[Any, ...]) -> AclBinding:
    return AclBinding(_enum(ResourceType, t[0]), t[1], _enum(ResourcePatternType, t[2]), t[3], t[4],
                      _enum(AclOperation, t[5]), _enum(AclPermissionType, t[6]))


def _topic_description(t: Tuple[Any, ...]) -> Union[TopicDescription, KafkaError]:
    name, topic_id, internal, err, parts, ops = t
    if err is not None:
        return cast(KafkaError, err)
    from ..cimpl import Uuid

    return TopicDescription(
        name, None if topic_id is None else Uuid(topic_id[0], topic_id[1]), internal,
        [TopicPartitionInfo(p[0], _node(p[1]), [n for n in map(_node, p[2]) if n is not None],
                            [n for n in map(_node, p[3]) if n is not None]) for p in parts],
        ops)


def _group_description(t: Tuple[Any, ...]) -> Union[ConsumerGroupDescription, KafkaError]:
    group_id, err, simple, assignor, state, gtype, coordinator, members, ops = t
    if err is not None:
        return cast(KafkaError, err)
    return ConsumerGroupDescription(
        group_id, simple,
        [MemberDescription(m[0], m[1], m[2], MemberAssignment(m[4]), m[3],
                           None if m[5] is None else MemberAssignment(m[5])) for m in members],
        assignor, _enum(ConsumerGroupState, state), _node(coordinator), ops, _enum(ConsumerGroupType, gtype))


def _group_offsets(result: List[Tuple[str, Optional[KafkaError], List[TopicPartition]]]) -> List[Any]:
    return [err if err is not None else ConsumerGroupTopicPartitions(group, parts) for group, err, parts in result]


# ---- argument checks upstream's Python layer makes --------------------------------------------

def _check_partition_list(parts: Any, for_alter: bool) -> None:
    if not isinstance(parts, list):
        raise TypeError("'topic_partitions' must be a list" if for_alter else "'topic_partitions' must be a list or None")
    if len(parts) == 0:
        raise ValueError("'topic_partitions' cannot be empty")
    for tp in parts:
        if tp is None:
            raise ValueError("Element of 'topic_partitions' cannot be None")
        if not isinstance(tp, TopicPartition):
            raise TypeError("Element of 'topic_partitions' must be of type TopicPartition")
        if tp.topic is None:
            raise TypeError("Element of 'topic_partitions' must not have 'topic' attribute as None")
        if not tp.topic:
            raise ValueError("Element of 'topic_partitions' must not have 'topic' attribute as Empty")
        if for_alter:
            if tp.partition < 0:
                raise ValueError("Element of 'topic_partitions' must not have negative value for 'partition' field")
            if tp.offset < 0:
                raise ValueError("Element of 'topic_partitions' must not have negative value for 'offset' field")
        else:
            if tp.partition < 0:
                raise ValueError("Element of 'topic_partitions' must not have negative 'partition' value")
            if tp.offset != OFFSET_INVALID:
                raise ValueError("Element of 'topic_partitions' must not have 'offset' value")


def _check_group_offsets_request(request: Any, for_alter: bool) -> None:
    if request is None:
        raise TypeError("request cannot be None")
    if not isinstance(request, list):
        raise TypeError("request must be a list")
    if len(request) != 1:
        verb = "altering" if for_alter else "listing"
        raise ValueError(f"Currently we support {verb} offsets for a single consumer group only")
    for req in request:
        if not isinstance(req, ConsumerGroupTopicPartitions):
            raise TypeError("Expected list of 'ConsumerGroupTopicPartitions'")
        if req.group_id is None:
            raise TypeError("'group_id' cannot be None")
        if not isinstance(req.group_id, string_type):
            raise TypeError("'group_id' must be a string")
        if not req.group_id:
            raise ValueError("'group_id' cannot be empty")
        if for_alter:
            if req.topic_partitions is None:
                raise ValueError("'topic_partitions' cannot be null")
            _check_partition_list(req.topic_partitions, True)
        elif req.topic_partitions is not None:
            _check_partition_list(req.topic_partitions, False)


def _check_scram_alterations(alterations: Any) -> None:
    if not isinstance(alterations, list):
        raise TypeError("Expected input to be list")
    if len(alterations) == 0:
        raise ValueError("Expected at least one alteration")
    for alteration in alterations:
        if not isinstance(alteration, UserScramCredentialAlteration):
            raise TypeError("Expected each element of list to be subclass of UserScramCredentialAlteration")
        if alteration.user is None:
            raise TypeError("'user' cannot be None")
        if not isinstance(alteration.user, string_type):
            raise TypeError("'user' must be a string")
        if not alteration.user:
            raise ValueError("'user' cannot be empty")
        if isinstance(alteration, UserScramCredentialUpsertion):
            if alteration.password is None:
                raise TypeError("'password' cannot be None")
            if not isinstance(alteration.password, bytes):
                raise TypeError("'password' must be bytes")
            if not alteration.password:
                raise ValueError("'password' cannot be empty")
            if alteration.salt is not None and not alteration.salt:
                raise ValueError("'salt' can be None but cannot be empty")
            if alteration.salt and not isinstance(alteration.salt, bytes):
                raise TypeError("'salt' must be bytes")
            if not isinstance(alteration.scram_credential_info, ScramCredentialInfo):
                raise TypeError("Expected credential_info to be ScramCredentialInfo Type")
            if alteration.scram_credential_info.iterations < 1:
                raise ValueError("Iterations should be positive")
            if not isinstance(alteration.scram_credential_info.mechanism, ScramMechanism):
                raise TypeError("Expected the mechanism to be ScramMechanism Type")
        elif isinstance(alteration, UserScramCredentialDeletion):
            if not isinstance(alteration.mechanism, ScramMechanism):
                raise TypeError("Expected the mechanism to be ScramMechanism Type")
        else:
            raise TypeError("Expected each element of list 'alterations' to be either a "
                            "UserScramCredentialUpsertion or a UserScramCredentialDeletion")


# ---- checks upstream's C layer makes ----------------------------------------------------------

_PARTITIONS_MAX, _BROKERS_MAX = 100000, 10000


def _non_empty_list(value: Any, what: str) -> None:
    if not isinstance(value, list) or len(value) == 0:
        raise ValueError(f"Expected non-empty list of {what} objects")


def _list_arg(value: Any) -> None:
    """The ``O!`` format with list: the C function's first argument must be a list."""
    if not isinstance(value, list):
        raise TypeError(f"argument 1 must be list, not {type(value).__name__}")


def _str_attr(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"Expected .{what} to be str type, not {type(value).__name__}")
    return value


def _assignment(ra: Any, count_ok: Callable[[int], bool], message: str) -> List[List[int]]:
    """A replica assignment as lists of broker ids (librdkafka checks the rest)."""
    if not isinstance(ra, list) or not count_ok(len(ra)):
        raise ValueError(message)
    out: List[List[int]] = []
    for replicas in ra:
        if not isinstance(replicas, list) or len(replicas) == 0 or not all(isinstance(b, int) for b in replicas):
            raise ValueError(message)
        out.append([((b + 2 ** 31) % 2 ** 32) - 2 ** 31 for b in replicas])  # C int32 conversion
    return out


def _new_topic_spec(t: Any) -> Tuple[Any, ...]:
    if not isinstance(t, NewTopic):
        raise ValueError("Expected list of NewTopic objects")
    np_, rf = t.num_partitions, t.replication_factor
    if np_ < -1 or np_ > _PARTITIONS_MAX:
        raise ValueError(f"Invalid NewTopic({t.topic}): num_partitions out of expected range "
                         f"1..{_PARTITIONS_MAX} or -1 for broker default")
    if rf < -1 or rf > _BROKERS_MAX:
        raise ValueError(f"Invalid NewTopic({t.topic}): replication_factor out of expected range -1..{_BROKERS_MAX}")
    assignment = None
    if _given(t, "replica_assignment"):
        if rf != -1:
            raise ValueError("replication_factor and replica_assignment are mutually exclusive")
        assignment = _assignment(t.replica_assignment, lambda n: np_ == -1 or n == np_,
                                 "replica_assignment must be a list of int lists with an outer size of "
                                 "num_partitions")
    config = None
    if t.config is not None:
        config = {str(k): str(v) for k, v in t.config.items()}
    return (t.topic, np_, rf, assignment, config)


def _new_partitions_spec(p: Any) -> Tuple[Any, ...]:
    if not isinstance(p, NewPartitions):
        raise ValueError("Expected list of NewPartitions objects")
    count = p.new_total_count
    if count < 1 or count > _PARTITIONS_MAX:
        raise ValueError(f"Invalid NewPartitions({p.topic}): new_total_cnt out of expected range 1..{_PARTITIONS_MAX}")
    assignment = None
    if _given(p, "replica_assignment"):
        assignment = _assignment(p.replica_assignment, lambda n: 1 <= n <= count,
                                 "replica_assignment must be a list of int lists with an outer size of "
                                 "new_total_count - existing partition count")
    return (p.topic, count, assignment)


def _given(obj: Any, attr: str) -> bool:
    """Whether the optional ``replica_assignment`` of a NewTopic/NewPartitions was given: an
    explicit None counts as given (upstream then refuses it), a missing one does not. The C
    types keep the two apart; their pickle form shows which."""
    reduced = obj.__reduce__()
    if isinstance(obj, NewPartitions):
        return len(reduced[1]) > 2
    return attr in reduced[2]


def _resource_spec(r: ConfigResource) -> Tuple[int, str]:
    name = _str_attr(r.name, "name")
    if not name:
        raise ValueError(f"Invalid ConfigResource({r.restype_int},{name})")
    return (r.restype_int, name)


def _incremental_spec(r: ConfigResource) -> Tuple[Any, ...]:
    restype, name = _resource_spec(r)
    entries = r.incremental_configs
    if not isinstance(entries, list) or len(entries) == 0:
        raise ValueError("expected non-empty list of ConfigEntry to alter incrementally in incremental_configs field")
    ops = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, ConfigEntry):
            raise TypeError(f"expected ConfigEntry type in incremental_configs field, index {i}")
        op = getattr(entry.incremental_operation, "value", None)
        if not isinstance(op, int):
            raise TypeError("Required attribute .value missing")
        key = _str_attr(entry.name, "name")
        value = None
        if op != AlterConfigOpType.DELETE.value:
            value = _str_attr(entry.value, "value")
        ops.append((key, op, value))
    return (restype, name, ops)


def _acl_spec(a: AclBinding) -> Tuple[Any, ...]:
    return (a.restype_int, a.name, a.resource_pattern_type_int, a.principal, a.host, a.operation_int,
            a.permission_type_int)


def _binding_spec(a: AclBinding) -> Tuple[Any, ...]:
    """An ACL binding to create: its name, principal and host must be strings (unlike a filter's)."""
    for attr in ("name", "principal", "host"):
        _str_attr(getattr(a, attr), attr)
    return _acl_spec(a)


def _group_name(g: Any, what: str) -> str:
    if g is None:
        raise ValueError(f"Expected list of {what} strings, not NoneType")
    return g if isinstance(g, str) else str(g)


class AdminClient(_AdminClientImpl):
    """Administer topics, configurations, ACLs, consumer groups, offsets and SCRAM users.

    Each call returns at once: a ``concurrent.futures.Future``, or a dict of them keyed by
    the entity (topic name, :class:`ConfigResource`, group id, ...). Results arrive without
    :meth:`poll`, which only serves ``error_cb``, ``stats_cb``, ``throttle_cb`` and ``logger``.

    Calls take these keywords where they apply: ``request_timeout`` (seconds, the whole
    request; default ``socket.timeout.ms``), ``operation_timeout`` (seconds the broker waits
    for the operation to complete across the cluster), ``validate_only`` (only check the
    request). A timed-out request fails its futures with ``KafkaError._TIMED_OUT``;
    :meth:`close` fails pending ones with ``KafkaError._DESTROY``.

    :param conf: librdkafka properties (``bootstrap.servers`` at least) and the Python-only
        callbacks.
    """

    __module__ = "confluent_kafka.admin"

    def __init__(self, conf: Dict[str, Any], **kwargs: Any) -> None:
        if not isinstance(conf, dict):
            raise TypeError("expected configuration dict")
        super().__init__(conf, **kwargs)

    def __enter__(self) -> "AdminClient":
        return super().__enter__()

    # ---- helpers ------------------------------------------------------------------------------

    def _options(self, values: Dict[str, Any]) -> Dict[str, Any]:
        """The options for the C layer: first a closed client fails, then a value out of range."""
        self._check_open()
        return _args.Options(values).build()

    # ---- topics -------------------------------------------------------------------------------

    def create_topics(self, new_topics: List[NewTopic], **kwargs: "Unpack[_CreateOptions]"
                      ) -> Dict[str, "Future[None]"]:
        """Create topics.

        :param new_topics: A :class:`NewTopic` per topic.
        :param kwargs: ``operation_timeout``, ``request_timeout`` (seconds), ``validate_only``.
        :returns: ``{topic: Future}``; each future's result is None once the topic exists (or
            would, with ``validate_only=True``).
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        :raises confluent_kafka.KafkaException: The request could not be made.
        """
        futmap = _futures([x.topic for x in new_topics])
        values = _args.parse(dict(kwargs), ("topics", "future"), [_VO, _T, _OT])
        _non_empty_list(new_topics, "NewTopic")
        _args.check_bool(values, "validate_only")
        opts = self._options(values)
        specs = [_new_topic_spec(t) for t in new_topics]
        f = _internal(futmap, lambda r, fm: _topics_result(dict(r), fm))
        self._create_topics(f, specs, opts)
        return futmap

    def delete_topics(self, topics: List[str], **kwargs: "Unpack[_Timeouts]") -> Dict[str, "Future[None]"]:
        """Delete topics.

        :param topics: The topic names.
        :param kwargs: ``operation_timeout``, ``request_timeout`` (seconds).
        :returns: ``{topic: Future}``; each future's result is None once the topic is deleted.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        futmap = _futures(topics)
        _list_arg(topics)
        values = _args.parse(dict(kwargs), ("topics", "future"), [_T, _OT])
        if len(topics) == 0:
            raise ValueError("Expected non-empty list of topic strings")
        opts = self._options(values)
        names = [_group_name(t, "topic") for t in topics]
        f = _internal(futmap, lambda r, fm: _topics_result(dict(r), fm))
        self._delete_topics(f, names, opts)
        return futmap

    def create_partitions(self, new_partitions: List[NewPartitions], **kwargs: "Unpack[_CreateOptions]"
                          ) -> Dict[str, "Future[None]"]:
        """Add partitions to topics.

        :param new_partitions: A :class:`NewPartitions` per topic.
        :param kwargs: ``operation_timeout``, ``request_timeout`` (seconds), ``validate_only``.
        :returns: ``{topic: Future}``; each future's result is None once done.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        futmap = _futures([x.topic for x in new_partitions])
        values = _args.parse(dict(kwargs), ("topics", "future"), [_VO, _T, _OT])
        _non_empty_list(new_partitions, "NewPartitions")
        _args.check_bool(values, "validate_only")
        opts = self._options(values)
        specs = [_new_partitions_spec(p) for p in new_partitions]
        f = _internal(futmap, lambda r, fm: _topics_result(dict(r), fm))
        self._create_partitions(f, specs, opts)
        return futmap

    def describe_topics(self, topics: TopicCollection, **kwargs: "Unpack[_DescribeOptions]"
                        ) -> Dict[str, "Future[TopicDescription]"]:
        """Describe topics.

        :param topics: The topics (:class:`TopicCollection`).
        :param kwargs: ``request_timeout`` (seconds), ``include_authorized_operations``.
        :returns: ``{topic: Future}`` resolving to :class:`TopicDescription`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if not isinstance(topics, TopicCollection):
            raise TypeError("Expected input to be instance of TopicCollection")
        names = topics.topic_names
        if not isinstance(names, list):
            raise TypeError("Expected list of topic names to be described")
        futmap = _futures(names)
        values = _args.parse(dict(kwargs), ("topic_names", "future"), [_T, _AUTH])
        _args.check_bool(values, "include_authorized_operations")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise TypeError(f"Expected list of topics strings, not {type(name).__name__}")
            if not name:
                raise ValueError(f"Empty topic name at index {i} isn't allowed")
        opts = self._options(values)
        f = _internal(futmap, lambda r, fm: _by_index([_topic_description(t) for t in r], fm))
        self._describe_topics(f, list(names), opts)
        return futmap

    def describe_cluster(self, **kwargs: "Unpack[_DescribeOptions]") -> "Future[DescribeClusterResult]":
        """Describe the cluster: its id, controller and brokers.

        :param kwargs: ``request_timeout`` (seconds), ``include_authorized_operations``.
        :returns: A future resolving to :class:`DescribeClusterResult`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        values = _args.parse(dict(kwargs), ("future",), [_T, _AUTH])
        _args.check_bool(values, "include_authorized_operations")
        opts = self._options(values)
        fut = _new_future()

        def distribute(r: Tuple[Any, ...], _: Dict[Any, Any]) -> None:
            nodes = [n for n in map(_node, r[2]) if n is not None]
            _settle(fut, DescribeClusterResult(_node(r[1]), nodes, r[0], r[3]))

        self._describe_cluster(_internal({None: fut}, distribute), opts)
        return fut

    def list_topics(self, *args: Any, **kwargs: Any) -> ClusterMetadata:
        """The cluster's brokers and topics (one topic if ``topic`` is given), synchronously.

        :param args: ``topic=None``, ``timeout=-1`` (seconds).
        :param kwargs: The same, by keyword.
        :returns: :class:`ClusterMetadata`.
        :raises confluent_kafka.KafkaException: The metadata could not be had in time.
        """
        return super().list_topics(*args, **kwargs)

    def cluster_id(self, *args: Any, **kwargs: Any) -> str:
        """The cluster id, synchronously.

        :param args: ``timeout=-1`` (seconds; negative: no limit).
        :param kwargs: The same, by keyword.
        :returns: The cluster id.
        :raises confluent_kafka.KafkaException: It is not known within the timeout.
        """
        return super().cluster_id(*args, **kwargs)

    def list_groups(self, *args: Any, **kwargs: Any) -> List[GroupMetadata]:
        """The groups the brokers know (all, or just ``group``), synchronously. Deprecated:
        use :meth:`list_consumer_groups` and :meth:`describe_consumer_groups`.

        :param args: ``group=None``, ``timeout=-1`` (seconds).
        :param kwargs: The same, by keyword.
        :returns: A :class:`GroupMetadata` per group.
        :raises confluent_kafka.KafkaException: The brokers could not be asked in time.
        """
        warnings.warn("list_groups() is deprecated, use list_consumer_groups() and describe_consumer_groups() "
                      "instead.", category=DeprecationWarning, stacklevel=2)
        group, timeout = _list_groups_args(args, kwargs)
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

    # ---- configs ------------------------------------------------------------------------------

    def describe_configs(self, resources: List[ConfigResource], **kwargs: "Unpack[_DescribeConfigsOptions]"
                         ) -> Dict[ConfigResource, "Future[Dict[str, ConfigEntry]]"]:
        """Describe the configuration of resources. At most one BROKER resource per call.

        :param resources: The :class:`ConfigResource` objects.
        :param kwargs: ``request_timeout`` (seconds), ``broker`` (the broker id to ask).
        :returns: ``{ConfigResource: Future}`` resolving to ``{name: ConfigEntry}``.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        futmap = _futures(resources, ConfigResource)
        values = _args.parse(dict(kwargs), ("resources", "future"), [_T, _BROKER])
        _non_empty_list(resources, "ConfigResource")
        opts = self._options(values)
        specs = [_resource_spec(r) for r in resources]
        f = _internal(futmap, lambda r, fm: _resources_result(_configs(True)(r), fm))
        self._describe_configs(f, specs, opts)
        return futmap

    def alter_configs(self, resources: List[ConfigResource], **kwargs: "Unpack[_AlterConfigsOptions]"
                      ) -> Dict[ConfigResource, "Future[None]"]:
        """Replace the whole configuration of resources with their ``set_config`` values: a
        property not given reverts to its default. Deprecated: use
        :meth:`incremental_alter_configs`.

        :param resources: The :class:`ConfigResource` objects.
        :param kwargs: ``request_timeout`` (seconds), ``validate_only``, ``broker``.
        :returns: ``{ConfigResource: Future}`` resolving to None.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        warnings.warn("alter_configs has been deprecated. Use incremental_alter_configs instead.",
                      category=DeprecationWarning, stacklevel=2)
        futmap = _futures(resources, ConfigResource)
        values = _args.parse(dict(kwargs), ("resources", "future"), [_VO, _T, _BROKER])
        _non_empty_list(resources, "ConfigResource")
        _args.check_bool(values, "validate_only")
        opts = self._options(values)
        specs = [_resource_spec(r) + ({str(k): str(v) for k, v in r.set_config_dict.items()},) for r in resources]
        f = _internal(futmap, lambda r, fm: _resources_result(_configs(False)(r), fm))
        self._alter_configs(f, specs, opts)
        return futmap

    def incremental_alter_configs(self, resources: List[ConfigResource],
                                  **kwargs: "Unpack[_AlterConfigsOptions]") -> Dict[ConfigResource, "Future[None]"]:
        """Apply each resource's ``incremental_configs`` (set, delete, append, subtract); other
        properties keep their values.

        :param resources: The :class:`ConfigResource` objects.
        :param kwargs: ``request_timeout`` (seconds), ``validate_only``, ``broker``.
        :returns: ``{ConfigResource: Future}`` resolving to None.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        futmap = _futures(resources, ConfigResource, TypeError)
        values = _args.parse(dict(kwargs), ("resources", "future"), [_VO, _T, _BROKER])
        _non_empty_list(resources, "ConfigResource")
        _args.check_bool(values, "validate_only")
        opts = self._options(values)
        specs = [_incremental_spec(r) for r in resources]
        f = _internal(futmap, lambda r, fm: _resources_result(_configs(False)(r), fm))
        self._incremental_alter_configs(f, specs, opts)
        return futmap

    # ---- ACLs ---------------------------------------------------------------------------------

    def create_acls(self, acls: List[AclBinding], **kwargs: "Unpack[_Timeout]") -> Dict[AclBinding, "Future[None]"]:
        """Create ACL bindings.

        :param acls: Distinct :class:`AclBinding` objects.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: ``{AclBinding: Future}`` resolving to None.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if len(set(acls)) != len(acls):
            raise ValueError("duplicate ACL bindings not allowed")
        futmap = _futures(acls, AclBinding)
        values = _args.parse(dict(kwargs), ("acls", "future"), [_T])
        _non_empty_list(acls, "AclBinding")
        opts = self._options(values)
        specs = [_binding_spec(a) for a in acls]
        f = _internal(futmap, _by_index)
        self._create_acls(f, specs, opts)
        return futmap

    def describe_acls(self, acl_binding_filter: AclBindingFilter, **kwargs: "Unpack[_Timeout]"
                      ) -> "Future[List[AclBinding]]":
        """The ACL bindings that match a filter.

        :param acl_binding_filter: The :class:`AclBindingFilter`.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: A future resolving to a list of :class:`AclBinding`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        values = _args.parse(dict(kwargs), ("acl_binding_filter", "future"), [_T])
        opts = self._options(values)
        if not isinstance(acl_binding_filter, AclBindingFilter):
            raise TypeError("Expected an AclBindingFilter object")
        fut = _new_future()
        f = _internal({None: fut}, lambda r, _: _settle(fut, [_acl(t) for t in r]))
        self._describe_acls(f, _acl_spec(acl_binding_filter), opts)
        return fut

    def delete_acls(self, acl_binding_filters: List[AclBindingFilter], **kwargs: "Unpack[_Timeout]"
                    ) -> Dict[AclBindingFilter, "Future[List[AclBinding]]"]:
        """Delete the ACL bindings that match each filter.

        :param acl_binding_filters: Distinct :class:`AclBindingFilter` objects.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: ``{AclBindingFilter: Future}`` resolving to the deleted :class:`AclBinding` list.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if len(set(acl_binding_filters)) != len(acl_binding_filters):
            raise ValueError("duplicate ACL binding filters not allowed")
        futmap = _futures(acl_binding_filters, AclBindingFilter)
        values = _args.parse(dict(kwargs), ("acls", "future"), [_T])
        _non_empty_list(acl_binding_filters, "AclBindingFilter")
        opts = self._options(values)
        specs = [_acl_spec(a) for a in acl_binding_filters]

        def distribute(r: List[Tuple[Any, ...]], fm: Dict[Any, Any]) -> None:
            _by_index([err if err is not None else [_acl(t) for t in acls] for err, acls in r], fm)

        self._delete_acls(_internal(futmap, distribute), specs, opts)
        return futmap

    # ---- consumer groups ----------------------------------------------------------------------

    def list_consumer_groups(self, **kwargs: "Unpack[_ListGroupsOptions]") -> "Future[ListConsumerGroupsResult]":
        """List consumer groups.

        :param kwargs: ``request_timeout`` (seconds); ``states``: a set of
            :class:`ConsumerGroupState`, ``types``: a set of :class:`ConsumerGroupType` to list
            only those.
        :returns: A future resolving to :class:`ListConsumerGroupsResult`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        kw: Dict[str, Any] = dict(kwargs)
        for name, cls in (("states", ConsumerGroupState), ("types", ConsumerGroupType)):
            if name not in kw:
                continue
            given = kw.pop(name)
            if given is None:
                continue
            if not isinstance(given, set):
                raise TypeError(f"'{name}' must be a set")
            for member in given:
                if not isinstance(member, cls):
                    raise TypeError(f"All elements of {name} must be of type {cls.__name__}")
            kw[f"{name}_int"] = [member.value for member in given]
        values = _args.parse(kw, ("future",), [("states_int", "O"), ("types_int", "O"), _T])
        opts = self._options(values)
        opts.update(_group_filters(values))
        fut = _new_future()

        def distribute(r: Tuple[List[Tuple[Any, ...]], List[KafkaError]], _: Dict[Any, Any]) -> None:
            valid = [ConsumerGroupListing(g, simple, _enum(ConsumerGroupState, st), _enum(ConsumerGroupType, ty))
                     for g, simple, st, ty in r[0]]
            _settle(fut, ListConsumerGroupsResult(valid, list(r[1])))

        self._list_consumer_groups(_internal({None: fut}, distribute), opts)
        return fut

    def describe_consumer_groups(self, group_ids: List[str], **kwargs: "Unpack[_DescribeOptions]"
                                 ) -> Dict[str, "Future[ConsumerGroupDescription]"]:
        """Describe consumer groups.

        :param group_ids: The group ids.
        :param kwargs: ``request_timeout`` (seconds), ``include_authorized_operations``.
        :returns: ``{group_id: Future}`` resolving to :class:`ConsumerGroupDescription`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if not isinstance(group_ids, list):
            raise TypeError("Expected input to be list of group ids to be described")
        if len(group_ids) == 0:
            raise ValueError("Expected at least one group to be described")
        futmap = _futures(group_ids)
        values = _args.parse(dict(kwargs), ("future", "group_ids"), [_AUTH, _T])
        _args.check_bool(values, "include_authorized_operations")
        names = [_group_name(g, "group") for g in group_ids]
        opts = self._options(values)
        f = _internal(futmap, lambda r, fm: _by_index([_group_description(t) for t in r], fm))
        self._describe_consumer_groups(f, names, opts)
        return futmap

    def delete_consumer_groups(self, group_ids: List[str], **kwargs: "Unpack[_Timeout]"
                               ) -> Dict[str, "Future[None]"]:
        """Delete consumer groups (they must have no members).

        :param group_ids: The group ids.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: ``{group_id: Future}`` resolving to None.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if not isinstance(group_ids, list):
            raise TypeError("Expected input to be list of group ids to be deleted")
        if len(group_ids) == 0:
            raise ValueError("Expected at least one group to be deleted")
        futmap = _futures(group_ids, string_type)
        values = _args.parse(dict(kwargs), ("group_ids", "future"), [_T])
        opts = self._options(values)
        f = _internal(futmap, lambda r, fm: _by_index([err for _, err in r], fm))
        self._delete_consumer_groups(f, list(group_ids), opts)
        return futmap

    def list_consumer_group_offsets(self, list_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                    **kwargs: "Unpack[_GroupOffsetsOptions]"
                                    ) -> Dict[str, "Future[ConsumerGroupTopicPartitions]"]:
        """The committed offsets of one group: of all its partitions, or of those listed.

        :param list_consumer_group_offsets_request: One :class:`ConsumerGroupTopicPartitions`.
        :param kwargs: ``request_timeout`` (seconds), ``require_stable``.
        :returns: ``{group_id: Future}`` resolving to :class:`ConsumerGroupTopicPartitions`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        request = list_consumer_group_offsets_request
        _check_group_offsets_request(request, False)
        futmap = _futures([r.group_id for r in request], string_type)
        values = _args.parse(dict(kwargs), ("request", "future"), [_STABLE, _T])
        _args.check_bool(values, "require_stable")
        opts = self._options(values)
        specs = [(r.group_id, None if r.topic_partitions is None else list(r.topic_partitions)) for r in request]
        f = _internal(futmap, lambda r, fm: _by_index(_group_offsets(r), fm))
        self._list_consumer_group_offsets(f, specs, opts)
        return futmap

    def alter_consumer_group_offsets(self, alter_consumer_group_offsets_request: List[ConsumerGroupTopicPartitions],
                                     **kwargs: "Unpack[_Timeout]") -> Dict[str, "Future[ConsumerGroupTopicPartitions]"]:
        """Set committed offsets of one group (it must have no active members).

        :param alter_consumer_group_offsets_request: One :class:`ConsumerGroupTopicPartitions`
            whose partitions carry the offsets.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: ``{group_id: Future}`` resolving to :class:`ConsumerGroupTopicPartitions`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        request = alter_consumer_group_offsets_request
        _check_group_offsets_request(request, True)
        futmap = _futures([r.group_id for r in request], string_type)
        values = _args.parse(dict(kwargs), ("request", "future"), [_T])
        opts = self._options(values)
        specs = [(r.group_id, list(r.topic_partitions or [])) for r in request]
        f = _internal(futmap, lambda r, fm: _by_index(_group_offsets(r), fm))
        self._alter_consumer_group_offsets(f, specs, opts)
        return futmap

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """Set the SASL PLAIN/SCRAM credentials used from the next authentication on (existing
        connections are kept).

        :param username: The user name.
        :param password: The password.
        """
        super().set_sasl_credentials(username, password)

    # ---- SCRAM --------------------------------------------------------------------------------

    def describe_user_scram_credentials(self, users: Optional[List[str]] = None,
                                        **kwargs: "Unpack[_Timeout]") -> Any:
        """Describe users' SASL/SCRAM credentials.

        :param users: The user names, or None for every user.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: With ``users``: ``{user: Future}`` resolving to
            :class:`UserScramCredentialsDescription`. With None: one future resolving to
            ``{user: UserScramCredentialsDescription}``.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if users is not None:
            if not isinstance(users, list):
                raise TypeError("Expected input to be list of String")
            for user in users:
                if user is None:
                    raise TypeError("'user' cannot be None")
                if not isinstance(user, string_type):
                    raise TypeError("Each value should be a string")
                if not user:
                    raise ValueError("'user' cannot be empty")

        def describe(r: List[Tuple[Any, ...]]) -> Dict[str, Any]:
            return {user: err if err is not None else UserScramCredentialsDescription(
                user, [ScramCredentialInfo(_enum(ScramMechanism, m), it) for m, it in infos])
                for user, err, infos in r}

        if users is None:
            single = _new_future()

            def one(r: List[Tuple[Any, ...]], _: Dict[Any, Any]) -> None:
                results = describe(r)
                for value in results.values():
                    if isinstance(value, KafkaError):
                        _settle(single, exc=KafkaException(value))
                        return
                _settle(single, results)

            f = _internal({None: single}, one)
            result: Any = single
        else:
            futmap = _futures(users)
            f = _internal(futmap, lambda r, fm: _by_key(describe(r), fm))
            result = futmap
        values = _args.parse(dict(kwargs), ("users", "future"), [_T])
        opts = self._options(values)
        self._describe_user_scram_credentials(f, [] if users is None else list(users), opts)
        return result

    def alter_user_scram_credentials(self, alterations: List[UserScramCredentialAlteration],
                                     **kwargs: "Unpack[_Timeout]") -> Dict[str, "Future[None]"]:
        """Upsert or delete users' SASL/SCRAM credentials.

        :param alterations: :class:`UserScramCredentialUpsertion` and
            :class:`UserScramCredentialDeletion` objects; (user, mechanism) must be unique.
        :param kwargs: ``request_timeout`` (seconds).
        :returns: ``{user: Future}`` resolving to None.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        _check_scram_alterations(alterations)
        futmap = _futures({a.user for a in alterations})
        values = _args.parse(dict(kwargs), ("alterations", "future"), [_T])
        opts = self._options(values)
        specs: List[Tuple[Any, ...]] = []
        for a in alterations:
            if isinstance(a, UserScramCredentialUpsertion):
                info = a.scram_credential_info
                specs.append((a.user, info.mechanism.value, info.iterations, a.password, a.salt))
            else:
                assert isinstance(a, UserScramCredentialDeletion)
                specs.append((a.user, a.mechanism.value))
        f = _internal(futmap, lambda r, fm: _by_key({u: e for u, e in r}, fm))
        self._alter_user_scram_credentials(f, specs, opts)
        return futmap

    # ---- offsets, records, leaders ------------------------------------------------------------

    def list_offsets(self, topic_partition_offsets: Dict[TopicPartition, OffsetSpec],
                     **kwargs: "Unpack[_ListOffsetsOptions]") -> Dict[TopicPartition, "Future[ListOffsetsResultInfo]"]:
        """Look up offsets: the earliest, the latest, the one with the largest timestamp, or the
        first at a timestamp (:class:`OffsetSpec`).

        :param topic_partition_offsets: ``{TopicPartition: OffsetSpec}``.
        :param kwargs: ``request_timeout`` (seconds), ``isolation_level``
            (:class:`IsolationLevel`).
        :returns: ``{TopicPartition: Future}`` resolving to :class:`ListOffsetsResultInfo`; the
            keys are new TopicPartition objects whose offset is the spec's index.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        kw: Dict[str, Any] = dict(kwargs)
        _check_list_offsets(topic_partition_offsets, kw)
        if "isolation_level" in kw:
            kw["isolation_level_value"] = kw.pop("isolation_level").value
        request = [TopicPartition(tp.topic, int(tp.partition), int(spec._value))
                   for tp, spec in topic_partition_offsets.items()]
        futmap = _futures(request, TopicPartition, TypeError)
        values = _args.parse(kw, ("topic_partitions", "future"), [("isolation_level_value", "i"), _T])
        opts = self._options(values)

        def distribute(r: List[Tuple[Any, ...]], fm: Dict[Any, Any]) -> None:
            _by_key({TopicPartition(t, p): err if err is not None else ListOffsetsResultInfo(
                off, ts, -1 if epoch is None else epoch) for t, p, err, off, ts, epoch in r}, fm)

        self._list_offsets(_internal(futmap, distribute), request, opts)
        return futmap

    def delete_records(self, topic_partition_offsets: List[TopicPartition], **kwargs: "Unpack[_Timeouts]"
                       ) -> Dict[TopicPartition, "Future[DeletedRecords]"]:
        """Delete the records before each partition's offset (``OFFSET_END``: all of them).

        :param topic_partition_offsets: A :class:`TopicPartition` per partition, with the offset.
        :param kwargs: ``request_timeout``, ``operation_timeout`` (seconds).
        :returns: ``{TopicPartition: Future}`` resolving to :class:`DeletedRecords`.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        request = topic_partition_offsets
        if not isinstance(request, list):
            raise TypeError(f"Expected Request to be a list, got '{type(request).__name__}' ")
        for tp in request:
            if not isinstance(tp, TopicPartition):
                raise TypeError(f"Element of the request list must be of type 'TopicPartition' got '{type(tp).__name__}' ")
            if tp.partition < 0:
                raise ValueError("'partition' cannot be negative")
        futmap = _futures(request, TopicPartition, TypeError)
        values = _args.parse(dict(kwargs), ("topic_partitions", "future"), [_T, _OT])
        opts = self._options(values)

        def distribute(r: List[TopicPartition], fm: Dict[Any, Any]) -> None:
            _by_key({TopicPartition(tp.topic, tp.partition): tp.error if tp.error is not None
                     else DeletedRecords(tp.offset) for tp in r}, fm)

        parts = [TopicPartition(tp.topic, tp.partition, tp.offset) for tp in request]
        self._delete_records(_internal(futmap, distribute), parts, opts)
        return futmap

    def elect_leaders(self, election_type: ElectionType, partitions: Optional[List[TopicPartition]] = None,
                      **kwargs: "Unpack[_Timeouts]") -> "Future[Dict[TopicPartition, Optional[Exception]]]":
        """Run a preferred or unclean leader election.

        :param election_type: The :class:`ElectionType`.
        :param partitions: The partitions, or None for every partition.
        :param kwargs: ``request_timeout``, ``operation_timeout`` (seconds). (Upstream's
            elect_leaders fails with SystemError when given either; these work.)
        :returns: A future resolving to ``{TopicPartition: None or KafkaException}``.
        :raises TypeError: An argument of the wrong type.
        :raises ValueError: An argument with a wrong value.
        """
        if not isinstance(election_type, ElectionType):
            raise TypeError("Expected 'election_type' to be of type 'ElectionType'")
        if partitions is not None:
            if not isinstance(partitions, list):
                raise TypeError(f"Expected 'partitions' to be a list, got '{type(partitions).__name__}'")
            for tp in partitions:
                if not isinstance(tp, TopicPartition):
                    raise TypeError("Element of the 'partitions' list must be of type 'TopicPartition' got "
                                    f"'{type(tp).__name__}' ")
                if tp.partition < 0:
                    raise ValueError("Elements of the 'partitions' list must not have negative value for "
                                     "'partition' field")
        values = _args.parse(dict(kwargs), ("election_type", "partitions", "future"), [_T, _OT])
        opts = self._options(values)
        fut = _new_future()

        def distribute(r: List[Tuple[Any, ...]], _: Dict[Any, Any]) -> None:
            _settle(fut, {TopicPartition(t, p): None if err is None else KafkaException(err) for t, p, err in r})

        parts = None if partitions is None else [TopicPartition(tp.topic, tp.partition) for tp in partitions]
        self._elect_leaders(_internal({None: fut}, distribute), election_type.value, parts, opts)
        return fut


def _check_list_offsets(request: Any, kwargs: Dict[str, Any]) -> None:
    if not isinstance(request, dict):
        raise TypeError("Expected topic_partition_offsets to be dict of [TopicPartitions,OffsetSpec] for list "
                        "offsets request")
    for tp, spec in request.items():
        if tp is None:
            raise TypeError("partition cannot be None")
        if not isinstance(tp, TopicPartition):
            raise TypeError("partition must be a TopicPartition")
        if tp.topic is None:
            raise TypeError("partition topic name cannot be None")
        if not isinstance(tp.topic, string_type):
            raise TypeError("partition topic name must be string")
        if not tp.topic:
            raise ValueError("partition topic name cannot be empty")
        if tp.partition < 0:
            raise ValueError("partition index must be non-negative")
        if spec is None:
            raise TypeError("OffsetSpec cannot be None")
        if not isinstance(spec, OffsetSpec):
            raise TypeError("Value must be a OffsetSpec")
    if "isolation_level" in kwargs and not isinstance(kwargs["isolation_level"], IsolationLevel):
        raise TypeError("isolation_level argument should be an IsolationLevel")


def _group_filters(values: Dict[str, Any]) -> Dict[str, Any]:
    """The ``states``/``types`` options of list_consumer_groups, checked as upstream's C does."""
    out: Dict[str, Any] = {}
    states = values.get("states_int")
    if states is not None:
        if not isinstance(states, list):
            raise ValueError("states must of type list")
        for s in states:
            if not isinstance(s, int):
                raise ValueError("Element of states must be valid states")
            if not 0 <= s <= ConsumerGroupState.EMPTY.value:
                raise ValueError("Invalid group state value")
        if states:
            out["states"] = list(dict.fromkeys(states))
    types = values.get("types_int")
    if types is not None:
        if not isinstance(types, list):
            raise ValueError("types must of type list")
        for t in types:
            if not isinstance(t, int) or not 0 <= t <= ConsumerGroupType.CLASSIC.value:
                raise ValueError("Only a valid type is allowed")
            if t == ConsumerGroupType.UNKNOWN.value:
                raise ValueError("UNKNOWN type is not allowed")
        if types:
            out["types"] = list(dict.fromkeys(types))
    return out


def _list_groups_args(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[Optional[str], Optional[float]]:
    """``list_groups(group=None, timeout=-1)`` parsed as upstream's C parses it."""
    names = ("group", "timeout")
    if len(args) + len(kwargs) > 2:
        raise TypeError(f"function takes at most 2 arguments ({len(args) + len(kwargs)} given)")
    given: Dict[str, Any] = dict(zip(names, args))
    for name in kwargs:
        if name in given:
            raise TypeError(f"argument for function given by name ('{name}') and position "
                            f"({names.index(name) + 1})")
    if any(name not in names for name in kwargs):
        _check_keywords(names, kwargs)  # the interpreter's own words for an unknown keyword
    given.update(kwargs)
    group = given.get("group")
    if group is not None and not isinstance(group, str):
        raise TypeError(f"argument 1 must be str or None, not {type(group).__name__}")
    timeout = _args.as_float(given["timeout"]) if "timeout" in given else -1.0
    return group, timeout
