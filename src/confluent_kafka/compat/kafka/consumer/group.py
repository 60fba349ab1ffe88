"""``kafka.consumer.group``: :class:`KafkaConsumer` over this package's librdkafka consumer."""
from __future__ import annotations

import asyncio
import inspect
import logging
import time
import uuid
from typing import Any, Awaitable, Callable, Dict, Iterator, List, Optional, Set

import confluent_kafka as _ck
from confluent_kafka.compat.kafka import _config
from confluent_kafka.compat.kafka import errors as Errors
from confluent_kafka.compat.kafka._util import Stats, call, extras, translate_error
from confluent_kafka.compat.kafka.consumer.fetcher import ConsumerRecord
from confluent_kafka.compat.kafka.consumer.subscription_state import (
    AsyncConsumerRebalanceListener, ConsumerRebalanceListener)
from confluent_kafka.compat.kafka.future import Future
from confluent_kafka.compat.kafka.serializer import Deserializer
from confluent_kafka.compat.kafka.structs import (
    ConsumerGroupMetadata, MemberState, OffsetAndMetadata, OffsetAndTimestamp, TopicPartition)

__all__ = ["KafkaConsumer"]

log = logging.getLogger(__name__)

_new_record = tuple.__new__
_OFFSET_BEGINNING, _OFFSET_END = _ck.OFFSET_BEGINNING, _ck.OFFSET_END
_NO_OFFSET = _ck.KafkaError._NO_OFFSET
_SOFT_ERRORS = frozenset((_ck.KafkaError._PARTITION_EOF,))
# ConsumerRecord's fields as cimpl._records() layout codes: topic, partition, leader epoch (-1),
# offset, timestamp, timestamp type (0/1, -1), key, value, headers list, None, key size,
# value size, headers' serialized size.
_LAYOUT = "tplosykvhnKVS"
_build = _ck.cimpl._records


def _tp(partition: Any) -> TopicPartition:
    if not isinstance(partition, tuple) or len(partition) != 2:
        raise TypeError(f"partition must be a TopicPartition, not {type(partition).__name__}")
    return partition if type(partition) is TopicPartition else TopicPartition(*partition)


def _deserializer(fn: Any) -> Optional[Callable[[str, Any, Any], Any]]:
    """Normalise a deserializer to ``f(topic, headers, data)`` (None for none)."""
    if fn is None:
        return None
    if isinstance(fn, Deserializer) or callable(getattr(fn, "deserialize", None)):
        return fn.deserialize  # type: ignore[no-any-return]
    if callable(fn):
        return lambda topic, headers, data: fn(data)
    raise Errors.KafkaConfigurationError(f"a deserializer must be callable or a Deserializer, not {fn!r}")


async def _await(awaitable: Awaitable[Any]) -> Any:
    """A coroutine that awaits ``awaitable`` (for asyncio.run, which takes coroutines only)."""
    return await awaitable


class _GroupMetadata(ConsumerGroupMetadata):
    """ConsumerGroupMetadata carrying the native consumer's metadata for transactions."""

    native: Any = None


