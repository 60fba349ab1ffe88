"""``kafka.admin``: :class:`KafkaAdminClient` for topics, configs and consumer groups, over
this package's librdkafka admin client. Results have kafka-python's shapes (dicts of the
response fields)."""
from __future__ import annotations

from enum import IntEnum
from typing import Any, Dict, List, Optional, Union

import confluent_kafka as _ck
import confluent_kafka.admin as _cka
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka._util import call, extras, translate_error
from confluent_kafka.compat.kafka.structs import OffsetAndMetadata, TopicPartition

__all__ = ["KafkaAdminClient", "NewTopic", "NewPartitions", "ConfigResource", "ConfigResourceType"]


class NewTopic:
    """A topic to create: name, partitions, replication factor, replica assignments, configs."""

    def __init__(self, name: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignments: Optional[Dict[int, List[int]]] = None,
                 topic_configs: Optional[Dict[str, str]] = None) -> None:
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.replica_assignments = replica_assignments or {}
        self.topic_configs = topic_configs or {}


class NewPartitions:
    """A new total partition count for a topic (with optional replica assignments)."""

    def __init__(self, total_count: int, new_assignments: Optional[List[List[int]]] = None) -> None:
        self.total_count = total_count
        self.new_assignments = new_assignments


class ConfigResourceType(IntEnum):
    """Kinds of config resource, with the Kafka protocol's numbers."""

    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class ConfigResource:
    """A resource whose configs to describe or alter (``configs``: ``{name: value}``)."""

    def __init__(self, resource_type: Union[str, ConfigResourceType], name: str,
                 configs: Optional[Dict[str, Any]] = None) -> None:
        if not isinstance(resource_type, ConfigResourceType):
            resource_type = ConfigResourceType[str(resource_type).upper()]
        self.resource_type = resource_type
        self.name = name
        self.configs = configs

    def __str__(self) -> str:
        return f"ConfigResource {self.name}={self.resource_type}"

    def __repr__(self) -> str:
        return f"ConfigResource({self.resource_type}, {self.name}, {self.configs})"


_RESTYPE = {ConfigResourceType.TOPIC: _cka.ResourceType.TOPIC, ConfigResourceType.BROKER: _cka.ResourceType.BROKER,
            ConfigResourceType.GROUP: _cka.ResourceType.GROUP}


def _code(exc: BaseException) -> int:
    if isinstance(exc, _ck.KafkaException) and exc.args and isinstance(exc.args[0], _ck.KafkaError):
        return int(exc.args[0].code())
    return -1


def _message(exc: BaseException) -> Optional[str]:
    if isinstance(exc, _ck.KafkaException) and exc.args and isinstance(exc.args[0], _ck.KafkaError):
        return str(exc.args[0].str())
    return str(exc)


