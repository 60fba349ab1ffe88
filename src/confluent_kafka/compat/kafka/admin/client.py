"""``kafka.admin.client``: kafka-python 3.0's :class:`KafkaAdminClient` over this package's
librdkafka admin client.

Every public method of kafka-python 3.0.12's client is here with its signature, its argument
checks and the shape of its result. A request librdkafka has no API for (log dirs, partition
reassignments, transactions, the metadata quorum, features, offset deletion, member removal,
config resource listing) raises :class:`~confluent_kafka.compat.kafka.errors.IncompatibleBrokerVersion`,
which is what kafka-python raises when the broker lacks the API; ``api_versions()`` and
``get_broker_version_data()`` raise NotImplementedError (librdkafka keeps the negotiated API
versions to itself). docs/kafka_python.md has the table.
"""
from __future__ import annotations

import time
import uuid
import warnings
from collections import defaultdict
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Type, cast

import confluent_kafka as _ck
import confluent_kafka.admin as _cka
from confluent_kafka.compat._native_admin import is_item_error as _is_item_error
from confluent_kafka.compat._native_admin import item_code as _code
from confluent_kafka.compat._native_admin import native_error as _native_error
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka._util import call, extras, translate_error
from confluent_kafka.compat.kafka.errors import IllegalArgumentError
from confluent_kafka.compat.kafka.admin._acls import (
    ACL, ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType, ResourcePattern, ResourceType)
from confluent_kafka.compat.kafka.admin._cluster import UpdateFeatureType
from confluent_kafka.compat.kafka.admin._configs import (
    AlterConfigOp, ConfigFilterType, ConfigResource, ConfigResourceType, ConfigSourceType)
from confluent_kafka.compat.kafka.admin._groups import GroupState, GroupType
from confluent_kafka.compat.kafka.admin._partitions import OffsetTimestamp
from confluent_kafka.compat.kafka.admin._topics import NewTopic
from confluent_kafka.compat.kafka.admin._users import (
    ScramMechanism, UserScramCredentialDeletion, UserScramCredentialUpsertion)
from confluent_kafka.compat.kafka.structs import (
    IsolationLevel, OffsetAndMetadata, OffsetAndTimestamp, OffsetSpec, TopicPartition, TopicPartitionReplica)

__all__ = ["KafkaAdminClient"]

# Generated classes (errors.py builds them at import time), typed for mypy.
_INCOMPATIBLE = cast("Type[Errors.KafkaError]", Errors.IncompatibleBrokerVersion)
_NO_ERROR = Errors.for_code(0)
_ELECTION_NOT_NEEDED = 84
_UNKNOWN_TOPIC_OR_PARTITION = cast("Type[Errors.KafkaError]", Errors.for_code(3))

_NO_AUTHORIZED_OPERATIONS = -2147483648  # the protocol's "not requested" bit field


def _unsupported(request: str) -> Errors.KafkaError:
    """The error (IncompatibleBrokerVersion) for a request librdkafka cannot send, worded like
    kafka-python's for a broker without the API."""
    return _INCOMPATIBLE(
        f"librdkafka, under the kafka-python facade, has no client API for the '{request}' Kafka protocol.")


def _outcome(fut: Any) -> Tuple[Any, Optional[_ck.KafkaError]]:
    """Wait for a native future.

    :returns: ``(result, None)``, or ``(None, error)`` for a broker's error about this item (and
        for librdkafka's local unknown-topic/partition codes, which are about the item too).
    :raises KafkaError: translated, for a failure of the request itself (timeouts, a lost
        connection, an API the broker lacks).
    """
    try:
        return fut.result(), None
    except _ck.KafkaException as exc:
        err = _native_error(exc)
        if err is None or not _is_item_error(err):
            raise translate_error(exc) from exc
        return None, err


def _error_class(err: Optional[_ck.KafkaError]) -> type:
    return Errors.for_code(0) if err is None else Errors.for_code(_code(err))


def _error(err: _ck.KafkaError, text: Optional[str] = None) -> Errors.KafkaError:
    """:returns: the kafka-python exception (not raised) for a native item error."""
    result: Errors.KafkaError = _error_class(err)(text if text is not None else err.str())
    return result


def _uuid(native: Any) -> Optional[uuid.UUID]:
    """A native Uuid (two signed 64-bit halves) as a ``uuid.UUID``; None for none or all zero."""
    if native is None:
        return None
    mask = (1 << 64) - 1
    value = ((native.get_most_significant_bits() & mask) << 64) | (native.get_least_significant_bits() & mask)
    return uuid.UUID(int=value) if value else None


def _operation_names(ops: Any) -> Optional[List[str]]:
    """Authorized operations as kafka-python reports them: the concrete operation names, or None."""
    if ops is None:
        return None
    values = sorted({int(getattr(op, "value", op)) for op in ops} - {0, 1, 2})
    return [ACLOperation(v).name for v in values if v in ACLOperation._value2member_map_]


def _node_id(node: Any) -> int:
    return -1 if node is None else int(node.id)


class _Data:
    """A response-like record (kafka-python returns its protocol objects from a few methods):
    attribute access, ``to_dict()``, equality and a repr naming the type."""

    def __init__(self, _type: str, **fields: Any) -> None:
        self.__dict__["_type"] = _type
        self.__dict__["_fields"] = dict(fields)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_fields"][name]
        except KeyError:
            raise AttributeError(name) from None

    def to_dict(self, meta: bool = False, json: bool = True) -> Dict[str, Any]:
        """:returns: the fields as a dict, nested records as dicts."""
        def plain(v: Any) -> Any:
            if isinstance(v, _Data):
                return v.to_dict(meta=meta, json=json)
            if isinstance(v, list):
                return [plain(x) for x in v]
            return v
        out: Dict[str, Any] = {"_type": self._type} if meta else {}
        out.update({k: plain(v) for k, v in self._fields.items()})
        return out

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _Data) and self._type == other._type and self._fields == other._fields

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields.items())
        return f"{self._type}({inner})"