class KafkaConsumer:
    """kafka-python's ``KafkaConsumer``, running on librdkafka.

    ``KafkaConsumer(*topics, **configs)``: the topics (if any) are subscribed at once; the
    options are kafka-python's (docs/kafka_python.md maps each to librdkafka). Iterate it for
    records one at a time, or :meth:`poll` for ``{TopicPartition: [ConsumerRecord]}`` batches.

    :raises KafkaConfigurationError: for an unknown option or one with no librdkafka equivalent.
    """

    DEFAULT_CONFIG = _config.DEFAULTS[_config.CONSUMER]

    def __init__(self, *topics: str, **configs: Any) -> None:
        conf, self.config = _config.translate(_config.CONSUMER, configs)
        cfg = self.config
        self._group_id: Optional[str] = cfg["group_id"]
        if self._group_id is None:
            # librdkafka needs a group id; a private one that never commits stands in for "none".
            conf["group.id"] = f"kafka-python-facade-{uuid.uuid4().hex}"
            conf["enable.auto.commit"] = False
        self._auto_commit = bool(cfg["enable_auto_commit"]) and self._group_id is not None
        conf["enable.auto.offset.store"] = False  # offsets are stored as records are handed out
        self._stats = Stats(cfg["metric_group_prefix"])
        extras(cfg, conf, self._stats if cfg["metrics_enabled"] else None)
        self._key_des = _deserializer(cfg["key_deserializer"])
        self._value_des = _deserializer(cfg["value_deserializer"])
        max_poll = cfg["max_poll_records"]
        if not isinstance(max_poll, int) or max_poll <= 0:
            raise Errors.KafkaConfigurationError(f"max_poll_records must be a positive int, not {max_poll!r}")
        self._max_poll_records = max_poll
        timeout = cfg["consumer_timeout_ms"]
        self._consumer_timeout = None if timeout is None or timeout < 0 else timeout / 1000.0
        # Under cooperative-sticky librdkafka hands the listener only the partitions that move.
        self._cooperative = _config.is_cooperative(conf)
        self._consumer = call(_ck.Consumer, conf)
        self._closed = False
        self._buffer: List[ConsumerRecord] = []   # fetched, not yet handed out (iteration)
        self._index = 0
        self._handed: Dict[TopicPartition, int] = {}  # next offset per partition, not yet stored
        self._subscribed: Optional[Set[str]] = None
        self._pattern: Optional[str] = None
        self._manual: Optional[Set[TopicPartition]] = None
        self._paused: Set[TopicPartition] = set()
        self._listener: Any = None
        self._assigned: Set[TopicPartition] = set()
        self._consumed = 0
        self._admin: Any = None
        if topics:
            self.subscribe(topics)

    # ---- subscription and assignment --------------------------------------------------------

    def subscribe(self, topics: Any = (), pattern: Optional[str] = None, listener: Any = None) -> None:
        """Join the group for ``topics`` (or a regex ``pattern``), replacing any subscription.

        :param topics: topic names.
        :param pattern: a regular expression matching topic names (instead of ``topics``).
        :param listener: a :class:`ConsumerRebalanceListener` told of revocations and assignments.
        :raises IllegalStateError: after :meth:`assign`, or with both/neither of topics and pattern.
        :raises TypeError: for a listener that is not a ConsumerRebalanceListener.
        """
        self._check_open()
        if self._manual:
            raise Errors.IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        if isinstance(topics, str):
            topics = [topics]
        topics = list(topics or ())
        if topics and pattern:
            raise Errors.IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        if not topics and not pattern:
            raise ValueError("subscribe() needs topics or a pattern")
        if listener is not None and not isinstance(
                listener, (ConsumerRebalanceListener, AsyncConsumerRebalanceListener)):
            raise TypeError("listener must be a ConsumerRebalanceListener or AsyncConsumerRebalanceListener")
        if self._group_id is None:
            raise Errors.IllegalStateError("subscribe() needs a group_id; use assign() without one")
        for t in topics:
            if not isinstance(t, str) or not t:
                raise TypeError(f"topic names must be non-empty str, not {t!r}")
        self._listener = listener
        if pattern:
            names = ["^" + pattern.lstrip("^")]
            self._pattern, self._subscribed = pattern, set()
        else:
            names = topics
            self._pattern, self._subscribed = None, set(topics)
        call(self._consumer.subscribe, names, on_assign=self._on_assign, on_revoke=self._on_revoke,
             on_lost=self._on_lost)

    def _listen(self, method: str, partitions: List[Any]) -> None:
        if self._listener is None:
            return
        tps = {TopicPartition(p.topic, p.partition) for p in partitions}
        result = getattr(self._listener, method)(tps)
        if inspect.isawaitable(result):
            # asyncio.run takes a coroutine; a listener may return any awaitable (a Future, an
            # object with __await__), so it is awaited from one.
            asyncio.run(_await(result))

    def _listen_to(self, method: str, partitions: List[Any]) -> None:
        """Tell the listener of a change: always under an eager rebalance, only of a non-empty one
        under a cooperative one (as kafka-python does)."""
        if partitions or not self._cooperative:
            self._listen(method, partitions)

    def _on_assign(self, consumer: Any, partitions: List[Any]) -> None:
        given = {TopicPartition(p.topic, p.partition) for p in partitions}
        self._assigned = self._assigned | given if self._cooperative else given
        if self._pattern is not None:
            self._subscribed = {p.topic for p in partitions} | (self._subscribed or set())
        self._listen_to("on_partitions_assigned", partitions)

    def _drop(self, gone: Set[TopicPartition]) -> None:
        """Forget buffered records of partitions no longer consumed."""
        rest = self._buffer[self._index:]
        self._buffer = [r for r in rest if (r.topic, r.partition) not in gone]
        self._index = 0

    def _on_revoke(self, consumer: Any, partitions: List[Any]) -> None:
        gone = {TopicPartition(p.topic, p.partition) for p in partitions}
        if self._auto_commit:
            self._store_handed()
            try:
                self._consumer.commit(asynchronous=False)
            except _ck.KafkaException:
                pass
        self._handed = {tp: o for tp, o in self._handed.items() if tp not in gone}
        self._drop(gone)
        self._assigned -= gone
        self._paused -= gone
        self._listen_to("on_partitions_revoked", partitions)

    def _on_lost(self, consumer: Any, partitions: List[Any]) -> None:
        gone = {TopicPartition(p.topic, p.partition) for p in partitions}
        self._handed = {tp: o for tp, o in self._handed.items() if tp not in gone}
        self._drop(gone)
        self._assigned -= gone
        self._listen_to("on_partitions_lost", partitions)

    def subscription(self) -> Optional[Set[str]]:
        """:returns: the subscribed topics (None if not subscribed)."""
        return set(self._subscribed) if self._subscribed is not None else None

    def unsubscribe(self) -> None:
        """Leave the group and forget the subscription and any manual assignment."""
        self._check_open()
        if self._auto_commit and self._subscribed is not None:
            self._commit_handed(quiet=True)
        call(self._consumer.unsubscribe)
        if self._manual is not None:
            call(self._consumer.unassign)
        self._subscribed = self._pattern = self._manual = None
        self._assigned, self._paused, self._handed = set(), set(), {}
        self._buffer, self._index = [], 0

    def assign(self, partitions: Any) -> None:
        """Consume exactly these partitions (no group management), replacing any assignment.

        :param partitions: TopicPartitions.
        :raises IllegalStateError: after :meth:`subscribe`.
        """
        self._check_open()
        if self._subscribed is not None:
            raise Errors.IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        tps = [_tp(p) for p in partitions]
        if not tps:
            self.unsubscribe()
            return
        new = set(tps)
        self._drop((self._manual or set()) - new)
        call(self._consumer.assign, [_ck.TopicPartition(t, p) for t, p in tps])
        self._manual = self._assigned = new
        self._paused &= new

    def assignment(self) -> Set[TopicPartition]:
        """:returns: the partitions this consumer currently reads."""
        return set(self._manual if self._manual is not None else self._assigned)

    def _check_assigned(self, tp: TopicPartition) -> None:
        if tp not in self.assignment():
            raise Errors.IllegalStateError(f"No current assignment for partition {tp}")

    # ---- fetching --------------------------------------------------------------------------

    def _records(self, msgs: List[Any], groups: Optional[Dict[Any, List[ConsumerRecord]]] = None
                 ) -> List[ConsumerRecord]:
        """ConsumerRecords of ``msgs``; with ``groups``, they go into ``groups[(topic, partition)]``
        instead of the returned list (records arrive in runs per partition, so the bucket only
        changes when the partition does)."""
        kd, vd = self._key_des, self._value_des
        paused = self._paused
        if kd is None and vd is None and not paused:
            good = [m for m in msgs if m.error() is None]
            if len(good) != len(msgs):
                for m in msgs:
                    self._check(m.error())
            records = _build(good, ConsumerRecord, _LAYOUT)
            if groups is None:
                return records
            # Records come in runs per partition: a new bucket only when the partition changes.
            cur: Any = None
            append: Any = None
            for r in records:
                if cur is None or r[1] != cur[1] or r[0] != cur[0]:
                    cur = (r[0], r[1])
                    append = groups.setdefault(cur, []).append
                append(r)
            return []
        out: List[ConsumerRecord] = []
        cur_topic: Any = None
        cur_partition: Any = None
        skip = False
        bucket = out
        append = out.append
        for m in msgs:
            err = m.error()
            if err is not None:
                self._check(err)
                continue
            topic = m.topic()
            partition = m.partition()
            if partition != cur_partition or topic != cur_topic:
                cur_topic, cur_partition = topic, partition
                skip = bool(paused) and (topic, partition) in paused
                if groups is not None:
                    bucket = groups.setdefault((topic, partition), [])
                    append = bucket.append
            if skip:
                continue
            key = m.key()
            value = m.value()
            headers = m.headers()
            tstype, ts = m.timestamp()
            if headers:
                hsize = sum(len(k.encode()) + (len(v) if v is not None else 0) for k, v in headers)
            else:
                headers, hsize = [], -1
            ksize = -1 if key is None else len(key)
            vsize = -1 if value is None else len(value)
            if kd is not None:
                key = kd(topic, headers, key)
            if vd is not None:
                value = vd(topic, headers, value)
            epoch = m.leader_epoch()
            append(_new_record(ConsumerRecord, (
                topic, partition, -1 if epoch is None else epoch, m.offset(), ts,
                tstype - 1 if tstype > 0 else -1, key, value, headers, None, ksize, vsize, hsize)))
        return out

    @staticmethod
    def _check(err: Any) -> None:
        """A fetched error: raise a fatal one (or a failed offset reset), log others, skip EOF."""
        if err is None or err.code() in _SOFT_ERRORS:
            return
        if err.fatal() or err.code() == _ck.KafkaError._AUTO_OFFSET_RESET:
            raise translate_error(err)
        log.warning("consumer error: %s", err)

    def _fetch(self, max_records: int, timeout: float,
               groups: Optional[Dict[Any, List[ConsumerRecord]]] = None) -> List[ConsumerRecord]:
        # librdkafka's consume(n, t) waits for all n or t; kafka-python's poll returns as soon
        # as anything arrived: take what is there, else wait for one and top up without waiting.
        consume = self._consumer.consume
        try:
            msgs = consume(max_records, 0)
            if not msgs and timeout > 0:
                msgs = consume(1, timeout)
                if msgs and max_records > 1:
                    msgs += consume(max_records - 1, 0)
        except _ck.KafkaException as exc:
            raise translate_error(exc) from exc
        return self._records(msgs, groups) if msgs else []

    def _mark(self, records: List[ConsumerRecord]) -> None:
        """Note the records as handed out: their partitions' next offsets get stored."""
        handed = self._handed
        seen = set()
        for r in reversed(records):
            key = (r[0], r[1])
            if key not in seen:
                seen.add(key)
                handed[key] = r[3] + 1  # type: ignore[index]
        self._consumed += len(records)

    def _settle(self) -> None:
        """Move the records iteration handed out of the buffer into ``_handed``; with auto-commit,
        store their offsets for librdkafka's next commit (otherwise commit() stores them)."""
        if self._buffer and self._index:
            self._mark(self._buffer[:self._index])
            self._buffer, self._index = self._buffer[self._index:], 0
        if self._auto_commit and self._handed:
            self._store_handed()

    def _store_handed(self) -> None:
        if self._buffer and self._index:
            self._mark(self._buffer[:self._index])
            self._buffer, self._index = self._buffer[self._index:], 0
        if not self._handed:
            return
        offsets = [_ck.TopicPartition(t, p, o) for (t, p), o in self._handed.items()]
        self._handed = {}
        try:
            self._consumer.store_offsets(offsets=offsets)
        except _ck.KafkaException as exc:
            log.debug("store_offsets: %s", exc)

    def poll(self, timeout_ms: float = 0, max_records: Optional[int] = None,
             update_offsets: bool = True) -> Dict[TopicPartition, List[ConsumerRecord]]:
        """Fetch records from the assigned partitions.

        :param timeout_ms: how long to wait when nothing is buffered (0: return at once).
        :param max_records: the most records to return (default ``max_poll_records``).
        :param update_offsets: advance the position (kept for compatibility; always True here).
        :returns: ``{TopicPartition: [ConsumerRecord, ...]}``, empty when nothing arrived.
        :raises ValueError: for a negative timeout or ``max_records`` <= 0.
        :raises TypeError: for a non-int ``max_records``.
        :raises IllegalStateError: once closed.
        """
        self._check_open()
        if max_records is None:
            max_records = self._max_poll_records
        elif not isinstance(max_records, int) or isinstance(max_records, bool):
            raise TypeError("max_records must be an integer")
        elif max_records < 1:
            raise ValueError("max_records must be positive")
        if timeout_ms is None or timeout_ms < 0:
            raise ValueError("Timeout must not be negative")
        if self._index or (self._auto_commit and self._handed):
            self._settle()
        groups: Dict[Any, List[ConsumerRecord]] = {}
        if self._buffer:
            for r in self._buffer[:max_records]:
                groups.setdefault((r[0], r[1]), []).append(r)
            self._buffer = self._buffer[max_records:]
        else:
            self._fetch(max_records, timeout_ms / 1000.0, groups)
        out: Dict[TopicPartition, List[ConsumerRecord]] = {}
        handed = self._handed
        for key, records in groups.items():
            if records:
                out[_new_record(TopicPartition, key)] = records
                handed[key] = records[-1][3] + 1
                self._consumed += len(records)
        return out

    def __iter__(self) -> Iterator[ConsumerRecord]:
        return self

    def __next__(self) -> ConsumerRecord:
        if self._closed:
            raise StopIteration("KafkaConsumer closed")
        index = self._index
        if index < len(self._buffer):
            self._index = index + 1
            return self._buffer[index]
        return self._next_batch()

    def _next_batch(self) -> ConsumerRecord:
        self._settle()
        limit = self._consumer_timeout
        deadline = None if limit is None or limit == float("inf") else time.monotonic() + limit
        while True:
            wait = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
            records = self._fetch(self._max_poll_records, wait)
            if records:
                self._buffer, self._index = records, 1
                return records[0]
            if self._closed or (deadline is not None and time.monotonic() >= deadline):
                raise StopIteration()

    # ---- offsets ---------------------------------------------------------------------------

    def _commit_handed(self, quiet: bool = False) -> None:
        self._store_handed()
        try:
            self._consumer.commit(asynchronous=False)
        except _ck.KafkaException as exc:
            if quiet or exc.args[0].code() == _NO_OFFSET:
                return
            raise translate_error(exc) from exc

    def _offsets_arg(self, offsets: Any) -> List[Any]:
        if not isinstance(offsets, dict):
            raise TypeError("offsets must be a dict of {TopicPartition: OffsetAndMetadata}")
        out = []
        for tp, meta in offsets.items():
            t, p = _tp(tp)
            if isinstance(meta, int):
                offset, metadata, epoch = meta, "", -1
            elif isinstance(meta, tuple) and len(meta) >= 1:
                offset = meta[0]
                metadata = meta[1] if len(meta) > 1 else ""
                epoch = meta[2] if len(meta) > 2 else -1
            else:
                raise TypeError(f"offset for {tp} must be an OffsetAndMetadata, not {meta!r}")
            out.append(_ck.TopicPartition(t, p, offset, metadata=metadata or None,
                                          leader_epoch=epoch if epoch is not None and epoch >= 0 else None))
        return out

    def _need_group(self) -> None:
        self._check_open()
        if self._group_id is None:
            raise Errors.IllegalStateError("Requires group_id")

    def commit(self, offsets: Optional[Dict[TopicPartition, Any]] = None, timeout_ms: Optional[float] = None) -> None:
        """Commit offsets and wait for the result.

        :param offsets: ``{TopicPartition: OffsetAndMetadata}``; default: the positions of the
            records handed out so far.
        :param timeout_ms: kept for compatibility (librdkafka bounds the request itself).
        :raises IllegalStateError: without a group_id.
        :raises CommitFailedError: when the group rebalanced meanwhile.
        """
        self._need_group()
        if offsets is None:
            self._commit_handed()
            return
        try:
            self._consumer.commit(offsets=self._offsets_arg(offsets), asynchronous=False)
        except _ck.KafkaException as exc:
            raise self._commit_error(exc) from exc

    @staticmethod
    def _commit_error(exc: Any) -> Errors.KafkaError:
        err = translate_error(exc)
        if isinstance(err, (Errors.for_code(22), Errors.for_code(25), Errors.for_code(27))):
            return Errors.CommitFailedError(str(err))
        return err

    def commit_async(self, offsets: Optional[Dict[TopicPartition, Any]] = None,
                     callback: Optional[Callable[[Any, Any], Any]] = None) -> Future:
        """Commit offsets without waiting; ``callback(offsets, response_or_exception)`` runs when
        the result arrives (inside a later poll/iteration or close).

        :param offsets: as for :meth:`commit`.
        :param callback: defaults to ``default_offset_commit_callback``.
        :returns: a :class:`~confluent_kafka.compat.kafka.future.Future` settled with the offsets.
        :raises IllegalStateError: without a group_id.
        """
        self._need_group()
        callback = callback or self.config["default_offset_commit_callback"]
        future = Future()
        if offsets is None:
            self._store_handed()
            try:
                committed = self._consumer.commit(asynchronous=False)
            except _ck.KafkaException as exc:
                if exc.args[0].code() == _NO_OFFSET:
                    committed = []
                else:
                    err = self._commit_error(exc)
                    callback({}, err)
                    return future.failure(err)
            done = {TopicPartition(p.topic, p.partition): OffsetAndMetadata(p.offset, p.metadata or "", -1)
                    for p in committed or ()}
        else:
            done = dict(offsets)
            try:
                self._consumer.commit(offsets=self._offsets_arg(offsets), asynchronous=False)
            except _ck.KafkaException as exc:
                err = self._commit_error(exc)
                callback(done, err)
                return future.failure(err)
        callback(done, None)
        return future.success(done)

    def committed(self, partition: TopicPartition, metadata: bool = False,
                  timeout_ms: Optional[float] = None) -> Any:
        """The group's committed offset of ``partition``.

        :param partition: the TopicPartition.
        :param metadata: return an OffsetAndMetadata instead of the offset.
        :param timeout_ms: how long to wait for the broker (default ``request_timeout_ms``).
        :returns: the offset (or OffsetAndMetadata), or None if nothing was committed.
        :raises IllegalStateError: without a group_id.
        :raises TypeError: if partition is not a TopicPartition.
        """
        self._need_group()
        t, p = _tp(partition)
        timeout = (timeout_ms if timeout_ms is not None else self.config["request_timeout_ms"]) / 1000.0
        res = call(self._consumer.committed, [_ck.TopicPartition(t, p)], timeout)[0]
        if res.offset < 0:
            return None
        if metadata:
            return OffsetAndMetadata(res.offset, res.metadata or "",
                                     res.leader_epoch if res.leader_epoch is not None else -1)
        return res.offset

    def position(self, partition: TopicPartition, timeout_ms: Optional[float] = None) -> Optional[int]:
        """The offset of the next record this consumer will return from ``partition``.

        :param partition: an assigned TopicPartition.
        :param timeout_ms: how long to wait to learn the starting offset.
        :returns: the offset.
        :raises TypeError: if partition is not a TopicPartition.
        :raises IllegalStateError: if the partition is not assigned.
        """
        self._check_open()
        tp = _tp(partition)
        self._check_assigned(tp)
        for r in self._buffer[self._index:]:
            if r.topic == tp.topic and r.partition == tp.partition:
                return int(r.offset)
        pos = call(self._consumer.position, [_ck.TopicPartition(tp.topic, tp.partition)])[0].offset
        if pos >= 0:
            return int(pos)
        timeout = (timeout_ms if timeout_ms is not None else self.config["request_timeout_ms"]) / 1000.0
        if pos == _OFFSET_BEGINNING:
            return int(call(self._consumer.get_watermark_offsets, _ck.TopicPartition(*tp), timeout)[0])
        if pos == _OFFSET_END:
            return int(call(self._consumer.get_watermark_offsets, _ck.TopicPartition(*tp), timeout)[1])
        if self._group_id is not None:
            got = call(self._consumer.committed, [_ck.TopicPartition(*tp)], timeout)[0].offset
            if got >= 0:
                return int(got)
        reset = self.config["auto_offset_reset"]
        if reset in ("none",):
            raise Errors.NoOffsetForPartitionError(tp)
        low, high = call(self._consumer.get_watermark_offsets, _ck.TopicPartition(*tp), timeout)
        return int(low if reset in ("earliest", "smallest") else high)

    def highwater(self, partition: TopicPartition) -> Optional[int]:
        """The last known end offset of ``partition`` (from fetch responses), or None.

        :raises IllegalStateError: if the partition is not assigned.
        """
        tp = _tp(partition)
        self._check_assigned(tp)
        try:
            high = self._consumer.get_watermark_offsets(_ck.TopicPartition(*tp), cached=True)[1]
        except _ck.KafkaException:
            return None
        return int(high) if high >= 0 else None

    def _targets(self, partitions: Any) -> List[TopicPartition]:
        tps = [_tp(p) for p in partitions] or sorted(self.assignment())
        if not tps:
            raise ValueError("No partitions are currently assigned")
        assigned = self.assignment()
        for tp in tps:
            if tp not in assigned:
                raise ValueError(f"partition {tp} is not assigned")
        return tps

    def _seek(self, tp: TopicPartition, offset: int) -> None:
        self._handed.pop(tp, None)
        self._drop({tp})
        target = _ck.TopicPartition(tp.topic, tp.partition, offset)
        try:
            self._consumer.seek(target)
            return
        except _ck.KafkaException as exc:
            if self._manual is None:
                raise translate_error(exc) from exc
        # Not fetching yet (just assigned): re-assign with the start offset instead.
        current = [_ck.TopicPartition(t, p, offset if (t, p) == tp else self._start_offset(t, p))
                   for t, p in sorted(self._manual)]
        call(self._consumer.assign, current)

    def _start_offset(self, topic: str, partition: int) -> int:
        try:
            pos = self._consumer.position([_ck.TopicPartition(topic, partition)])[0].offset
        except _ck.KafkaException:
            return _ck.OFFSET_INVALID
        return int(pos)

    def seek(self, partition: TopicPartition, offset: int) -> None:
        """Make the next fetch of ``partition`` start at ``offset``.

        :raises ValueError: for a negative or non-int offset.
        :raises IllegalStateError: if the partition is not assigned.
        """
        self._check_open()
        tp = _tp(partition)
        if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
            raise ValueError("offset must be an int >= 0")
        if tp not in self.assignment():
            raise ValueError(f"partition {tp} is not assigned")
        self._seek(tp, offset)

    def seek_to_beginning(self, *partitions: TopicPartition) -> None:
        """Seek the given (default: all assigned) partitions to their oldest offset."""
        self._check_open()
        for tp in self._targets(partitions):
            self._seek(tp, _OFFSET_BEGINNING)

    def seek_to_end(self, *partitions: TopicPartition) -> None:
        """Seek the given (default: all assigned) partitions to their end."""
        self._check_open()
        for tp in self._targets(partitions):
            self._seek(tp, _OFFSET_END)

    def pause(self, *partitions: TopicPartition) -> None:
        """Stop returning records of these partitions until :meth:`resume`."""
        self._check_open()
        tps = [_tp(p) for p in partitions]
        if not tps:
            return
        call(self._consumer.pause, [_ck.TopicPartition(t, p) for t, p in tps])
        self._paused.update(tps)

    def resume(self, *partitions: TopicPartition) -> None:
        """Return records of these paused partitions again."""
        self._check_open()
        tps = [_tp(p) for p in partitions]
        if not tps:
            return
        call(self._consumer.resume, [_ck.TopicPartition(t, p) for t, p in tps])
        self._paused.difference_update(tps)

    def paused(self) -> Set[TopicPartition]:
        """:returns: the partitions paused with :meth:`pause`."""
        return set(self._paused)

    def _list_offsets(self, specs: Dict[TopicPartition, Any], timeout_ms: Optional[float]) -> Dict[Any, Any]:
        from confluent_kafka.admin import AdminClient

        timeout = (timeout_ms if timeout_ms is not None else self.config["request_timeout_ms"]) / 1000.0
        if self._admin is None:
            self._admin = AdminClient({"bootstrap.servers": _config._servers(self.config["bootstrap_servers"])})
        req = {_ck.TopicPartition(t, p): s for (t, p), s in specs.items()}
        if not req:
            return {}
        futures = call(self._admin.list_offsets, req, request_timeout=timeout)
        out = {}
        for ctp, fut in futures.items():
            try:
                out[TopicPartition(ctp.topic, ctp.partition)] = fut.result(timeout=timeout + 1)
            except _ck.KafkaException as exc:
                raise translate_error(exc) from exc
            except TimeoutError as exc:
                raise Errors.KafkaTimeoutError(f"no offsets after {timeout}s") from exc
        return out

    def beginning_offsets(self, partitions: Any, timeout_ms: Optional[float] = None) -> Dict[TopicPartition, int]:
        """:returns: ``{TopicPartition: the oldest offset}``.

        :raises KafkaTimeoutError: when the broker does not answer in time.
        """
        from confluent_kafka.admin import OffsetSpec
        res = self._list_offsets({_tp(p): OffsetSpec.earliest() for p in partitions}, timeout_ms)
        return {tp: r.offset for tp, r in res.items()}

    def end_offsets(self, partitions: Any, timeout_ms: Optional[float] = None) -> Dict[TopicPartition, int]:
        """:returns: ``{TopicPartition: the offset after the newest record}``.

        :raises KafkaTimeoutError: when the broker does not answer in time.
        """
        from confluent_kafka.admin import OffsetSpec
        spec = OffsetSpec.latest()
        res = self._list_offsets({_tp(p): spec for p in partitions}, timeout_ms)
        return {tp: r.offset for tp, r in res.items()}

    def offsets_for_times(self, timestamps: Dict[TopicPartition, int],
                          timeout_ms: Optional[float] = None) -> Dict[TopicPartition, Optional[OffsetAndTimestamp]]:
        """The earliest offset per partition whose record timestamp is >= the given one.

        :param timestamps: ``{TopicPartition: milliseconds since the epoch}``.
        :returns: ``{TopicPartition: OffsetAndTimestamp or None}`` (None: no such record).
        :raises ValueError: for a negative timestamp.
        """
        from confluent_kafka.admin import OffsetSpec
        specs = {}
        for tp, ts in timestamps.items():
            ts = int(ts)
            if ts < 0:
                raise ValueError(f"The target time for partition {tp} is {ts}. The target time cannot be negative.")
            specs[_tp(tp)] = OffsetSpec.for_timestamp(ts)
        res = self._list_offsets(specs, timeout_ms)
        return {tp: (None if r.offset < 0 else OffsetAndTimestamp(
            r.offset, r.timestamp, r.leader_epoch if r.leader_epoch is not None else -1))
            for tp, r in res.items()}

    # ---- metadata --------------------------------------------------------------------------

    def topics(self) -> Set[str]:
        """:returns: every topic name the cluster shows (internal topics left out)."""
        self._check_open()
        md = call(self._consumer.list_topics, timeout=self.config["request_timeout_ms"] / 1000.0)
        return {t for t in md.topics if not t.startswith("__")}

    def partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """:returns: the partition ids of ``topic``, or None if it does not exist."""
        self._check_open()
        if not isinstance(topic, str):
            raise TypeError("topic must be a str")
        md = call(self._consumer.list_topics, topic, timeout=self.config["request_timeout_ms"] / 1000.0)
        tm = md.topics.get(topic)
        if tm is None or tm.error is not None or not tm.partitions:
            return None
        return set(tm.partitions)

    def bootstrap_connected(self) -> bool:
        """:returns: True if a broker answers a metadata request within 5 seconds."""
        try:
            self._consumer.list_topics(timeout=5.0)
            return True
        except _ck.KafkaException:
            return False

    def group_metadata(self) -> ConsumerGroupMetadata:
        """:returns: this consumer's group membership (group_id None without a group)."""
        if self._group_id is None:
            return ConsumerGroupMetadata(None)
        membership = self._consumer._group_membership()
        generation, member = (-1, "") if membership is None else membership[1:3]
        state = MemberState.STABLE if member and self._assigned else MemberState.UNJOINED
        meta = _GroupMetadata(self._group_id, generation, member, self.config["group_instance_id"], state)
        meta.native = self._consumer.consumer_group_metadata()
        return meta

    def metrics(self, raw: bool = False) -> Optional[Dict[str, Any]]:
        """Client metrics.

        :param raw: return librdkafka's statistics dict itself.
        :returns: ``{group: {name: value}}`` built from librdkafka's statistics (None when
            ``metrics_enabled`` is False).
        """
        if not self.config["metrics_enabled"]:
            return None
        return self._stats.metrics(raw, {"records-consumed-total": float(self._consumed + self._index)})

    # ---- lifetime --------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise Errors.IllegalStateError("KafkaConsumer is closed")

    def close(self, autocommit: bool = True, timeout_ms: Optional[float] = None) -> None:
        """Commit (when auto-commit is on and ``autocommit``), leave the group and release the client.

        :param autocommit: commit the positions of the records handed out first.
        :param timeout_ms: kept for compatibility.
        """
        if self._closed:
            return
        if autocommit and self._auto_commit:
            self._commit_handed(quiet=True)
        self._closed = True
        try:
            self._consumer.close()
        finally:
            for des in (self.config["key_deserializer"], self.config["value_deserializer"]):
                if isinstance(des, Deserializer):
                    des.close()

    def __enter__(self) -> "KafkaConsumer":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.close(autocommit=exc_type is None)

    def __del__(self) -> None:
        try:
            if not self._closed:
                self._closed = True
                self._consumer.close()
        except Exception:
            pass