class KafkaAdminClient:
    """kafka-python's ``KafkaAdminClient`` (topics, configs, groups) over librdkafka's admin API.

    :raises KafkaConfigurationError: for an unknown option or one with no librdkafka equivalent.
    """

    DEFAULT_CONFIG = _config.DEFAULTS[_config.ADMIN]

    def __init__(self, **configs: Any) -> None:
        conf, self.config = _config.translate(_config.ADMIN, configs)
        extras(self.config, conf, None)
        self._admin = call(_cka.AdminClient, conf)
        self._closed = False

    def _timeout(self, timeout_ms: Optional[float]) -> float:
        if self._closed:
            raise Errors.IllegalStateError("KafkaAdminClient is closed")
        return (timeout_ms if timeout_ms is not None else self.config["request_timeout_ms"]) / 1000.0

    def close(self) -> None:
        """Release the client."""
        self._closed = True

    # ---- topics ----------------------------------------------------------------------------

    def list_topics(self) -> List[str]:
        """:returns: the names of every topic in the cluster."""
        md = call(self._admin.list_topics, timeout=self._timeout(None))
        return sorted(md.topics)

    def describe_topics(self, topics: Optional[List[str]] = None) -> List[Dict[str, Any]]:
        """:returns: one dict per topic (name, is_internal, partitions with leader/replicas/isr)."""
        timeout = self._timeout(None)
        md = call(self._admin.list_topics, timeout=timeout)
        names = list(topics) if topics is not None else sorted(md.topics)
        out: List[Dict[str, Any]] = []
        for name in names:
            tm = md.topics.get(name)
            if tm is None:
                out.append({"error_code": 3, "name": name, "is_internal": False, "partitions": []})
                continue
            parts = [{"error_code": 0 if p.error is None else p.error.code(), "partition_index": p.id,
                      "leader_id": p.leader, "replica_nodes": list(p.replicas), "isr_nodes": list(p.isrs),
                      "offline_replicas": []} for p in sorted(tm.partitions.values(), key=lambda p: p.id)]
            out.append({"error_code": 0 if tm.error is None else tm.error.code(), "name": name,
                        "is_internal": name.startswith("__"), "partitions": parts})
        return out

    def create_topics(self, new_topics: List[NewTopic], timeout_ms: Optional[float] = None,
                      validate_only: bool = False, raise_errors: bool = True,
                      wait_for_metadata: bool = False) -> Dict[str, Any]:
        """Create topics.

        :param wait_for_metadata: also wait until the new topics show in cluster metadata.
        :returns: ``{'topics': [{'name', 'error_code', 'error_message', 'num_partitions',
            'replication_factor'}]}``.
        :raises ValueError: for validate_only together with wait_for_metadata.
        :raises BrokerResponseError: (with ``raise_errors``) for the first topic that failed,
            e.g. TopicAlreadyExistsError.
        """
        if validate_only and wait_for_metadata:
            raise ValueError("validate_only and wait_for_metadata cannot be combined")
        timeout = self._timeout(timeout_ms)
        specs = []
        for t in new_topics:
            kw: Dict[str, Any] = {"config": {k: str(v) for k, v in (t.topic_configs or {}).items()}}
            if t.replica_assignments:
                kw["replica_assignment"] = [t.replica_assignments[i] for i in sorted(t.replica_assignments)]
            else:
                kw["num_partitions"] = t.num_partitions
                kw["replication_factor"] = t.replication_factor
            specs.append(_cka.NewTopic(t.name, **kw))
        futures = call(self._admin.create_topics, specs, operation_timeout=timeout, request_timeout=timeout,
                       validate_only=validate_only)
        results, first = [], None
        for t in new_topics:
            code, msg = 0, None
            try:
                futures[t.name].result()
            except Exception as exc:  # librdkafka reports each topic's error on its future
                code, msg = _code(exc), _message(exc)
                first = first or exc
            results.append({"name": t.name, "error_code": code, "error_message": msg,
                            "num_partitions": t.num_partitions, "replication_factor": t.replication_factor})
        if raise_errors and first is not None:
            raise translate_error(first)
        if wait_for_metadata:
            self._wait_for_topics([str(r["name"]) for r in results if r["error_code"] == 0], timeout)
        return {"topics": results}

    def _wait_for_topics(self, names: List[str], timeout: float) -> None:
        import time
        deadline = time.monotonic() + timeout
        while names:
            md = call(self._admin.list_topics, timeout=max(0.1, deadline - time.monotonic()))
            names = [n for n in names if n not in md.topics or not md.topics[n].partitions]
            if names and time.monotonic() >= deadline:
                raise Errors.KafkaTimeoutError(f"topics {names} not in metadata after {timeout}s")
            if names:
                time.sleep(0.1)

    def delete_topics(self, topics: List[str], timeout_ms: Optional[float] = None,
                      raise_errors: bool = True) -> Dict[str, Any]:
        """Delete topics.

        :returns: ``{'responses': [{'name', 'error_code'}]}``.
        :raises BrokerResponseError: (with ``raise_errors``) for the first topic that failed.
        """
        timeout = self._timeout(timeout_ms)
        futures = call(self._admin.delete_topics, list(topics), operation_timeout=timeout, request_timeout=timeout)
        results, first = [], None
        for name in topics:
            code = 0
            try:
                futures[name].result()
            except Exception as exc:
                code = _code(exc)
                first = first or exc
            results.append({"name": name, "error_code": code})
        if raise_errors and first is not None:
            raise translate_error(first)
        return {"responses": results}

    def create_partitions(self, topic_partitions: Dict[str, NewPartitions], timeout_ms: Optional[float] = None,
                          validate_only: bool = False, raise_errors: bool = True) -> Dict[str, Any]:
        """Raise topics' partition counts (``{topic: NewPartitions}``).

        :returns: ``{'results': [{'name', 'error_code', 'error_message'}]}``.
        """
        timeout = self._timeout(timeout_ms)
        specs = [_cka.NewPartitions(name, np.total_count, np.new_assignments)
                 for name, np in topic_partitions.items()]
        futures = call(self._admin.create_partitions, specs, operation_timeout=timeout,
                       request_timeout=timeout, validate_only=validate_only)
        results, first = [], None
        for name in topic_partitions:
            code, msg = 0, None
            try:
                futures[name].result()
            except Exception as exc:
                code, msg, first = _code(exc), _message(exc), first or exc
            results.append({"name": name, "error_code": code, "error_message": msg})
        if raise_errors and first is not None:
            raise translate_error(first)
        return {"results": results}

    # ---- configs ---------------------------------------------------------------------------

    def _resources(self, config_resources: List[ConfigResource]) -> List[Any]:
        out = []
        for r in config_resources:
            restype = _RESTYPE.get(r.resource_type)
            if restype is None:
                raise Errors.IllegalArgumentError(f"{r.resource_type.name} config resources are not supported")
            out.append(_cka.ConfigResource(restype, r.name,
                                           set_config={k: str(v) for k, v in (r.configs or {}).items()}))
        return out

    def describe_configs(self, config_resources: List[ConfigResource], include_synonyms: bool = False,
                         config_filter: str = "modified") -> Dict[str, Dict[str, Dict[str, Any]]]:
        """Describe configs.

        :param config_filter: ``'modified'`` (the default: values not at their default),
            ``'all'``, ``'default'``, ``'dynamic'`` or ``'static'``.
        :returns: ``{resource_type: {name: {config_name: {'value', 'read_only', 'is_default',
            'is_sensitive', 'source'}}}}`` (resource_type in lower case, like ``'topic'``).
        """
        if include_synonyms:
            raise Errors.IllegalArgumentError("include_synonyms=True is not supported by the kafka-python facade")
        timeout = self._timeout(None)
        wanted = str(config_filter).lower()
        if wanted not in ("modified", "all", "default", "dynamic", "static"):
            raise ValueError(f"unknown config_filter {config_filter!r}")
        futures = call(self._admin.describe_configs, self._resources(config_resources),
                       request_timeout=timeout)
        out: Dict[str, Dict[str, Dict[str, Any]]] = {}
        for res, fut in futures.items():
            try:
                entries = fut.result()
            except Exception as exc:
                raise translate_error(exc) from exc
            kind = ConfigResourceType(int(res.restype.value)).name.lower()
            picked = {}
            for name, e in entries.items():
                source = _cka.ConfigSource(e.source).name if not isinstance(e.source, _cka.ConfigSource) else e.source.name
                is_default = bool(e.is_default)
                if wanted == "modified" and is_default:
                    continue
                if wanted == "default" and not is_default:
                    continue
                if wanted == "dynamic" and "DYNAMIC" not in source:
                    continue
                if wanted == "static" and "STATIC" not in source:
                    continue
                picked[name] = {"value": e.value, "read_only": bool(e.is_read_only), "is_default": is_default,
                                "is_sensitive": bool(e.is_sensitive), "source": source}
            out.setdefault(kind, {})[res.name] = picked
        return out

    def alter_configs(self, config_resources: List[ConfigResource], validate_only: bool = False,
                      raise_on_unknown: bool = True, incremental: Optional[bool] = None) -> Dict[str, Dict[str, Any]]:
        """Set configs (incrementally: the values named are set, others are left alone).

        :returns: ``{resource_type: {name: NoError class or the error}}``.
        """
        timeout = self._timeout(None)
        specs = []
        for r in config_resources:
            restype = _RESTYPE.get(r.resource_type)
            if restype is None:
                raise Errors.IllegalArgumentError(f"{r.resource_type.name} config resources are not supported")
            ops = [_cka.ConfigEntry(k, None if v is None else str(v),
                                    incremental_operation=(_cka.AlterConfigOpType.DELETE if v is None
                                                           else _cka.AlterConfigOpType.SET))
                   for k, v in (r.configs or {}).items()]
            specs.append(_cka.ConfigResource(restype, r.name, incremental_configs=ops))
        futures = call(self._admin.incremental_alter_configs, specs, request_timeout=timeout,
                       validate_only=validate_only)
        out: Dict[str, Dict[str, Any]] = {}
        for res, fut in futures.items():
            kind = ConfigResourceType(int(res.restype.value)).name.lower()
            try:
                fut.result()
                result: Any = Errors.for_code(0)
            except Exception as exc:
                result = translate_error(exc)
            out.setdefault(kind, {})[res.name] = result
        return out

    # ---- groups ----------------------------------------------------------------------------

    def list_groups(self, broker_ids: Any = None, states_filter: Any = None,
                    types_filter: Any = None) -> List[Dict[str, Any]]:
        """:returns: one dict per group: ``group_id``, ``protocol_type``, ``group_state``, ``group_type``."""
        timeout = self._timeout(None)
        res = call(self._admin.list_consumer_groups, request_timeout=timeout).result()
        out = []
        for g in res.valid:
            out.append({"group_id": g.group_id, "protocol_type": "" if g.is_simple_consumer_group else "consumer",
                        "group_state": g.state.name if g.state is not None else "Unknown",
                        "group_type": g.type.name.capitalize() if getattr(g, "type", None) is not None else "Classic"})
        return out

    def describe_groups(self, group_ids: List[str], group_coordinator_id: Any = None,
                        include_authorized_operations: bool = False) -> Dict[str, Dict[str, Any]]:
        """Describe consumer groups.

        :param group_ids: the groups.
        :returns: ``{group_id: {...}}`` with ``group_id``, ``group_state``, ``protocol_type``,
            ``protocol_data`` and ``members`` (each: ``member_id``, ``client_id``,
            ``client_host``, ``assignment``, a list of TopicPartition).
        """
        timeout = self._timeout(None)
        futures = call(self._admin.describe_consumer_groups, list(group_ids), request_timeout=timeout)
        out = {}
        for gid, fut in futures.items():
            try:
                d = fut.result()
            except Exception as exc:
                raise translate_error(exc) from exc
            members = [{"member_id": m.member_id, "group_instance_id": m.group_instance_id,
                        "client_id": m.client_id, "client_host": m.host,
                        "assignment": [TopicPartition(p.topic, p.partition)
                                       for p in (m.assignment.topic_partitions if m.assignment else [])]}
                       for m in d.members]
            out[gid] = {"group_id": d.group_id, "error_code": 0,
                        "group_state": d.state.name.capitalize() if d.state is not None else "Unknown",
                        "protocol_type": "" if d.is_simple_consumer_group else "consumer",
                        "protocol_data": d.partition_assignor, "members": members}
        return out

    def list_group_offsets(self, group_specs: Any) -> Dict[str, Dict[TopicPartition, OffsetAndMetadata]]:
        """Committed offsets of groups.

        :param group_specs: ``{group_id: [TopicPartition] or None}``, or a group id, or a list of them.
        :returns: ``{group_id: {TopicPartition: OffsetAndMetadata}}``.
        """
        timeout = self._timeout(None)
        if isinstance(group_specs, str):
            group_specs = {group_specs: None}
        elif isinstance(group_specs, (list, tuple)):
            group_specs = {g: None for g in group_specs}
        out = {}
        for gid, tps in group_specs.items():
            req = _cka.ConsumerGroupTopicPartitions(
                gid, None if tps is None else [_ck.TopicPartition(t, p) for t, p in tps])
            fut = call(self._admin.list_consumer_group_offsets, [req], request_timeout=timeout)[gid]
            try:
                res = fut.result()
            except Exception as exc:
                raise translate_error(exc) from exc
            out[gid] = {TopicPartition(p.topic, p.partition): OffsetAndMetadata(
                p.offset, p.metadata or "", p.leader_epoch if p.leader_epoch is not None else -1)
                for p in res.topic_partitions if p.offset >= 0}
        return out

    def list_consumer_group_offsets(self, group_id: str, group_coordinator_id: Any = None,
                                    partitions: Optional[List[TopicPartition]] = None
                                    ) -> Dict[TopicPartition, OffsetAndMetadata]:
        """The older single-group form of :meth:`list_group_offsets`.

        :returns: ``{TopicPartition: OffsetAndMetadata}``.
        """
        return self.list_group_offsets({group_id: partitions})[group_id]

    def delete_groups(self, group_ids: List[str], group_coordinator_id: Any = None) -> List[Any]:
        """:returns: ``[(group_id, NoError or the error class)]``."""
        timeout = self._timeout(None)
        futures = call(self._admin.delete_consumer_groups, list(group_ids), request_timeout=timeout)
        out = []
        for gid in group_ids:
            try:
                futures[gid].result()
                out.append((gid, Errors.for_code(0)))
            except Exception as exc:
                out.append((gid, type(translate_error(exc))))
        return out

    def __enter__(self) -> "KafkaAdminClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