class KafkaAdminClient:
    """kafka-python's ``KafkaAdminClient`` over librdkafka's admin API.

    Takes kafka-python's options (see docs/kafka_python.md). librdkafka connects in the
    background, so the constructor does not wait for the cluster.

    :raises KafkaConfigurationError: for an unknown option or one with no librdkafka equivalent.
    """

    DEFAULT_CONFIG = _config.DEFAULTS[_config.ADMIN]

    def __init__(self, **configs: Any) -> None:
        conf, self.config = _config.translate(_config.ADMIN, configs)
        extras(self.config, conf, None)
        self._admin = call(_cka.AdminClient, conf)
        self._closed = False

    def __enter__(self) -> "KafkaAdminClient":
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()

    def close(self) -> None:
        """Close the client; a second close does nothing. Every other method then raises
        RuntimeError, as kafka-python's does."""
        self._closed = True

    def _validate_timeout(self, timeout_ms: Optional[float]) -> float:
        """The timeout to use: ``timeout_ms`` or ``request_timeout_ms``, in ms."""
        return timeout_ms or self.config["request_timeout_ms"]

    def _seconds(self, timeout_ms: Optional[float] = None) -> float:
        """Refuse a closed client; :returns: the request timeout in seconds."""
        if self._closed:
            raise RuntimeError("KafkaAdminClient is closed")
        return float(self._validate_timeout(timeout_ms)) / 1000.0

    def _nothing_or_unsupported(self, items: Iterable[Any], request: str) -> Dict[Any, type]:
        """What a call librdkafka has no API for answers: ``{}`` for no ``items``, else
        IncompatibleBrokerVersion naming ``request`` (a closed client refused first)."""
        self._seconds()
        if not items:
            return {}
        raise _unsupported(request)

    # ---- topics ------------------------------------------------------------------------------

    def list_topics(self) -> List[str]:
        """:returns: the names of every topic in the cluster."""
        md = call(self._admin.list_topics, timeout=self._seconds())
        return sorted(md.topics)

    def _describe_native(self, names: List[str], timeout: float) -> Dict[str, Tuple[Any, Optional[_ck.KafkaError]]]:
        """Describe topics by name: ``{name: (TopicDescription or None, item error or None)}``."""
        if not names:
            return {}
        futures = call(self._admin.describe_topics, _ck.TopicCollection(list(dict.fromkeys(names))),
                       request_timeout=timeout, include_authorized_operations=True)
        return {name: _outcome(fut) for name, fut in futures.items()}

    def _names_by_id(self, timeout: float) -> Dict[uuid.UUID, str]:
        md = call(self._admin.list_topics, timeout=timeout)
        described = self._describe_native(sorted(md.topics), timeout)
        return {tid: name for name, (desc, _) in described.items()
                if desc is not None and (tid := _uuid(desc.topic_id)) is not None}

    def describe_topics(self, topics: Optional[List[Any]] = None) -> List[Dict[str, Any]]:
        """Describe topics (names, or ``uuid.UUID`` topic ids, mixed as you like).

        :param topics: the topics; None for every topic.
        :returns: one dict per topic: ``error_code``, ``name``, ``topic_id`` (a string),
            ``is_internal``, ``partitions`` (``error_code``, ``partition_index``, ``leader_id``,
            ``leader_epoch`` (-1: librdkafka does not report it), ``replica_nodes``,
            ``isr_nodes``, ``offline_replicas``) and ``authorized_operations``.
        """
        timeout = self._seconds()
        if topics is None:
            md = call(self._admin.list_topics, timeout=timeout)
            wanted: List[Any] = sorted(md.topics)
        else:
            wanted = list(topics)
        by_id = self._names_by_id(timeout) if any(isinstance(t, uuid.UUID) for t in wanted) else {}
        names = [by_id[t] if isinstance(t, uuid.UUID) else t for t in wanted
                 if not isinstance(t, uuid.UUID) or t in by_id]
        described = self._describe_native(names, timeout)
        out: List[Dict[str, Any]] = []
        for t in wanted:
            if isinstance(t, uuid.UUID) and t not in by_id:
                out.append({"error_code": 100, "name": None, "topic_id": str(t), "is_internal": False,
                            "partitions": [], "authorized_operations": None})
                continue
            name = by_id[t] if isinstance(t, uuid.UUID) else t
            out.append(self._topic_dict(name, *described[name], tid_as_text=True))
        return out

    @staticmethod
    def _topic_dict(name: str, desc: Any, err: Optional[_ck.KafkaError], tid_as_text: bool) -> Dict[str, Any]:
        if desc is None:
            code = _code(err) if err is not None else 3
            return {"error_code": code, "name": name, "topic_id": None, "is_internal": False,
                    "partitions": [], "authorized_operations": None}
        tid = _uuid(desc.topic_id)
        parts = [{"error_code": 0, "partition_index": p.id, "leader_id": _node_id(p.leader), "leader_epoch": -1,
                  "replica_nodes": [n.id for n in p.replicas], "isr_nodes": [n.id for n in p.isr],
                  "offline_replicas": []} for p in sorted(desc.partitions, key=lambda p: p.id)]
        return {"error_code": 0, "name": desc.name,
                "topic_id": (str(tid) if tid is not None else None) if tid_as_text else tid,
                "is_internal": bool(desc.is_internal), "partitions": parts,
                "authorized_operations": _operation_names(desc.authorized_operations)}

    @staticmethod
    def _new_topics(new_topics: Any) -> List[Dict[str, Any]]:
        """kafka-python's three forms of topics to create, as dicts."""
        out: List[Dict[str, Any]] = []
        if isinstance(new_topics, dict):
            for name, data in new_topics.items():
                out.append({"name": name, "num_partitions": data.get("num_partitions", -1),
                            "replication_factor": data.get("replication_factor", -1),
                            "assignments": dict(data.get("assignments", {})), "configs": dict(data.get("configs", {}))})
        elif all(isinstance(v, str) for v in new_topics):
            out = [{"name": name, "num_partitions": -1, "replication_factor": -1, "assignments": {}, "configs": {}}
                   for name in new_topics]
        elif all(isinstance(v, NewTopic) for v in new_topics):
            out = [{"name": t.name, "num_partitions": t.num_partitions, "replication_factor": t.replication_factor,
                    "assignments": dict(t.replica_assignments), "configs": dict(t.topic_configs)} for t in new_topics]
        if not out:
            raise ValueError(f"No valid topics found in new_topics: {new_topics}")
        return out

    def create_topics(self, new_topics: Any, timeout_ms: Optional[float] = None, validate_only: bool = False,
                      raise_errors: bool = True, wait_for_metadata: bool = False) -> Dict[str, Any]:
        """Create topics.

        :param new_topics: topic names; or ``{name: {'num_partitions', 'replication_factor',
            'assignments': {partition: [broker ids]}, 'configs': {key: value}}}`` (every key
            optional); or (deprecated) a list of :class:`NewTopic`.
        :param timeout_ms: how long the broker may take (default ``request_timeout_ms``).
        :param validate_only: only check the request.
        :param raise_errors: raise the first topic's error instead of reporting it.
        :param wait_for_metadata: then wait (:meth:`wait_for_topics`) until the topics are usable.
        :returns: ``{'topics': [{'name', 'topic_id', 'error_code', 'error_message',
            'topic_config_error_code', 'num_partitions', 'replication_factor'}]}``.
        :raises ValueError: for validate_only with wait_for_metadata, or no topic.
        :raises BrokerResponseError: (with ``raise_errors``) for the first topic that failed,
            e.g. TopicAlreadyExistsError.
        """
        if validate_only and wait_for_metadata:
            raise ValueError("validate_only and wait_for_metadata are mutually exclusive")
        timeout = self._seconds(timeout_ms)
        topics = self._new_topics(new_topics)
        specs = []
        for t in topics:
            kw: Dict[str, Any] = {"config": {str(k): str(v) for k, v in t["configs"].items()}}
            if t["assignments"]:
                kw["replica_assignment"] = [list(t["assignments"][i]) for i in sorted(t["assignments"])]
            else:
                kw["num_partitions"] = t["num_partitions"]
                kw["replication_factor"] = t["replication_factor"]
            specs.append(_cka.NewTopic(t["name"], **kw))
        futures = call(self._admin.create_topics, specs, operation_timeout=timeout, request_timeout=timeout,
                       validate_only=validate_only)
        outcomes = {t["name"]: _outcome(futures[t["name"]]) for t in topics}
        created = [name for name, (_, err) in outcomes.items() if err is None]
        described = {} if validate_only else self._describe_native(created, timeout)
        results, first = [], None
        for t in topics:
            name = t["name"]
            _, err = outcomes[name]
            if err is not None:
                first = first or _error(err)
                results.append({"name": name, "topic_id": None, "error_code": _code(err), "error_message": err.str(),
                                "topic_config_error_code": 0, "num_partitions": -1, "replication_factor": -1})
                continue
            desc = described.get(name, (None, None))[0]
            count, factor, tid = t["num_partitions"], t["replication_factor"], None
            if desc is not None and desc.partitions:
                count, factor = len(desc.partitions), len(desc.partitions[0].replicas)
                found = _uuid(desc.topic_id)
                tid = str(found) if found is not None else None
            results.append({"name": name, "topic_id": tid, "error_code": 0, "error_message": None,
                            "topic_config_error_code": 0, "num_partitions": count, "replication_factor": factor})
        if raise_errors and first is not None:
            raise first
        if wait_for_metadata:
            self.wait_for_topics([t["name"] for t in topics])
        return {"topics": results}

    def wait_for_topics(self, topic_names: Iterable[str], timeout_ms: float = 10000) -> None:
        """Wait until each topic is in the cluster metadata with a leader for every partition.

        :raises KafkaTimeoutError: when some topic is still not ready after ``timeout_ms``.
        """
        names = list(topic_names or [])
        if not names:
            return
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            try:
                described = {t["name"]: t for t in self.describe_topics(names)}
            except Errors.KafkaError:
                described = {}
            pending = {}
            for name in names:
                reason = self._not_ready(described.get(name))
                if reason is not None:
                    pending[name] = reason
            if not pending:
                return
            if time.monotonic() >= deadline:
                raise Errors.KafkaTimeoutError(f"Topics not ready after {timeout_ms}ms: {pending}")
            time.sleep(0.1)

    @staticmethod
    def _not_ready(topic: Optional[Dict[str, Any]]) -> Optional[str]:
        if topic is None:
            return "missing from metadata response"
        if topic.get("error_code", 0):
            return str(Errors.for_code(topic["error_code"]).__name__)
        if not topic.get("partitions"):
            return "no partitions reported"
        bad = [f"p{p['partition_index']}=" + (Errors.for_code(p["error_code"]).__name__ if p.get("error_code")
                                              else "no leader")
               for p in topic["partitions"] if p.get("error_code") or p.get("leader_id", -1) < 0]
        return ",".join(bad) if bad else None

    def delete_topics(self, topics: List[Any], timeout_ms: Optional[float] = None,
                      raise_errors: bool = True) -> Dict[str, Any]:
        """Delete topics, by name or ``uuid.UUID`` topic id.

        :returns: ``{'topics': [{'name', 'topic_id', 'error_code', 'error_message'}]}``.
        :raises BrokerResponseError: (with ``raise_errors``) for the first topic that failed.
        """
        timeout = self._seconds(timeout_ms)
        topics = list(topics)
        by_id = self._names_by_id(timeout) if any(isinstance(t, uuid.UUID) for t in topics) else {}
        names = [by_id[t] if isinstance(t, uuid.UUID) else t for t in topics
                 if not isinstance(t, uuid.UUID) or t in by_id]
        futures = call(self._admin.delete_topics, list(dict.fromkeys(names)), operation_timeout=timeout,
                       request_timeout=timeout) if names else {}
        results, first = [], None
        for t in topics:
            if isinstance(t, uuid.UUID) and t not in by_id:
                first = first or Errors.for_code(100)(f"no topic has the id {t}")
                results.append({"name": None, "topic_id": str(t), "error_code": 100,
                                "error_message": "This server does not host this topic ID."})
                continue
            name = by_id[t] if isinstance(t, uuid.UUID) else t
            _, err = _outcome(futures[name])
            if err is not None:
                first = first or _error(err)
            results.append({"name": name, "topic_id": str(t) if isinstance(t, uuid.UUID) else None,
                            "error_code": 0 if err is None else _code(err),
                            "error_message": None if err is None else err.str()})
        if raise_errors and first is not None:
            raise first
        return {"topics": results}

    # ---- partitions --------------------------------------------------------------------------

    def create_partitions(self, topic_partitions: Dict[str, Any], timeout_ms: Optional[float] = None,
                          validate_only: bool = False, raise_errors: bool = True) -> Any:
        """Raise topics' partition counts.

        :param topic_partitions: ``{topic: total count}``, or ``{topic: {'count': n,
            'assignments': [[broker ids] per new partition]}}``, or (deprecated)
            ``{topic: NewPartitions}``.
        :returns: a ``CreatePartitionsResponse``-like record: ``throttle_time_ms`` and
            ``results`` (each with ``name``, ``error_code``, ``error_message``); ``to_dict()``.
        :raises BrokerResponseError: (with ``raise_errors``) for the first topic that failed.
        :raises IncompatibleBrokerVersion: the broker has no CreatePartitions API.
        """
        timeout = self._seconds(timeout_ms)
        specs = []
        for topic, count in topic_partitions.items():
            if isinstance(count, int):
                specs.append(_cka.NewPartitions(topic, count))
            elif isinstance(count, dict):
                specs.append(_cka.NewPartitions(topic, count["count"], [list(b) for b in count["assignments"]]))
            else:
                assignments = count.new_assignments
                if assignments is None:  # the native class refuses an explicit None
                    specs.append(_cka.NewPartitions(topic, count.total_count))
                else:
                    specs.append(_cka.NewPartitions(topic, count.total_count, [list(b) for b in assignments]))
        futures = call(self._admin.create_partitions, specs, operation_timeout=timeout, request_timeout=timeout,
                       validate_only=validate_only)
        results, first = [], None
        for topic in topic_partitions:
            _, err = _outcome(futures[topic])
            if err is not None:
                first = first or _error(err)
            results.append(_Data("CreatePartitionsTopicResult", name=topic,
                                 error_code=0 if err is None else _code(err),
                                 error_message=None if err is None else err.str()))
        if raise_errors and first is not None:
            raise first
        return _Data("CreatePartitionsResponse", throttle_time_ms=0, results=results)

    def delete_records(self, records_to_delete: Dict[TopicPartition, int], timeout_ms: Optional[float] = None,
                       partition_leader_id: Optional[int] = None) -> Dict[TopicPartition, Dict[str, int]]:
        """Delete the records before an offset in each partition.

        :param records_to_delete: ``{TopicPartition: offset}`` (-1: every record).
        :param partition_leader_id: accepted; librdkafka sends each partition to its leader.
        :returns: ``{TopicPartition: {'partition_index', 'low_watermark', 'error_code'}}``.
        :raises BrokerResponseError: one partition failed: its error; several:
            BrokerResponseError naming them.
        """
        timeout = self._seconds(timeout_ms)
        if not records_to_delete:
            return {}
        request = [_ck.TopicPartition(tp.topic, tp.partition, int(offset)) for tp, offset in records_to_delete.items()]
        futures = call(self._admin.delete_records, request, request_timeout=timeout, operation_timeout=timeout)
        results: Dict[TopicPartition, Dict[str, int]] = {}
        failed: Dict[TopicPartition, int] = {}
        for tp in records_to_delete:
            key = TopicPartition(tp.topic, tp.partition)
            fut = next(f for k, f in futures.items() if k.topic == tp.topic and k.partition == tp.partition)
            res, err = _outcome(fut)
            code = 0 if err is None else _code(err)
            results[key] = {"partition_index": tp.partition, "low_watermark": -1 if res is None else res.low_watermark,
                            "error_code": code}
            if code:
                failed[key] = code
        if len(failed) == 1:
            (tp, code), = failed.items()
            raise Errors.for_code(code)(f"Error deleting records from topic {tp.topic} partition {tp.partition}")
        if failed:
            raise Errors.BrokerResponseError(
                "The following errors occured when trying to delete records: "
                + ", ".join(f"{tp.topic}(partition={tp.partition}): {Errors.for_code(c).__name__}"
                            for tp, c in failed.items()))
        return results

    def _topic_partition_lists(self, topic_partitions: Any) -> List[Tuple[str, List[int]]]:
        """kafka-python's partition selection: a dict, or topic names (None: every topic) whose
        partitions are looked up."""
        if isinstance(topic_partitions, dict):
            return [(t, list(p)) for t, p in topic_partitions.items()]
        return [(t["name"], [p["partition_index"] for p in t["partitions"]])
                for t in self.describe_topics(topic_partitions)]

    def elect_leaders(self, election_type: int, topic_partitions: Any = None, timeout_ms: Optional[float] = None,
                      raise_errors: bool = True) -> Any:
        """Run a leader election.

        :param election_type: 0 (preferred) or 1 (unclean).
        :param topic_partitions: ``{topic: [partitions]}``, topic names (every partition), or
            None (every partition of every topic).
        :returns: an ``ElectLeadersResponse``-like record: ``throttle_time_ms``, ``error_code``,
            ``replica_election_results`` (each ``topic`` and ``partition_result``: a list with
            ``partition_id``, ``error_code``, ``error_message``); ``to_dict()``.
        :raises ValueError: for an unknown election type.
        :raises BrokerResponseError: (with ``raise_errors``) for the first partition that failed,
            ElectionNotNeededError aside.
        """
        kind = _cka.ElectionType(int(election_type) if not isinstance(election_type, _cka.ElectionType)
                                 else election_type.value)
        timeout = self._seconds(timeout_ms)
        parts = None
        if topic_partitions is not None:
            parts = [_ck.TopicPartition(t, p) for t, ps in self._topic_partition_lists(topic_partitions) for p in ps]
        fut = call(self._admin.elect_leaders, kind, parts, request_timeout=timeout, operation_timeout=timeout)
        result, err = _outcome(fut)
        if err is not None:
            raise _error(err)
        by_topic: Dict[str, List[Any]] = defaultdict(list)
        first = None
        for tp, exc in sorted(result.items(), key=lambda kv: (kv[0].topic, kv[0].partition)):
            perr = None if exc is None else _native_error(exc)
            code = 0 if perr is None else _code(perr)
            if code and code != _ELECTION_NOT_NEEDED:
                first = first or _error(perr)  # type: ignore[arg-type]
            by_topic[tp.topic].append(_Data("PartitionResult", partition_id=tp.partition, error_code=code,
                                            error_message=None if perr is None else perr.str()))
        if raise_errors and first is not None:
            raise first
        return _Data("ElectLeadersResponse", throttle_time_ms=0, error_code=0,
                     replica_election_results=[_Data("ReplicaElectionResult", topic=t, partition_result=ps)
                                               for t, ps in by_topic.items()])

    def alter_partition_reassignments(self, reassignments: Dict[TopicPartition, Optional[List[int]]],
                                      timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Any]:
        """Not available: librdkafka has no AlterPartitionReassignments API.

        :raises ValueError: for an empty or non-integer replica list (checked first, as
            kafka-python does).
        :raises IncompatibleBrokerVersion: always otherwise.
        """
        self._seconds(timeout_ms)
        for tp, replicas in reassignments.items():
            if replicas is not None:
                replicas = list(replicas)
                if not replicas:
                    raise ValueError(f"Replica list for {tp} must be non-empty; use None to cancel a reassignment.")
                if not all(isinstance(r, int) for r in replicas):
                    raise ValueError(f"Replica list for {tp} must be int broker_ids.")
        raise _unsupported("AlterPartitionReassignmentsRequest")

    def list_partition_reassignments(self, topic_partitions: Any = None,
                                     timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Dict[str, List[int]]]:
        """Not available: librdkafka has no ListPartitionReassignments API.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds(timeout_ms)
        raise _unsupported("ListPartitionReassignmentsRequest")

    def describe_topic_partitions(self, topics: List[str], response_partition_limit: int = 2000,
                                  cursor: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Describe topics partition by partition, a page at a time (KIP-966's shape; the facade
        pages over librdkafka's topic descriptions).

        :param topics: topic names.
        :param response_partition_limit: the most partitions in one page.
        :param cursor: ``{'topic_name', 'partition_index'}`` where the page starts (a previous
            page's ``next_cursor``).
        :returns: ``{'topics': [{'error_code', 'name', 'topic_id' (a uuid.UUID), 'is_internal',
            'partitions', 'topic_authorized_operations'}], 'next_cursor': None or a cursor}``.
        """
        timeout = self._seconds()
        names = list(dict.fromkeys(topics))
        if cursor is not None and cursor["topic_name"] in names:
            names = names[names.index(cursor["topic_name"]):]
        described = self._describe_native(names, timeout)
        out: List[Dict[str, Any]] = []
        room, next_cursor = int(response_partition_limit), None
        for name in names:
            topic = self._topic_dict(name, *described[name], tid_as_text=False)
            topic.pop("authorized_operations")
            first = cursor["partition_index"] if cursor is not None and name == cursor["topic_name"] else 0
            parts = [{"error_code": p["error_code"], "partition_index": p["partition_index"],
                      "leader_id": p["leader_id"], "leader_epoch": p["leader_epoch"],
                      "replica_nodes": p["replica_nodes"], "isr_nodes": p["isr_nodes"],
                      "eligible_leader_replicas": None, "last_known_elr": None,
                      "offline_replicas": p["offline_replicas"]}
                     for p in topic["partitions"] if p["partition_index"] >= first]
            if len(parts) > room:
                next_cursor = {"topic_name": name, "partition_index": parts[room]["partition_index"]}
                parts = parts[:room]
            topic["partitions"] = parts
            topic["topic_authorized_operations"] = _NO_AUTHORIZED_OPERATIONS
            out.append(topic)
            room -= len(parts)
            if next_cursor is not None:
                break
        return {"topics": out, "next_cursor": next_cursor}

    def list_partition_offsets(self, topic_partition_specs: Dict[TopicPartition, Any],
                               isolation_level: Any = IsolationLevel.READ_UNCOMMITTED,
                               timeout_ms: Optional[float] = None) -> Dict[TopicPartition, OffsetAndTimestamp]:
        """Look offsets up by spec: :class:`OffsetSpec` (LATEST, EARLIEST, MAX_TIMESTAMP) or a
        timestamp (an int >= 0, or an :class:`OffsetTimestamp`).

        :param isolation_level: an IsolationLevel, its value or its name.
        :returns: ``{TopicPartition: OffsetAndTimestamp}`` (``leader_epoch`` None when unknown).
        :raises TypeError: for a spec that is not an int.
        :raises ValueError: for an unknown spec or isolation level.
        :raises IncompatibleBrokerVersion: for EARLIEST_LOCAL or LATEST_TIERED, which librdkafka
            cannot ask for.
        :raises BrokerResponseError: for a partition's error, e.g. UnknownTopicOrPartitionError.
        """
        level = self._isolation(isolation_level)
        timeout = self._seconds(timeout_ms)
        request = {}
        for tp, spec in topic_partition_specs.items():
            request[_ck.TopicPartition(tp.topic, tp.partition)] = self._offset_spec(spec)
        if not request:
            return {}
        futures = call(self._admin.list_offsets, request, isolation_level=level, request_timeout=timeout)
        results = {}
        for tp in topic_partition_specs:
            fut = next(f for k, f in futures.items() if k.topic == tp.topic and k.partition == tp.partition)
            key = TopicPartition(tp.topic, tp.partition)
            try:
                res, err = _outcome(fut)
            except Errors.KafkaError as exc:
                # librdkafka finds no leader for a partition that does not exist
                native = _native_error(exc.__cause__) if exc.__cause__ is not None else None
                if native is None or native.code() != _ck.KafkaError._NOENT:
                    raise
                raise _UNKNOWN_TOPIC_OR_PARTITION(f"The following partitions are not known: {key}") from exc
            if err is not None:
                raise _error(err, f"ListOffsetsRequest failed for {key}: {_error_class(err).__name__}")
            epoch = res.leader_epoch
            results[key] = OffsetAndTimestamp(res.offset, res.timestamp,
                                              epoch if epoch is not None and epoch >= 0 else None)
        return results

    @staticmethod
    def _isolation(level: Any) -> Any:
        if isinstance(level, IsolationLevel):
            value = int(level)
        elif isinstance(level, int):
            value = int(IsolationLevel(level))
        else:
            try:
                value = int(IsolationLevel[str(level).strip().upper().replace("-", "_")])
            except KeyError:
                raise ValueError(f"Unrecognized IsolationLevel: {level}") from None
        return _cka.IsolationLevel(value)

    @staticmethod
    def _offset_spec(spec: Any) -> Any:
        if not isinstance(spec, (int, OffsetSpec)):
            raise TypeError(f"Unsupported ts type {type(spec)}, expected int or OffsetSpec")
        value = int(spec)
        if value >= 0:
            return _cka.OffsetSpec.for_timestamp(value)
        kind = OffsetSpec(value)  # ValueError for a negative value that is no spec
        if kind == OffsetSpec.LATEST:
            return _cka.OffsetSpec.latest()
        if kind == OffsetSpec.EARLIEST:
            return _cka.OffsetSpec.earliest()
        if kind == OffsetSpec.MAX_TIMESTAMP:
            return _cka.OffsetSpec.max_timestamp()
        raise _INCOMPATIBLE(
            f"librdkafka, under the kafka-python facade, cannot ask ListOffsets for {kind.name}.")

    # ---- configs -----------------------------------------------------------------------------

    @staticmethod
    def _native_resource(resource: ConfigResource, **kw: Any) -> Any:
        kinds = {ConfigResourceType.TOPIC: _cka.ResourceType.TOPIC, ConfigResourceType.BROKER: _cka.ResourceType.BROKER,
                 ConfigResourceType.GROUP: _cka.ResourceType.GROUP}
        if resource.resource_type in (ConfigResourceType.BROKER, ConfigResourceType.BROKER_LOGGER):
            try:
                int(resource.name)
            except ValueError:
                raise ValueError("Broker resource names must be an integer or a string represented integer") from None
        kind = kinds.get(resource.resource_type)
        if kind is None:
            raise _INCOMPATIBLE(
                f"librdkafka, under the kafka-python facade, has no config API for {resource.resource_type.name} "
                "resources.")
        return _cka.ConfigResource(kind, str(resource.name), **kw)

    def _describe_raw(self, resources: List[ConfigResource], timeout: float,
                      include_synonyms: bool) -> List[Dict[str, Dict[str, Any]]]:
        """Every config of each resource (in order), in kafka-python's per-config shape."""
        natives = [self._native_resource(r) for r in resources]
        if not natives:
            return []
        futures = call(self._admin.describe_configs, natives, request_timeout=timeout)
        out = []
        for native, resource in zip(natives, resources):
            fut = next(f for k, f in futures.items() if k == native)
            entries, _err = _outcome(fut)  # a resource's own error leaves it empty, as in kafka-python
            configs: Dict[str, Dict[str, Any]] = {}
            for name, e in (entries or {}).items():
                synonyms = []
                if include_synonyms:
                    synonyms = [{"name": s.name, "value": s.value, "source": self._source(s.source).name}
                                for s in (e.synonyms or {}).values()]
                configs[name] = {"value": e.value, "read_only": bool(e.is_read_only),
                                 "config_source": self._source(e.source).name, "is_sensitive": bool(e.is_sensitive),
                                 "synonyms": synonyms, "config_type": "UNKNOWN", "documentation": None}
            out.append(configs)
        return out

    @staticmethod
    def _source(source: Any) -> ConfigSourceType:
        value = int(getattr(source, "value", source))
        return ConfigSourceType(value) if value in ConfigSourceType._value2member_map_ else ConfigSourceType.UNKNOWN

    @staticmethod
    def _keys(configs: Any) -> Optional[List[str]]:
        return list(configs.keys()) if isinstance(configs, dict) else configs

    def describe_configs(self, config_resources: List[ConfigResource], include_synonyms: bool = False,
                         config_filter: Any = "modified") -> Dict[str, Dict[str, Dict[str, Any]]]:
        """Describe configs.

        :param config_resources: resources; a resource's ``configs`` (keys, or a dict) names the
            keys to return, None every key.
        :param include_synonyms: also return each config's synonyms.
        :param config_filter: a :class:`ConfigFilterType` or its name: ``'modified'`` (values
            set somewhere), ``'all'``, ``'dynamic'`` (alterable), ``'default'`` or ``'static'``.
        :returns: ``{resource_type: {name: {config: {'value', 'read_only', 'config_source',
            'is_sensitive', 'synonyms', 'config_type', 'documentation'}}}}``; librdkafka does not
            report ``config_type`` (``'UNKNOWN'``) or ``documentation`` (None).
        :raises ValueError: for a broker name that is not an integer, or an unknown filter.
        """
        timeout = self._seconds()
        resources = list(config_resources)
        raw = self._describe_raw(resources, timeout, include_synonyms)
        wanted = ConfigFilterType.build_from(config_filter)
        out: Dict[str, Dict[str, Dict[str, Any]]] = {}
        for resource, configs in zip(resources, raw):
            keys = self._keys(resource.configs)
            picked = {}
            for name, config in configs.items():
                if keys is not None and name not in keys:
                    continue
                if wanted == ConfigFilterType.DYNAMIC and config["read_only"]:
                    continue
                if wanted.should_skip(ConfigSourceType[config["config_source"]]):
                    continue
                picked[name] = config
            out.setdefault(resource.resource_type.name.lower(), {})[resource.name] = picked
        return out

    def list_config_resources(self, resource_types: Optional[List[Any]] = None) -> Dict[str, List[str]]:
        """Not available: librdkafka has no ListConfigResources API.

        :raises ValueError: for an unknown resource type (checked first).
        :raises IncompatibleBrokerVersion: always otherwise.
        """
        self._seconds()
        for rt in resource_types or []:
            ConfigResourceType.build_from(rt)
        raise _unsupported("ListConfigResourcesRequest")

    def _check_known(self, resources: List[ConfigResource], timeout: float) -> None:
        lookups = [ConfigResource(r.resource_type, r.name) for r in resources]
        for resource, configs in zip(resources, self._describe_raw(lookups, timeout, False)):
            alterable = {name for name, c in configs.items() if not c["read_only"]}
            unknown = set(resource.configs or []) - alterable
            if unknown:
                raise ValueError(f"Unrecognized configs: {unknown}")

    def _modified(self, resource: ConfigResource, timeout: float) -> Dict[str, Any]:
        lookup = ConfigResource(resource.resource_type, resource.name)
        (configs,) = self._describe_raw([lookup], timeout, False)
        return {name: c["value"] for name, c in configs.items()
                if ConfigSourceType[c["config_source"]].is_modified() and c["value"] is not None}

    @staticmethod
    def _operations(configs: Any) -> List[Tuple[str, int, Any]]:
        if not configs:
            return []
        if not isinstance(configs, dict):
            raise TypeError("alter_configs requires configs as a dict of {key: (op, value)} or {key: value} "
                            "(interpreted as SET)")
        out = []
        for name, op_value in configs.items():
            op, value = op_value if isinstance(op_value, tuple) else (AlterConfigOp.SET, op_value)
            code = AlterConfigOp.value_for(op)
            out.append((name, code, None if code == AlterConfigOp.DELETE.value else value))
        return out

    @staticmethod
    def _set_only(configs: Any) -> Dict[str, Any]:
        if not configs:
            return {}
        if not isinstance(configs, dict):
            raise TypeError(f"configs should be a dict of {{key: value}}, found {type(configs)}")
        out = {}
        for name, op_value in configs.items():
            op, value = op_value if isinstance(op_value, tuple) else (AlterConfigOp.SET, op_value)
            if AlterConfigOp.value_for(op) != AlterConfigOp.SET.value:
                raise ValueError(f"Non-incremental AlterConfigsRequest does not support operation {op} (SET only)")
            out[name] = value
        return out

    def _send_alter(self, plans: List[Tuple[ConfigResource, Any]], validate_only: bool, incremental: bool,
                    timeout: float) -> Dict[str, Dict[str, str]]:
        """Send resource changes: incremental plans are (name, op, value) lists, others dicts."""
        natives = []
        for resource, plan in plans:
            if incremental:
                ops = [_cka.ConfigEntry(name, None if value is None else str(value),
                                        incremental_operation=_cka.AlterConfigOpType(op)) for name, op, value in plan]
                natives.append(self._native_resource(resource, incremental_configs=ops))
            else:
                natives.append(self._native_resource(
                    resource, set_config={k: None if v is None else str(v) for k, v in plan.items()}))
        out: Dict[str, Dict[str, str]] = {}
        if not natives:
            return out
        method = self._admin.incremental_alter_configs if incremental else self._admin.alter_configs
        with warnings.catch_warnings():  # the native alter_configs is deprecated; kafka-python's is not
            warnings.simplefilter("ignore", DeprecationWarning)
            futures = call(method, natives, request_timeout=timeout, validate_only=validate_only)
        for native, (resource, _) in zip(natives, plans):
            fut = next(f for k, f in futures.items() if k == native)
            _, err = _outcome(fut)
            out.setdefault(resource.resource_type.name.lower(), {})[resource.name] = \
                "OK" if err is None else str(_error(err))
        return out

    def alter_configs(self, config_resources: List[ConfigResource], validate_only: bool = False,
                      raise_on_unknown: bool = True, incremental: Optional[bool] = None) -> Dict[str, Dict[str, str]]:
        """Alter configs.

        :param config_resources: resources whose ``configs`` map keys to a value (SET) or to
            ``(AlterConfigOp, value)``.
        :param validate_only: only check the change.
        :param raise_on_unknown: first check that every key is an alterable config of the resource.
        :param incremental: True: IncrementalAlterConfigs; False: AlterConfigs (which resets the
            keys left out, so the facade adds the resource's other set values, as kafka-python
            does); None: incremental, or the old API when the broker lacks it.
        :returns: ``{resource_type: {name: 'OK' or the error text}}``.
        :raises ValueError: for an unknown key (``raise_on_unknown``), a non-SET operation without
            ``incremental``, or an unknown operation.
        :raises TypeError: for configs that are not a dict.
        """
        def whole(r: ConfigResource, timeout: float) -> Dict[str, Any]:
            wanted = self._set_only(r.configs)
            merged = {k: v for k, v in self._modified(r, timeout).items() if k not in wanted}
            merged.update(wanted)
            return merged

        return self._change_configs(config_resources, validate_only, raise_on_unknown, incremental,
                                    lambda r, _: self._operations(r.configs), whole)

    def reset_configs(self, config_resources: List[ConfigResource], validate_only: bool = False,
                      raise_on_unknown: bool = True, incremental: Optional[bool] = None) -> Dict[str, Dict[str, str]]:
        """Reset configs to their defaults.

        :param config_resources: resources whose ``configs`` (keys, or a dict whose values are
            ignored) name the keys to reset; none: every key set on the resource.
        :returns: ``{resource_type: {name: 'OK' or the error text}}``.
        :raises ValueError: for an unknown key (``raise_on_unknown``).
        """
        def deletes(r: ConfigResource, timeout: float) -> List[Tuple[str, int, None]]:
            keys = list(r.configs) if r.configs else list(self._modified(r, timeout))
            return [(k, AlterConfigOp.DELETE.value, None) for k in keys]

        def kept(r: ConfigResource, timeout: float) -> Dict[str, Any]:
            if not r.configs:
                return {}
            return {k: v for k, v in self._modified(r, timeout).items() if k not in set(r.configs)}

        return self._change_configs(config_resources, validate_only, raise_on_unknown, incremental, deletes, kept)

    def _change_configs(self, config_resources: List[ConfigResource], validate_only: bool, raise_on_unknown: bool,
                        incremental: Optional[bool], operations: Callable[[ConfigResource, float], Any],
                        whole: Callable[[ConfigResource, float], Dict[str, Any]]) -> Dict[str, Dict[str, str]]:
        """Change configs as :meth:`alter_configs` and :meth:`reset_configs` do: each resource's
        ``operations`` through IncrementalAlterConfigs, or (``incremental`` False, or None and a
        broker without it) its ``whole`` new set of values through AlterConfigs."""
        timeout = self._seconds()
        resources = list(config_resources)
        if raise_on_unknown:
            self._check_known(resources, timeout)
        if incremental is not False:
            plans: List[Tuple[ConfigResource, Any]] = [(r, operations(r, timeout)) for r in resources]
            try:
                return self._send_alter(plans, validate_only, True, timeout)
            except _INCOMPATIBLE:
                if incremental:
                    raise
        return self._send_alter([(r, whole(r, timeout)) for r in resources], validate_only, False, timeout)

    # ---- groups ------------------------------------------------------------------------------

    _STATES = {"UNKNOWN": GroupState.UNKNOWN, "PREPARING_REBALANCING": GroupState.PREPARING_REBALANCE,
               "COMPLETING_REBALANCING": GroupState.COMPLETING_REBALANCE, "STABLE": GroupState.STABLE,
               "DEAD": GroupState.DEAD, "EMPTY": GroupState.EMPTY}

    def _state(self, native: Any) -> str:
        return (self._STATES.get(native.name, GroupState.UNKNOWN) if native is not None else GroupState.UNKNOWN).value

    @staticmethod
    def _group_type(native: Any) -> str:
        if native is None or native.name == "UNKNOWN":
            return GroupType.UNKNOWN.value
        return str(native.name.lower())

    def describe_groups(self, group_ids: List[str], group_coordinator_id: Optional[int] = None,
                        include_authorized_operations: bool = False) -> Dict[str, Dict[str, Any]]:
        """Describe consumer groups.

        :param group_coordinator_id: accepted; librdkafka finds each group's coordinator.
        :returns: ``{group_id: {'group_id', 'group_state', 'protocol_type', 'protocol_data',
            'members', 'authorized_operations', 'error'}}``; each member: ``member_id``,
            ``group_instance_id``, ``client_id``, ``client_host``, ``member_metadata`` (None:
            librdkafka does not report subscriptions) and ``member_assignment``
            (``{'assigned_partitions': [{'topic', 'partitions'}], 'user_data': None}``).
        """
        timeout = self._seconds()
        ids = list(group_ids)
        if not ids:
            return {}
        futures = call(self._admin.describe_consumer_groups, list(dict.fromkeys(ids)), request_timeout=timeout,
                       include_authorized_operations=True)
        out: Dict[str, Dict[str, Any]] = {}
        for gid in ids:
            d, err = _outcome(futures[gid])
            if d is None:
                out[gid] = {"group_id": gid, "group_state": GroupState.DEAD.value, "protocol_type": "",
                            "protocol_data": "", "members": [], "authorized_operations": None,
                            "error": str(_error(err)) if err is not None else None}
                continue
            members = []
            for m in d.members:
                assigned: Dict[str, List[int]] = defaultdict(list)
                for tp in (m.assignment.topic_partitions if m.assignment else []):
                    assigned[tp.topic].append(tp.partition)
                members.append({"member_id": m.member_id, "group_instance_id": m.group_instance_id,
                                "client_id": m.client_id, "client_host": m.host, "member_metadata": None,
                                "member_assignment": {"assigned_partitions": [
                                    {"topic": t, "partitions": ps} for t, ps in assigned.items()], "user_data": None}})
            out[gid] = {"group_id": d.group_id, "group_state": self._state(d.state),
                        "protocol_type": "" if d.is_simple_consumer_group else "consumer",
                        "protocol_data": d.partition_assignor or "", "members": members,
                        "authorized_operations": _operation_names(d.authorized_operations), "error": None}
        return out

    def list_groups(self, broker_ids: Optional[List[int]] = None, states_filter: Optional[List[Any]] = None,
                    types_filter: Optional[List[Any]] = None) -> List[Dict[str, Any]]:
        """List the consumer groups.

        :param broker_ids: accepted; librdkafka asks every broker.
        :param states_filter: :class:`GroupState` members, names or protocol strings.
        :param types_filter: :class:`GroupType` members, names or protocol strings.
        :returns: one dict per group: ``group_id``, ``protocol_type``, ``group_state``,
            ``group_type``.
        :raises ValueError: for an unknown state or type.
        """
        kw: Dict[str, Any] = {}
        if states_filter:
            natives = {v.value: k for k, v in self._STATES.items()}
            states = [GroupState.value_for(s) for s in states_filter]
            missing = [s for s in states if s not in natives]
            if missing:
                raise _INCOMPATIBLE(
                    f"librdkafka, under the kafka-python facade, cannot filter groups by state {missing}.")
            kw["states"] = {_cka.ConsumerGroupState[natives[s]] for s in states}
        if types_filter:
            types = [GroupType.value_for(t) for t in types_filter]
            missing = [t for t in types if t not in ("classic", "consumer")]
            if missing:
                raise _INCOMPATIBLE(
                    f"librdkafka, under the kafka-python facade, cannot filter groups by type {missing}.")
            kw["types"] = {_cka.ConsumerGroupType[t.upper()] for t in types}
        timeout = self._seconds()
        res, err = _outcome(call(self._admin.list_consumer_groups, request_timeout=timeout, **kw))
        if err is not None:
            raise _error(err)
        if res.errors:
            raise translate_error(res.errors[0])
        return [{"group_id": g.group_id, "protocol_type": "" if g.is_simple_consumer_group else "consumer",
                 "group_state": self._state(g.state), "group_type": self._group_type(getattr(g, "type", None))}
                for g in res.valid]

    def list_group_offsets(self, group_specs: Any) -> Dict[str, Dict[TopicPartition, OffsetAndMetadata]]:
        """Committed offsets of groups.

        :param group_specs: ``{group_id: [TopicPartition] or None (every committed partition)}``,
            or a group id, or a list of them.
        :returns: ``{group_id: {TopicPartition: OffsetAndMetadata}}`` (offset -1 for a partition
            asked about with no committed offset).
        :raises BrokerResponseError: for a group's or a partition's error.
        """
        if isinstance(group_specs, list):
            group_specs = {g: None for g in group_specs}
        elif isinstance(group_specs, str):
            group_specs = {group_specs: None}
        timeout = self._seconds()
        out = {}
        for gid, tps in group_specs.items():
            parts = None
            if tps is not None:
                parts = [_ck.TopicPartition(t, p) for t, p in dict.fromkeys((t, p) for t, p in tps)]
            req = _cka.ConsumerGroupTopicPartitions(gid, parts)
            res, err = _outcome(call(self._admin.list_consumer_group_offsets, [req], request_timeout=timeout)[gid])
            if err is not None:
                raise _error(err, f"OffsetFetchResponse failed for group '{gid}'.")
            offsets = {}
            for p in res.topic_partitions:
                if p.error is not None:
                    raise _error(p.error, f"OffsetFetchResponse failed for partition {p.partition}")
                offsets[TopicPartition(p.topic, p.partition)] = OffsetAndMetadata(
                    p.offset if p.offset >= 0 else -1, p.metadata,
                    p.leader_epoch if p.leader_epoch is not None else -1)
            out[gid] = offsets
        return out

    def list_consumer_group_offsets(self, group_id: str, group_coordinator_id: Any = None,
                                    partitions: Optional[List[TopicPartition]] = None
                                    ) -> Dict[TopicPartition, OffsetAndMetadata]:
        """kafka-python 2's single-group form of :meth:`list_group_offsets` (kept for programs
        written for it; kafka-python 3.0 no longer has it).

        :returns: ``{TopicPartition: OffsetAndMetadata}``.
        """
        return self.list_group_offsets({group_id: partitions})[group_id]

    def delete_groups(self, group_ids: List[str], group_coordinator_id: Optional[int] = None) -> Dict[str, str]:
        """Delete consumer groups.

        :returns: ``{group_id: 'OK' or the error class's name}``.
        """
        timeout = self._seconds()
        ids = list(dict.fromkeys(group_ids))
        if not ids:
            return {}
        futures = call(self._admin.delete_consumer_groups, ids, request_timeout=timeout)
        out = {}
        for gid in ids:
            _, err = _outcome(futures[gid])
            out[gid] = "OK" if err is None else _error_class(err).__name__
        return out

    def _alter_offsets(self, group_id: str, offsets: Dict[TopicPartition, OffsetAndMetadata],
                       timeout: float) -> Dict[TopicPartition, type]:
        parts = []
        for tp, oam in offsets.items():
            epoch = getattr(oam, "leader_epoch", None)
            parts.append(_ck.TopicPartition(tp.topic, tp.partition, int(oam.offset),
                                            metadata=getattr(oam, "metadata", None),
                                            leader_epoch=None if epoch is None or epoch < 0 else int(epoch)))
        req = _cka.ConsumerGroupTopicPartitions(group_id, parts)
        res, err = _outcome(call(self._admin.alter_consumer_group_offsets, [req], request_timeout=timeout)[group_id])
        if err is not None:
            return {TopicPartition(tp.topic, tp.partition): _error_class(err) for tp in offsets}
        return {TopicPartition(p.topic, p.partition): _error_class(p.error) for p in res.topic_partitions}

    def alter_group_offsets(self, group_id: str, offsets: Dict[TopicPartition, OffsetAndMetadata],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, type]:
        """Set a group's committed offsets (the group must have no active members).

        :param offsets: ``{TopicPartition: OffsetAndMetadata}``.
        :returns: ``{TopicPartition: NoError or the partition's error class}``.
        """
        timeout = self._seconds()
        if not offsets:
            return {}
        return self._alter_offsets(group_id, offsets, timeout)

    def reset_group_offsets(self, group_id: str, offset_specs: Dict[TopicPartition, Any],
                            group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, Dict[str, Any]]:
        """Reset a group's committed offsets, each clamped to the partition's [earliest, latest].

        :param offset_specs: ``{TopicPartition: OffsetSpec, OffsetTimestamp or an int offset}``.
        :returns: ``{TopicPartition: {'error': error class, 'offset': the offset committed}}``.
        :raises TypeError: for a target that is none of those.
        """
        timeout = self._seconds()
        if not offset_specs:
            return {}
        looked_up, explicit = {}, {}
        for tp, val in offset_specs.items():
            if isinstance(val, (OffsetSpec, OffsetTimestamp)):
                looked_up[tp] = val
            elif isinstance(val, int):
                explicit[tp] = val
            else:
                raise TypeError(f"Unsupported reset target for {tp}: {val!r} "
                                "(expected OffsetSpec, OffsetTimestamp, or int offset)")
        tps = list(offset_specs)
        current = self.list_group_offsets({group_id: tps})[group_id]
        earliest = self.list_partition_offsets({tp: OffsetSpec.EARLIEST for tp in tps}, timeout_ms=timeout * 1000)
        latest = self.list_partition_offsets({tp: OffsetSpec.LATEST for tp in tps}, timeout_ms=timeout * 1000)
        found = self.list_partition_offsets(looked_up, timeout_ms=timeout * 1000) if looked_up else {}
        to_reset = {}
        for tp in tps:
            key = TopicPartition(tp.topic, tp.partition)
            raw = found[key].offset if key in found else explicit[tp]
            low, high = earliest[key].offset, latest[key].offset
            clamped = high if raw < 0 or raw > high else max(raw, low)
            to_reset[key] = (current[key]._replace(offset=clamped) if key in current
                             else OffsetAndMetadata(clamped, "", None))
        errors = self._alter_offsets(group_id, to_reset, timeout)
        return {tp: {"error": errors.get(tp, _NO_ERROR), "offset": to_reset[tp].offset} for tp in to_reset}

    def delete_group_offsets(self, group_id: str, partitions: Iterable[TopicPartition],
                             group_coordinator_id: Optional[int] = None) -> Dict[TopicPartition, type]:
        """Not available: the native client has no OffsetDelete API (no partitions: ``{}``).

        :raises IncompatibleBrokerVersion: for any partition.
        """
        return self._nothing_or_unsupported(partitions, "OffsetDeleteRequest")

    def remove_group_members(self, group_id: str, members: Iterable[Any],
                             group_coordinator_id: Optional[int] = None) -> Dict[str, type]:
        """Not available: librdkafka has no admin LeaveGroup API (no members: ``{}``).

        :raises IncompatibleBrokerVersion: for any member.
        """
        return self._nothing_or_unsupported(members, "LeaveGroupRequest")

    # ---- ACLs --------------------------------------------------------------------------------

    @staticmethod
    def _native_enum(kind: type, value: Any, what: str) -> Any:
        try:
            return kind(int(value))
        except ValueError:
            name = getattr(value, "name", value)
            raise _INCOMPATIBLE(
                f"librdkafka, under the kafka-python facade, has no ACL {what} {name}.") from None

    def _binding(self, acl: Any, concrete: bool) -> Any:
        pattern = acl.resource_pattern
        args = (self._native_enum(_cka.ResourceType, pattern.resource_type, "resource type"), pattern.resource_name,
                self._native_enum(_cka.ResourcePatternType, pattern.pattern_type, "pattern type"), acl.principal,
                acl.host, self._native_enum(_cka.AclOperation, acl.operation, "operation"),
                self._native_enum(_cka.AclPermissionType, acl.permission_type, "permission type"))
        return _cka.AclBinding(*args) if concrete else _cka.AclBindingFilter(*args)

    @staticmethod
    def _acl(binding: Any) -> ACL:
        return ACL(principal=binding.principal, host=binding.host, operation=ACLOperation(int(binding.operation.value)),
                   permission_type=ACLPermissionType(int(binding.permission_type.value)),
                   resource_pattern=ResourcePattern(ResourceType(int(binding.restype.value)), binding.name,
                                                    ACLResourcePatternType(int(binding.resource_pattern_type.value))))

    def describe_acls(self, acl_filter: ACLFilter) -> Tuple[List[ACL], type]:
        """The ACLs that match a filter.

        :returns: ``(list of ACL, NoError)``.
        :raises BrokerResponseError: the broker's error, e.g. SecurityDisabledError.
        """
        timeout = self._seconds()
        flt = self._binding(acl_filter, concrete=False)
        res, err = _outcome(call(self._admin.describe_acls, flt, request_timeout=timeout))
        if err is not None:
            raise _error(err)
        return [self._acl(b) for b in res], _NO_ERROR

    def create_acls(self, acls: List[ACL]) -> Dict[str, List[Any]]:
        """Create ACLs.

        :returns: ``{'succeeded': [ACL], 'failed': [error class]}``.
        :raises IllegalArgumentError: for an item that is not an :class:`ACL`.
        """
        results: Dict[str, List[Any]] = {"succeeded": [], "failed": []}
        for acl, (_, err) in self._acl_requests(self._admin.create_acls, acls, ACL,
                                                "acls must contain ACL objects"):
            if err is None:
                results["succeeded"].append(acl)
            else:
                results["failed"].append(_error_class(err))
        return results

    def delete_acls(self, acl_filters: List[ACLFilter]) -> List[Tuple[ACLFilter, List[ACL], type]]:
        """Delete the ACLs that match filters.

        :returns: one ``(filter, [ACL deleted], NoError or the error class)`` per filter.
        :raises IllegalArgumentError: for an item that is not an :class:`ACLFilter`.
        """
        return [(flt, [self._acl(b) for b in (res or [])], _error_class(err))
                for flt, (res, err) in self._acl_requests(self._admin.delete_acls, acl_filters, ACLFilter,
                                                          "acl_filters must contain ACLFilter type objects")]

    def _acl_requests(self, op: Any, items: List[Any], kind: type, wrong: str) -> List[Tuple[Any, Tuple[Any, Any]]]:
        """Each of ``items`` (ACLs to create, or filters to delete by) with the outcome of its
        binding in one ``op`` call; equal bindings are sent once.

        :raises IllegalArgumentError: with the text ``wrong`` for an item not of ``kind``.
        """
        for item in items:
            if not isinstance(item, kind):
                raise IllegalArgumentError(wrong)
        timeout = self._seconds()
        natives = [self._binding(item, concrete=kind is ACL) for item in items]
        futures = call(op, list(dict.fromkeys(natives)), request_timeout=timeout) if natives else {}
        return [(item, _outcome(futures[native])) for item, native in zip(items, natives)]

    # ---- cluster -----------------------------------------------------------------------------

    def describe_cluster(self) -> Dict[str, Any]:
        """:returns: ``{'cluster_id', 'controller_id', 'brokers': [{'broker_id', 'host', 'port',
            'rack'}], 'authorized_operations'}``."""
        timeout = self._seconds()
        res, err = _outcome(call(self._admin.describe_cluster, request_timeout=timeout,
                                 include_authorized_operations=True))
        if err is not None:
            raise _error(err)
        return {"cluster_id": res.cluster_id, "controller_id": _node_id(res.controller),
                "brokers": [{"broker_id": n.id, "host": n.host, "port": n.port, "rack": n.rack} for n in res.nodes],
                "authorized_operations": _operation_names(res.authorized_operations)}

    def describe_log_dirs(self, topic_partitions: Any = None, brokers: Optional[List[int]] = None) -> List[Any]:
        """Not available: librdkafka has no DescribeLogDirs API.

        :raises IncompatibleBrokerVersion: always (after kafka-python's topic look-up).
        """
        self._seconds()
        self._topic_partition_lists(topic_partitions)
        raise _unsupported("DescribeLogDirsRequest")

    def alter_replica_log_dirs(self, replica_assignments: Dict[Any, str]) -> Dict[TopicPartitionReplica, type]:
        """Not available: librdkafka has no AlterReplicaLogDirs API (no assignments: ``{}``).

        :raises IncompatibleBrokerVersion: for any assignment.
        """
        self._seconds()
        if not replica_assignments:
            return {}
        for tpr in replica_assignments:
            if not isinstance(tpr, TopicPartitionReplica):
                TopicPartitionReplica(*tpr)
        raise _unsupported("AlterReplicaLogDirsRequest")

    def describe_metadata_quorum(self) -> Dict[str, Any]:
        """Not available: librdkafka has no DescribeQuorum API.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds()
        raise _unsupported("DescribeQuorumRequest")

    def get_broker_version_data(self, broker_id: int) -> Any:
        """Not available: librdkafka negotiates API versions itself and does not expose them.

        :raises NotImplementedError: always.
        """
        self._seconds()
        raise NotImplementedError("librdkafka does not expose the API versions it negotiated with a broker; "
                                  "the kafka-python facade has no BrokerVersionData")

    def api_versions(self) -> Dict[Any, Tuple[int, int]]:
        """Not available: librdkafka negotiates API versions itself and does not expose them.

        :raises NotImplementedError: always.
        """
        self._seconds()
        raise NotImplementedError("librdkafka does not expose the API versions it negotiated with the brokers")

    def describe_features(self, send_request_to_controller: bool = False) -> Dict[str, Any]:
        """Not available: librdkafka does not expose the features of an ApiVersions response.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds()
        raise _unsupported("ApiVersionsRequest")

    def update_features(self, feature_updates: Dict[str, Any], validate_only: bool = False,
                        timeout_ms: float = 60000) -> Dict[str, str]:
        """Not available: librdkafka has no UpdateFeatures API.

        :raises TypeError: for updates that are not a dict (checked first).
        :raises ValueError: for an unknown upgrade type (checked first).
        :raises IncompatibleBrokerVersion: always otherwise.
        """
        self._seconds()
        if not isinstance(feature_updates, dict):
            raise TypeError("feature_updates must be a dict of {feature_name: (max_version_level, upgrade_type)} "
                            "or {feature_name: max_version_level}")
        for spec in feature_updates.values():
            if isinstance(spec, tuple):
                upgrade_type, level = spec
            else:
                upgrade_type, level = UpdateFeatureType.UPGRADE, spec
            UpdateFeatureType.value_for(upgrade_type)
            int(level)
        raise _unsupported("UpdateFeaturesRequest")

    # ---- transactions ------------------------------------------------------------------------

    def list_transactions(self, broker_ids: Optional[List[int]] = None, producer_id_filters: Optional[List[int]] = None,
                          state_filters: Optional[List[Any]] = None, duration_filter_ms: Optional[int] = None,
                          transactional_id_pattern: Optional[str] = None) -> Dict[int, List[Any]]:
        """Not available: librdkafka has no ListTransactions API.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds()
        raise _unsupported("ListTransactionsRequest")

    def describe_transactions(self, transactional_ids: Iterable[str]) -> Dict[str, Any]:
        """Not available: librdkafka has no DescribeTransactions API (no ids: ``{}``).

        :raises IncompatibleBrokerVersion: for any id.
        """
        self._seconds()
        if not list(transactional_ids):
            return {}
        raise _unsupported("DescribeTransactionsRequest")

    def describe_producers(self, partitions: Iterable[TopicPartition],
                           broker_id: Optional[int] = None) -> Dict[Any, Any]:
        """Not available: librdkafka has no DescribeProducers API (no partitions: ``{}``).

        :raises IncompatibleBrokerVersion: for any partition.
        """
        self._seconds()
        if not list(partitions):
            return {}
        raise _unsupported("DescribeProducersRequest")

    def abort_transaction(self, spec: Any) -> None:
        """Not available: librdkafka has no admin WriteTxnMarkers API.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds()
        raise _unsupported("WriteTxnMarkersRequest")

    def find_hanging_transactions(self, broker_ids: Optional[List[int]] = None,
                                  max_transaction_timeout_ms: int = 900000) -> List[Dict[str, Any]]:
        """Not available: it needs ListTransactions, which librdkafka has no API for.

        :raises IncompatibleBrokerVersion: always.
        """
        self._seconds()
        raise _unsupported("ListTransactionsRequest")

    # ---- SCRAM users -------------------------------------------------------------------------

    def alter_user_scram_credentials(self, alterations: List[Any]) -> Dict[str, Optional[str]]:
        """Create, replace or delete users' SCRAM credentials.

        :param alterations: :class:`UserScramCredentialUpsertion` and
            :class:`UserScramCredentialDeletion` objects.
        :returns: ``{user: None or the error message}``.
        :raises IllegalArgumentError: for an item of another type.
        """
        natives: List[Any] = []
        for alt in alterations:
            if isinstance(alt, UserScramCredentialDeletion):
                natives.append(_cka.UserScramCredentialDeletion(alt.user, _cka.ScramMechanism(int(alt.mechanism))))
            elif isinstance(alt, UserScramCredentialUpsertion):
                info = _cka.ScramCredentialInfo(_cka.ScramMechanism(int(alt.mechanism)), int(alt.iterations))
                natives.append(_cka.UserScramCredentialUpsertion(alt.user, info, alt._password, alt.salt))
            else:
                raise IllegalArgumentError("alterations must be UserScramCredentialDeletion or "
                                           f"UserScramCredentialUpsertion, got {type(alt).__name__}")
        timeout = self._seconds()
        if not natives:
            return {}
        futures = call(self._admin.alter_user_scram_credentials, natives, request_timeout=timeout)
        out: Dict[str, Optional[str]] = {}
        for alt in alterations:
            if alt.user not in out:
                _, err = _outcome(futures[alt.user])
                out[alt.user] = None if err is None else err.str()
        return out

    def describe_user_scram_credentials(self, users: Optional[List[str]] = None) -> Dict[str, Dict[str, Any]]:
        """Describe users' SCRAM credentials.

        :param users: user names; None: every user with a credential.
        :returns: ``{user: {'error': None or a message, 'credential_infos': [{'mechanism':
            ScramMechanism, 'iterations'}]}}``. A user the broker's answer leaves out is left
            out here too.
        """
        timeout = self._seconds()

        def shape(desc: Any) -> Dict[str, Any]:
            return {"error": None, "credential_infos": [
                {"mechanism": ScramMechanism(int(i.mechanism.value)), "iterations": i.iterations}
                for i in desc.scram_credential_infos]}

        if users is None:
            res, err = _outcome(call(self._admin.describe_user_scram_credentials, None, request_timeout=timeout))
            if err is not None:
                raise _error(err)
            return {user: shape(desc) for user, desc in res.items()}
        names = list(dict.fromkeys(users))
        if not names:
            return {}
        futures = call(self._admin.describe_user_scram_credentials, names, request_timeout=timeout)
        out: Dict[str, Dict[str, Any]] = {}
        for user in names:
            try:
                desc, err = _outcome(futures[user])
            except RuntimeError:
                # The native client fails every future when the broker's answer has no entry
                # for some user; kafka-python returns the entries the broker sent.
                continue
            out[user] = shape(desc) if err is None else {"error": err.str(), "credential_infos": []}
        return out

