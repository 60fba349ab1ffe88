"""``aiokafka.admin.client``: ``AIOKafkaAdminClient`` over this package's librdkafka admin client.

Each method sends the native request that does what aiokafka's does and returns what aiokafka
returns: plain values, or the protocol responses of :mod:`._responses` (same class names, fields
and shapes). librdkafka finds controllers, coordinators and partition leaders itself. The native
futures are awaited through ``asyncio.wrap_future`` (no thread pool). docs/aiokafka.md lists what
each method maps to and where the facade differs.
"""
from __future__ import annotations

import inspect
import logging
import warnings
from typing import Any, Dict, List, Optional, Tuple

import confluent_kafka.admin as _cka
from confluent_kafka.cimpl import OFFSET_INVALID, KafkaException
from confluent_kafka.cimpl import TopicPartition as _TP
from confluent_kafka.compat._native_admin import item_code

from .. import _options
from ..errors import (IllegalStateError, IncompatibleBrokerVersion, KafkaConfigurationError, KafkaConnectionError,
                      KafkaError, for_code)
from ..producer.producer import _sasl_prune, _security_conf
from ..structs import OffsetAndMetadata, TopicPartition
from . import _configs, _groups, _native
from ._responses import (AlterConfigsResponse_v1, CreatePartitionsResponse_v1, CreateTopicsResponse_v3,
                         DeleteTopicsResponse_v3, DescribeConfigsResponse_v2, DescribeGroupsResponse_v3)
from .config_resource import ConfigResource
from .new_partitions import NewPartitions
from .new_topic import NewTopic
from .records_to_delete import RecordsToDelete

__all__ = ["AIOKafkaAdminClient"]

log = logging.getLogger(__name__)

_COORDINATOR_NOT_AVAILABLE = 15


def _names(values: Any, what: str) -> List[str]:
    items = list(values)
    for v in items:
        if not isinstance(v, str):
            raise TypeError(f"{what} must be str, got {v!r}")
    return items


class AIOKafkaAdminClient:
    """aiokafka's ``AIOKafkaAdminClient`` on librdkafka (see docs/aiokafka.md).

    Takes aiokafka's options; one with no librdkafka equivalent raises
    :class:`~.._options.UnsupportedOption` (a ``KafkaConfigurationError``) unless it has its
    default. ``start()`` waits until a broker answers; librdkafka connects on demand, so the
    methods also work before it.
    """

    def __init__(self, *, loop: Any = None, bootstrap_servers: Any = "localhost",
                 client_id: str = "aiokafka-0.14.0", request_timeout_ms: int = 40000,
                 connections_max_idle_ms: int = 540000, retry_backoff_ms: int = 100,
                 metadata_max_age_ms: int = 300000, security_protocol: str = "PLAINTEXT",
                 ssl_context: Any = None, api_version: None = None, sasl_mechanism: str = "PLAIN",
                 sasl_plain_username: Optional[str] = None, sasl_plain_password: Optional[str] = None,
                 sasl_kerberos_service_name: str = "kafka", sasl_kerberos_domain_name: Optional[str] = None,
                 sasl_oauth_token_provider: Any = None) -> None:
        values = _options.arguments(locals())
        try:
            timeout_ms = _options._ms(request_timeout_ms)
        except (TypeError, ValueError) as e:
            raise type(e)(f"AIOKafkaAdminClient(request_timeout_ms=...): {e}") from None
        if timeout_ms == 0:
            raise ValueError("AIOKafkaAdminClient(request_timeout_ms=0): a request needs time to be answered")
        conf = _options.to_librdkafka(_options.ADMIN, values, _ADMIN_DEFAULTS, "AIOKafkaAdminClient")
        conf.update(_security_conf(values, "AIOKafkaAdminClient"))
        _sasl_prune(conf)
        self._bootstrap = conf["bootstrap.servers"]
        self._timeout = timeout_ms / 1000.0
        try:
            self._admin = _cka.AdminClient(conf)
        except KafkaException as e:
            raise KafkaConfigurationError(e.args[0].str()) from None
        self._started = False
        self._closed = False

    # ---- lifetime --------------------------------------------------------------------------

    async def start(self) -> None:
        """Wait until a broker answers (at most request_timeout_ms). A second call does nothing.

        :raises ~..errors.KafkaConnectionError: when no broker answered.
        :raises ~..errors.IllegalStateError: after close().
        """
        self._check_open()
        if self._started:
            return
        try:
            await _native.metadata(self._admin, self._timeout)
        except KafkaError as e:
            raise KafkaConnectionError(f"Unable to bootstrap from {self._bootstrap}: {e}") from None
        log.debug("AIOKafkaAdminClient started")
        self._started = True

    async def close(self) -> None:
        """Release the client; a second call does nothing. Every other method then raises
        IllegalStateError."""
        if self._closed:
            return
        self._closed = True
        self._admin.close()

    def _check_open(self) -> None:
        if self._closed:
            raise IllegalStateError("AIOKafkaAdminClient is closed")

    def _broker_timeout(self, timeout_ms: Optional[int]) -> float:
        """The broker's timeout of an operation, in seconds: ``timeout_ms``, else request_timeout_ms."""
        self._check_open()
        if not timeout_ms:
            return self._timeout
        return _options._ms(timeout_ms) / 1000.0

    # ---- topics ----------------------------------------------------------------------------

    async def create_topics(self, new_topics: List[NewTopic], timeout_ms: Optional[int] = None,
                            validate_only: bool = False) -> CreateTopicsResponse_v3:
        """Create topics. A topic the broker refuses is reported in the response, not raised.

        :param new_topics: a :class:`~.new_topic.NewTopic` per topic.
        :param timeout_ms: how long the broker may take (default request_timeout_ms).
        :param validate_only: only check the request.
        :returns: a ``CreateTopicsResponse_v3``: ``topic_errors`` holds ``(topic, error_code,
            error_message)`` per topic (0 and None when it was created).
        :raises TypeError: for an item that is not a NewTopic.
        :raises ~..errors.KafkaError: for a failed request (KafkaTimeoutError, ...).
        """
        operation = self._broker_timeout(timeout_ms)
        topics = list(new_topics)
        specs = []
        for t in topics:
            if not isinstance(t, NewTopic):
                raise TypeError(f"new_topics must hold NewTopic objects, got {t!r}")
            config = {str(k): str(v) for k, v in t.topic_configs.items()}
            if t.replica_assignments:
                assignment = [list(t.replica_assignments[p]) for p in sorted(t.replica_assignments)]
                specs.append(_cka.NewTopic(t.name, replica_assignment=assignment, config=config))
            else:
                specs.append(_cka.NewTopic(t.name, t.num_partitions, t.replication_factor, config=config))
        if not specs:
            return CreateTopicsResponse_v3(0, [])
        futures = _native.call(self._admin.create_topics, specs, request_timeout=self._timeout,
                               operation_timeout=operation, validate_only=bool(validate_only))
        done = await _native.outcomes(futures, self._timeout + operation)
        errors = []
        for t in topics:
            err = done[t.name][1]
            errors.append((t.name, 0, None) if err is None else (t.name, item_code(err), err.str()))
        return CreateTopicsResponse_v3(0, errors)

    async def delete_topics(self, topics: List[str], timeout_ms: Optional[int] = None) -> DeleteTopicsResponse_v3:
        """Delete topics. A topic the broker refuses (e.g. unknown: code 3) is reported in the
        response, not raised.

        :param topics: topic names.
        :param timeout_ms: how long the broker may take (default request_timeout_ms).
        :returns: a ``DeleteTopicsResponse_v3``: ``topic_error_codes`` holds ``(topic,
            error_code)`` per topic.
        :raises TypeError: for a name that is not a str.
        :raises ~..errors.KafkaError: for a failed request.
        """
        operation = self._broker_timeout(timeout_ms)
        names = list(dict.fromkeys(_names(topics, "topics")))
        if not names:
            return DeleteTopicsResponse_v3(0, [])
        futures = _native.call(self._admin.delete_topics, names, request_timeout=self._timeout,
                               operation_timeout=operation)
        done = await _native.outcomes(futures, self._timeout + operation)
        return DeleteTopicsResponse_v3(0, [(n, 0 if err is None else item_code(err)) for n, (_, err) in done.items()])

    async def list_topics(self) -> List[str]:
        """:returns: the names of the cluster's topics."""
        self._check_open()
        md = await _native.metadata(self._admin, self._timeout)
        return list(md.topics)

    async def describe_topics(self, topics: Optional[List[str]] = None) -> List[Any]:
        """Describe topics.

        :param topics: topic names; None: every topic.
        :returns: one dict per topic: ``error_code`` (3 for a topic the cluster does not have),
            ``topic``, ``is_internal`` and ``partitions``, each with ``error_code``,
            ``partition``, ``leader``, ``replicas``, ``isr`` and ``offline_replicas``.
        :raises TypeError: for a name that is not a str.
        """
        self._check_open()
        names = list(dict.fromkeys(await self.list_topics() if topics is None else _names(topics, "topics")))
        if not names:
            return []
        futures = _native.call(self._admin.describe_topics, _cka.TopicCollection(names), request_timeout=self._timeout)
        done = await _native.outcomes(futures, self._timeout)
        out = []
        for name in names:
            desc, err = done[name]
            if desc is None:
                out.append({"error_code": 3 if err is None else item_code(err), "topic": name, "is_internal": False,
                            "partitions": []})
                continue
            parts = [{"error_code": 0, "partition": p.id, "leader": -1 if p.leader is None else p.leader.id,
                      "replicas": [n.id for n in p.replicas], "isr": [n.id for n in p.isr], "offline_replicas": []}
                     for p in sorted(desc.partitions, key=lambda p: p.id)]
            out.append({"error_code": 0, "topic": desc.name, "is_internal": bool(desc.is_internal),
                        "partitions": parts})
        return out

    async def describe_cluster(self) -> Dict[str, Any]:
        """:returns: ``{'throttle_time_ms', 'brokers': [{'node_id', 'host', 'port', 'rack'}],
            'cluster_id', 'controller_id'}``."""
        self._check_open()
        fut = _native.call(self._admin.describe_cluster, request_timeout=self._timeout)
        res = await _native.result(fut, self._timeout)
        return {"throttle_time_ms": 0,
                "brokers": [{"node_id": n.id, "host": n.host, "port": n.port, "rack": n.rack} for n in res.nodes],
                "cluster_id": res.cluster_id, "controller_id": -1 if res.controller is None else res.controller.id}

    # ---- configs ---------------------------------------------------------------------------

    async def describe_configs(self, config_resources: List[ConfigResource],
                               include_synonyms: bool = False) -> List[DescribeConfigsResponse_v2]:
        """Describe the configs of topics and brokers.

        :param config_resources: :class:`~.config_resource.ConfigResource` objects; the keys of
            one's ``configs`` select the configs reported (None or empty: every config).
        :param include_synonyms: report each config's synonyms too.
        :returns: a ``DescribeConfigsResponse_v2`` per broker asked about, then one for the
            topics (if any), as aiokafka sends one request per broker and one for topics.
        :raises ValueError: for a broker resource whose name is not a broker id.
        :raises ~..errors.KafkaError: for a failed request.
        """
        self._check_open()
        brokers, topics = _configs.by_broker(list(config_resources))
        groups = list(brokers.values()) + ([topics] if topics else [])
        natives = {(int(r.resource_type), str(r.name)): _configs.native(r) for g in groups for r in g}
        futures = (_native.call(self._admin.describe_configs, list(natives.values()), request_timeout=self._timeout)
                   if natives else {})
        done = await _native.outcomes({key: futures[n] for key, n in natives.items()}, self._timeout)
        responses = []
        for group in groups:
            resources = []
            for r in group:
                entries, err = done[(int(r.resource_type), str(r.name))]
                wanted = set(r.configs) if r.configs else None
                described = [_configs.described_entry(e, bool(include_synonyms)) for name, e in (entries or {}).items()
                             if wanted is None or name in wanted]
                resources.append((*_configs.status(err), int(r.resource_type), r.name, described))
            responses.append(DescribeConfigsResponse_v2(0, resources))
        return responses

    async def alter_configs(self, config_resources: List[ConfigResource]) -> List[AlterConfigsResponse_v1]:
        """Replace the configs of topics and brokers: the given keys get the given values, the
        other keys set on the resource go back to their defaults (Kafka's AlterConfigs).

        :param config_resources: :class:`~.config_resource.ConfigResource` objects whose
            ``configs`` are ``{key: value}``.
        :returns: an ``AlterConfigsResponse_v1`` for the topics, then one per broker;
            ``resources`` holds ``(error_code, error_message, resource_type, resource_name)``.
        :raises TypeError: for configs that are not a dict of values.
        :raises ~..errors.KafkaError: for a failed request.
        """
        self._check_open()
        brokers, topics = _configs.by_broker(list(config_resources))
        groups = [topics] + list(brokers.values())
        wanted = {(int(r.resource_type), str(r.name)): (r, _configs.set_values(r)) for g in groups for r in g}
        try:
            done = await self._alter(wanted)
        except IncompatibleBrokerVersion:
            # A broker without AlterConfigs (it is deprecated since Kafka 2.3): the same change
            # as IncrementalAlterConfigs requests.
            done = await self._alter_incrementally(wanted)
        return [AlterConfigsResponse_v1(0, [(*_configs.status(done[(int(r.resource_type), str(r.name))]),
                                             int(r.resource_type), r.name) for r in group])
                for group in groups]

    async def _alter(self, wanted: Dict[Tuple[int, str], Tuple[ConfigResource, Dict[str, str]]]) -> Dict[Any, Any]:
        natives = {key: _configs.native(r, set_config=values) for key, (r, values) in wanted.items()}
        if not natives:
            return {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # it is the request aiokafka sends
            futures = _native.call(self._admin.alter_configs, list(natives.values()), request_timeout=self._timeout)
        done = await _native.outcomes({key: futures[n] for key, n in natives.items()}, self._timeout)
        return {key: err for key, (_, err) in done.items()}

    async def _alter_incrementally(self, wanted: Dict[Tuple[int, str], Tuple[ConfigResource, Dict[str, str]]]
                                   ) -> Dict[Any, Any]:
        plain = {key: _configs.native(r) for key, (r, _) in wanted.items()}
        futures = _native.call(self._admin.describe_configs, list(plain.values()), request_timeout=self._timeout)
        current = await _native.outcomes({key: futures[n] for key, n in plain.items()}, self._timeout)
        natives = {}
        for key, (r, values) in wanted.items():
            changes = _configs.incremental_changes(values, current[key][0] or {})
            natives[key] = _configs.native(r, incremental_configs=changes)
        futures = _native.call(self._admin.incremental_alter_configs, list(natives.values()),
                               request_timeout=self._timeout)
        done = await _native.outcomes({key: futures[n] for key, n in natives.items()}, self._timeout)
        return {key: err for key, (_, err) in done.items()}

    # ---- partitions and records --------------------------------------------------------------

    async def create_partitions(self, topic_partitions: Dict[str, NewPartitions], timeout_ms: Optional[int] = None,
                                validate_only: bool = False) -> CreatePartitionsResponse_v1:
        """Raise topics' partition counts.

        :param topic_partitions: ``{topic: NewPartitions}``.
        :param timeout_ms: how long the broker may take (default request_timeout_ms).
        :param validate_only: only check the request.
        :returns: a ``CreatePartitionsResponse_v1``: ``topic_errors`` holds ``(topic, 0, None)``
            per topic.
        :raises ~..errors.BrokerResponseError: the first topic's error (e.g.
            InvalidPartitionsError), as aiokafka raises it.
        :raises ~..errors.IncompatibleBrokerVersion: the broker has no CreatePartitions API.
        :raises TypeError: for a value that is not a NewPartitions.
        """
        operation = self._broker_timeout(timeout_ms)
        specs = []
        for topic, new in dict(topic_partitions).items():
            if not isinstance(new, NewPartitions):
                raise TypeError(f"topic_partitions must map topic names to NewPartitions, got {new!r} for {topic!r}")
            if new.new_assignments is None:
                specs.append(_cka.NewPartitions(topic, new.total_count))
            else:
                specs.append(_cka.NewPartitions(topic, new.total_count, [list(b) for b in new.new_assignments]))
        if not specs:
            return CreatePartitionsResponse_v1(0, [])
        futures = _native.call(self._admin.create_partitions, specs, request_timeout=self._timeout,
                               operation_timeout=operation, validate_only=bool(validate_only))
        done = await _native.outcomes(futures, self._timeout + operation)
        for topic, (_, err) in done.items():
            if err is not None:
                raise for_code(item_code(err))(f"Could not create partitions for {topic}: {err.str()}")
        return CreatePartitionsResponse_v1(0, [(topic, 0, None) for topic in done])

    async def delete_records(self, records_to_delete: Dict[TopicPartition, RecordsToDelete],
                             timeout_ms: Optional[int] = None) -> Dict[TopicPartition, int]:
        """Delete the records before an offset in partitions.

        :param records_to_delete: ``{TopicPartition: RecordsToDelete}``.
        :param timeout_ms: how long the broker may take (default request_timeout_ms).
        :returns: ``{TopicPartition: the partition's new low watermark}``.
        :raises ~..errors.BrokerResponseError: the first partition's error (e.g.
            OffsetOutOfRangeError, UnknownTopicOrPartitionError).
        :raises TypeError: for a key that is not a TopicPartition or a value that is not a
            RecordsToDelete.
        """
        operation = self._broker_timeout(timeout_ms)
        request = []
        for tp, rec in dict(records_to_delete).items():
            if not isinstance(tp, TopicPartition):
                raise TypeError(f"records_to_delete must be keyed by TopicPartition, got {tp!r}")
            if not isinstance(rec, RecordsToDelete):
                raise TypeError(f"records_to_delete must map to RecordsToDelete, got {rec!r} for {tp}")
            request.append(_TP(tp.topic, tp.partition, rec.before_offset))
        if not request:
            return {}
        futures = _native.call(self._admin.delete_records, request, request_timeout=self._timeout,
                               operation_timeout=operation)
        done = await _native.outcomes({TopicPartition(k.topic, k.partition): f for k, f in futures.items()},
                                      self._timeout + operation)
        out: Dict[TopicPartition, int] = {}
        for tp, (res, err) in done.items():
            if err is not None:
                raise for_code(item_code(err))(f"Unable to delete records of {tp.topic} partition {tp.partition}: "
                                               f"{err.str()}")
            out[tp] = res.low_watermark
        return out

    # ---- consumer groups -----------------------------------------------------------------------

    async def describe_consumer_groups(self, group_ids: List[str], group_coordinator_id: Optional[int] = None,
                                       include_authorized_operations: bool = False) -> List[DescribeGroupsResponse_v3]:
        """Describe consumer groups.

        :param group_ids: the group ids.
        :param group_coordinator_id: report every group under this coordinator id (librdkafka
            finds each group's coordinator itself, so a wrong id changes nothing else).
        :param include_authorized_operations: report the operations this client may do on each
            group (a bit field per ACL operation).
        :returns: a ``DescribeGroupsResponse_v3`` per coordinator; ``groups`` holds
            ``(error_code, group, state, protocol_type, protocol, members,
            authorized_operations)``, each member ``(member_id, client_id, client_host,
            member_metadata, member_assignment)`` (the assignment in the consumer protocol's
            encoding).
        :raises ~..errors.GroupCoordinatorNotAvailableError: no coordinator for a group.
        :raises TypeError: for a group id that is not a str.
        """
        self._check_open()
        ids = list(dict.fromkeys(_names(group_ids, "group_ids")))
        if not ids:
            return []
        futures = _native.call(self._admin.describe_consumer_groups, ids, request_timeout=self._timeout,
                               include_authorized_operations=bool(include_authorized_operations))
        done = await _native.outcomes(futures, self._timeout)
        by_node: Dict[int, List[Tuple[Any, ...]]] = {}
        for gid in ids:
            desc, err = done[gid]
            if err is not None and item_code(err) == _COORDINATOR_NOT_AVAILABLE:
                raise for_code(_COORDINATOR_NOT_AVAILABLE)(f"Unable to get coordinator id for {gid}")
            node = group_coordinator_id
            if node is None:
                node = -1 if desc is None or desc.coordinator is None else desc.coordinator.id
            by_node.setdefault(node, []).append(_groups.group_entry(gid, desc, err))
        return [DescribeGroupsResponse_v3(0, entries) for entries in by_node.values()]

    async def list_consumer_groups(self, broker_ids: Optional[List[int]] = None) -> List[Tuple[Any, ...]]:
        """List the consumer groups.

        :param broker_ids: only the groups these brokers coordinate; None: every group.
        :returns: a ``(group_id, protocol_type)`` tuple per group (protocol_type ``'consumer'``, or
            ``''`` for a group that only commits offsets).
        :raises ~..errors.KafkaError: the first error a broker answered with.
        """
        self._check_open()
        fut = _native.call(self._admin.list_consumer_groups, request_timeout=self._timeout)
        res = await _native.result(fut, self._timeout)
        if res.errors:
            raise _native.request_error(res.errors[0].args[0] if isinstance(res.errors[0], KafkaException)
                                        else res.errors[0])
        groups = [(g.group_id, "" if g.is_simple_consumer_group else "consumer") for g in res.valid]
        if broker_ids is None or not groups:
            return groups
        wanted = set(broker_ids)
        futures = _native.call(self._admin.describe_consumer_groups, [g for g, _ in groups],
                               request_timeout=self._timeout)
        done = await _native.outcomes(futures, self._timeout)
        return [g for g in groups if (desc := done[g[0]][0]) is not None and desc.coordinator is not None
                and desc.coordinator.id in wanted]

    async def find_coordinator(self, group_id: str, coordinator_type: int = 0) -> int:
        """The id of the broker that coordinates a consumer group.

        :param group_id: the group id.
        :param coordinator_type: 0 (a consumer group); 1 (a transactional id) has no librdkafka
            API.
        :returns: the coordinator's broker id.
        :raises ~..errors.IncompatibleBrokerVersion: for coordinator_type 1.
        :raises ValueError: for another coordinator_type.
        :raises ~..errors.GroupCoordinatorNotAvailableError: no coordinator was found.
        """
        self._check_open()
        if not isinstance(group_id, str):
            raise TypeError(f"group_id must be str, got {group_id!r}")
        if coordinator_type == 1:
            raise IncompatibleBrokerVersion("librdkafka has no API to find a transaction coordinator "
                                            "(find_coordinator(coordinator_type=1))")
        if coordinator_type != 0:
            raise ValueError(f"coordinator_type must be 0 (group) or 1 (transaction), got {coordinator_type!r}")
        fut = _native.call(self._admin.describe_consumer_groups, [group_id], request_timeout=self._timeout)[group_id]
        desc, err = (await _native.outcomes({0: fut}, self._timeout))[0]
        if desc is None or desc.coordinator is None:
            code = _COORDINATOR_NOT_AVAILABLE if err is None else item_code(err)
            raise for_code(code)(f"Unable to get coordinator id for {group_id}")
        return int(desc.coordinator.id)

    async def list_consumer_group_offsets(self, group_id: str, group_coordinator_id: Optional[int] = None,
                                          partitions: Optional[List[TopicPartition]] = None
                                          ) -> Dict[TopicPartition, OffsetAndMetadata]:
        """A consumer group's committed offsets.

        :param group_id: the group id.
        :param group_coordinator_id: accepted; librdkafka finds the coordinator itself.
        :param partitions: the partitions to report (offset -1 where nothing is committed); None:
            every partition the group committed.
        :returns: ``{TopicPartition: OffsetAndMetadata(offset, metadata)}``.
        :raises ~..errors.BrokerResponseError: the group's or a partition's error.
        """
        self._check_open()
        if not isinstance(group_id, str):
            raise TypeError(f"group_id must be str, got {group_id!r}")
        parts = None
        if partitions is not None:
            pairs = list(dict.fromkeys((str(t), int(p)) for t, p in partitions))
            if not pairs:
                return {}
            parts = [_TP(t, p) for t, p in pairs]
        request = _cka.ConsumerGroupTopicPartitions(group_id, parts)
        fut = _native.call(self._admin.list_consumer_group_offsets, [request], request_timeout=self._timeout)[group_id]
        res = await _native.result(fut, self._timeout)
        out: Dict[TopicPartition, OffsetAndMetadata] = {}
        for p in res.topic_partitions:
            if p.error is not None:
                raise for_code(item_code(p.error))(f"Unable to get offset info for {p.topic} and {p.partition}")
            offset = p.offset if p.offset != OFFSET_INVALID and p.offset >= 0 else -1
            out[TopicPartition(p.topic, p.partition)] = OffsetAndMetadata(offset, p.metadata or "")
        return out


_ADMIN_DEFAULTS = {name: p.default for name, p in inspect.signature(AIOKafkaAdminClient.__init__).parameters.items()
                   if p.default is not inspect.Parameter.empty}
