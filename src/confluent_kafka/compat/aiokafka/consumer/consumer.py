"""``aiokafka.consumer.consumer`` of the aiokafka facade: ``AIOKafkaConsumer`` over :class:`confluent_kafka.aio.AIOConsumer`.

librdkafka fetches in its own threads and wakes the event loop through a descriptor; getone(),
getmany() and ``async for`` take what is there without blocking the loop (no thread pool).
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import re
import time
import uuid
from collections import deque
from typing import Any, Deque, Dict, FrozenSet, List, Optional, Set, Tuple

from confluent_kafka.aio import AIOConsumer
from confluent_kafka.cimpl import OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID
from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.cimpl import KafkaException
from confluent_kafka.cimpl import TopicPartition as _TP
from confluent_kafka.cimpl import _record, _records

from .. import _options
from .._client_view import ClientView
from ..abc import ConsumerRebalanceListener
from ..coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from ..errors import (CommitFailedError, ConsumerStoppedError, IllegalOperation, IllegalStateError,
                     KafkaConfigurationError, KafkaConnectionError, OffsetOutOfRangeError, from_librdkafka)
from ..producer.producer import _GROUP_CONSUMERS, _offsets_list, _sasl_prune, _security_conf
from ..structs import ConsumerRecord, OffsetAndTimestamp, TopicPartition
from .group_coordinator import BaseCoordinator, GroupCoordinator, NoGroupCoordinator
from .subscription_state import SubscriptionState

__all__ = ["AIOKafkaConsumer"]

log = logging.getLogger(__name__)

_DEFAULT_BATCH = 10000  # most records one getmany() takes without max_records / max_poll_records
_NOTHING: Set[Tuple[str, int]] = set()  # no partition filter (never mutated)
_GETONE_BATCH = 256  # messages getone() takes from librdkafka at once (the rest wait in the buffer)
_RAISED = frozenset({29, 30, 31})  # authorization failures: raised by getone()/getmany(), as aiokafka does
# ConsumerRecord's fields as cimpl._records() layout codes (topic, partition, offset, timestamp,
# 1 for log-append time, key, value, None, key size, value size, headers tuple), and their names.
_LAYOUT = "tposYkvnKVH"
_NAMES = ("topic", "partition", "offset", "timestamp", "timestamp_type", "key", "value", "checksum",
          "serialized_key_size", "serialized_value_size", "headers")
_COMMIT_FAILED = frozenset({22, 25, 27})  # ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS


def _tp_check(partitions: Any) -> None:
    for tp in partitions:
        if not isinstance(tp, TopicPartition):
            raise TypeError(f"expected a TopicPartition, got {tp!r}")


class AIOKafkaConsumer:
    """aiokafka's ``AIOKafkaConsumer`` on librdkafka (see docs/aiokafka.md for the option mapping).

    Topics given to the constructor are subscribed by ``await start()``. Without a group_id the
    consumer takes every partition of the subscribed topics itself (no commits), as aiokafka does.
    """

    def __init__(self, *topics: str, loop: Any = None, bootstrap_servers: Any = "localhost",
                 client_id: str = "aiokafka-0.14.0", group_id: Optional[str] = None,
                 group_instance_id: Optional[str] = None, key_deserializer: Any = None, value_deserializer: Any = None,
                 fetch_max_wait_ms: int = 500, fetch_max_bytes: int = 52428800, fetch_min_bytes: int = 1,
                 max_partition_fetch_bytes: int = 1048576, request_timeout_ms: int = 40000,
                 retry_backoff_ms: int = 100, auto_offset_reset: str = "latest", enable_auto_commit: bool = True,
                 auto_commit_interval_ms: int = 5000, check_crcs: bool = True, metadata_max_age_ms: int = 300000,
                 partition_assignment_strategy: Any = (RoundRobinPartitionAssignor,),
                 max_poll_interval_ms: int = 300000, rebalance_timeout_ms: Optional[int] = None,
                 session_timeout_ms: int = 10000, heartbeat_interval_ms: int = 3000, consumer_timeout_ms: int = 200,
                 max_poll_records: Optional[int] = None, ssl_context: Any = None, security_protocol: str = "PLAINTEXT",
                 api_version: Any = None, exclude_internal_topics: bool = True, connections_max_idle_ms: int = 540000,
                 isolation_level: str = "read_uncommitted", sasl_mechanism: str = "PLAIN",
                 sasl_plain_password: Optional[str] = None, sasl_plain_username: Optional[str] = None,
                 sasl_kerberos_service_name: str = "kafka", sasl_kerberos_domain_name: Optional[str] = None,
                 sasl_oauth_token_provider: Any = None, client_rack: Optional[str] = None) -> None:
        values = _options.arguments(locals(), "topics")
        if max_poll_records is not None and (isinstance(max_poll_records, bool) or not isinstance(max_poll_records, int)
                                             or max_poll_records < 1):
            raise ValueError("`max_poll_records` should be positive Integer")
        for name in ("key_deserializer", "value_deserializer"):
            if values[name] is not None and not callable(values[name]):
                raise TypeError(f"{name} must be callable")
        for t in topics:
            if not isinstance(t, str):
                raise TypeError(f"topics must be str, got {t!r}")
        conf = _options.to_librdkafka(_options.CONSUMER, values, _CONSUMER_DEFAULTS, "AIOKafkaConsumer")
        conf.update(_security_conf(values, "AIOKafkaConsumer"))
        _sasl_prune(conf)
        self._group_id = group_id
        # Offsets are stored for the records getone()/getmany() return, not for those librdkafka
        # hands over (some wait in the buffer): commit() and auto-commit see what was consumed.
        # Without a group nothing is ever committed (commit() refuses, auto-commit is off), so
        # nothing reads them: they are not stored then (a lock librdkafka's threads share, per record).
        conf["enable.auto.offset.store"] = False
        self._store_offsets = group_id is not None
        if group_id is None:
            # librdkafka's consumer needs a group id; this one never joins nor commits.
            conf["group.id"] = f"aiokafka-facade-{uuid.uuid4().hex}"
            conf["enable.auto.commit"] = False
        self._key_deserializer = key_deserializer
        self._value_deserializer = value_deserializer
        self._max_poll_records = max_poll_records
        self._exclude_internal = exclude_internal_topics
        # The facade's own waits take the clamped timeout: librdkafka would wait without end for a
        # negative one.
        self._request_timeout = conf.get("socket.timeout.ms", request_timeout_ms) / 1000
        self._reset = auto_offset_reset
        self._bootstrap = conf["bootstrap.servers"]
        self._topics = topics
        try:
            self._aio = AIOConsumer(conf)
        except KafkaException as e:
            raise KafkaConfigurationError(e.args[0].str()) from None
        self._c = self._aio._c
        self._listener: Optional[ConsumerRebalanceListener] = None
        self._subscribed: Optional[FrozenSet[str]] = None
        self._pattern: Optional[str] = None
        self._standalone: Optional[List[str]] = None  # topics to take whole (no group), once known
        self._manual = False
        self._pending: Optional[Dict[TopicPartition, int]] = None  # offsets of an assignment being made
        self._revoked_once = False
        # Messages taken from librdkafka and not returned yet: the rest of a getone() batch, other
        # partitions than a getone(*partitions) asked for, paused partitions'.
        self._held: Deque[Any] = deque()
        self._paused: Set[Tuple[str, int]] = set()
        # When getone()/getmany() last returned records of a partition: time.time(), made ms on reading.
        self._last_poll: Dict[Tuple[str, int], float] = {}
        self._partitions: Dict[str, Set[int]] = {}  # topic -> partition ids, from the last metadata
        self._started = False
        self._closed = False
        # None until start(), as in aiokafka: read by programs for the member id and generation.
        self._coordinator: Optional[BaseCoordinator] = None
        self._subscription = SubscriptionState(self)
        # aiokafka's consumer._client, as far as instrumentation reads it.
        self._client = ClientView(bootstrap_servers, client_id, self._topic_metadata)

    async def _topic_metadata(self, topic: str) -> Set[int]:
        try:
            self._remember(await self._aio.list_topics(topic, self._request_timeout))
        except KafkaException as e:
            raise from_librdkafka(e) from None
        return set(self._partitions.get(topic, ()))

    def _remember(self, md: Any) -> None:
        for name, meta in md.topics.items():
            if meta.error is None and meta.partitions:
                self._partitions[name] = set(meta.partitions)

    # ---- lifetime --------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect (wait until a broker answers) and subscribe to the constructor's topics.

        :raises ~.errors.KafkaConnectionError: when no broker answers in request_timeout_ms.
        :raises ~.errors.ConsumerStoppedError: after stop().
        """
        self._check_open()
        if self._started:
            return
        try:
            self._remember(await self._aio.list_topics(None, self._request_timeout))
        except KafkaException as e:
            raise KafkaConnectionError(f"Unable to bootstrap from {self._bootstrap}: {e.args[0].str()}") from None
        if self._group_id is not None:
            _GROUP_CONSUMERS[self._group_id] = self
        self._coordinator = NoGroupCoordinator(self) if self._group_id is None else GroupCoordinator(self)
        self._started = True
        if self._topics:
            self.subscribe(topics=list(self._topics))

    async def stop(self) -> None:
        """Leave the group (committing when auto-commit is on) and release the client. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._group_id is not None and _GROUP_CONSUMERS.get(self._group_id) is self:
            del _GROUP_CONSUMERS[self._group_id]
        await self._aio.close()

    async def __aenter__(self) -> "AIOKafkaConsumer":
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.stop()

    def _check_open(self) -> None:
        if self._closed:
            raise ConsumerStoppedError()

    def _group_metadata(self) -> bytes:
        return self._c.consumer_group_metadata()

    # ---- subscription and assignment -------------------------------------------------------

    def subscribe(self, topics: Any = (), pattern: Optional[str] = None,
                  listener: Optional[ConsumerRebalanceListener] = None) -> None:
        """Subscribe to topics (or a regex pattern); the group assigns partitions in the background.

        :param topics: topic names.
        :param pattern: a regular expression of topic names, instead of ``topics``.
        :param listener: a :class:`~.abc.ConsumerRebalanceListener`.
        :raises TypeError: when neither or both of topics and pattern are given (as aiokafka does), or
            when listener is not a ConsumerRebalanceListener.
        :raises ~.errors.IllegalStateError: when partitions were assigned with assign().
        """
        self._check_open()
        if not (topics or pattern):
            raise TypeError("You should provide either `topics` or `pattern`")
        if topics and pattern:
            raise TypeError("You can't provide both `topics` and `pattern`")
        if isinstance(topics, str):
            raise TypeError("topics must be a list of topic names, not a str")
        if listener is not None and not isinstance(listener, ConsumerRebalanceListener):
            raise TypeError("listener should be an instance of ConsumerRebalanceListener")
        if self._manual:
            raise IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        if pattern is not None:
            re.compile(pattern)
            names = ["^" + pattern if not pattern.startswith("^") else pattern]
        else:
            names = list(topics)
            for t in names:
                if not isinstance(t, str):
                    raise TypeError(f"topics must be str, got {t!r}")
        self._listener = listener
        self._pattern = pattern
        self._subscribed = frozenset(topics) if pattern is None else frozenset()
        if self._group_id is None:
            self._standalone = names
            return
        aio = self._aio
        if listener is None:
            self._c.subscribe(names, on_revoke=aio._wrap(self._drop_revoked, False),
                              on_lost=aio._wrap(self._drop_revoked, False))
        else:
            self._c.subscribe(names, on_assign=aio._wrap(self._on_assign, True),
                              on_revoke=aio._wrap(self._on_revoke, False), on_lost=aio._wrap(self._on_revoke, False))

    async def _call_listener(self, method: str, tps: Set[TopicPartition]) -> None:
        # As aiokafka: a listener that raises is logged, and the rebalance goes on.
        try:
            result = getattr(self._listener, method)(tps)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("User provided subscription listener %r for group %s failed on %s",
                          self._listener, self._group_id, method)

    async def _on_assign(self, _aio: Any, partitions: List[_TP]) -> None:
        tps = {TopicPartition(p.topic, p.partition) for p in partitions}
        self._pending = {tp: OFFSET_INVALID for tp in tps}
        try:
            if not self._revoked_once:
                self._revoked_once = True
                await self._call_listener("on_partitions_revoked", set())
            await self._call_listener("on_partitions_assigned", set(tps))
        finally:
            pending, self._pending = self._pending, None
            await self._aio.assign([_TP(tp.topic, tp.partition, off) for tp, off in pending.items()])

    def _drop_revoked(self, _aio: Any, partitions: List[_TP]) -> None:
        """Buffered messages of partitions taken away are never returned (the new owner reads them)."""
        if self._held:
            gone = {(p.topic, p.partition) for p in partitions}
            self._held = deque(m for m in self._held if (m.topic(), m.partition()) not in gone)

    async def _on_revoke(self, _aio: Any, partitions: List[_TP]) -> None:
        self._drop_revoked(_aio, partitions)
        self._revoked_once = True
        await self._call_listener("on_partitions_revoked", {TopicPartition(p.topic, p.partition) for p in partitions})

    async def _standalone_assign(self) -> None:
        """No group: take every partition of the subscribed topics (pattern: of the matching ones)."""
        names, self._standalone = self._standalone, None
        md = await self._aio.list_topics(None, self._request_timeout)
        if self._pattern is not None:
            rx = re.compile(self._pattern)
            chosen = [t for t in md.topics if rx.match(t) and not t.startswith("__")]
        else:
            chosen = list(names or ())
        self._remember(md)
        for t in chosen:
            if t not in self._partitions:  # not there yet: this request creates it where the broker does
                self._remember(await self._aio.list_topics(t, self._request_timeout))
        parts = [_TP(t, p, OFFSET_INVALID) for t in chosen for p in sorted(self._partitions.get(t, ()))]
        self._c.assign(parts)

    def assign(self, partitions: Any) -> None:
        """Take these partitions (no group rebalancing).

        :param partitions: a list of :class:`~.structs.TopicPartition`.
        :raises ~.errors.IllegalStateError: when subscribed to topics.
        :raises TypeError: for an item that is not a TopicPartition.
        """
        self._check_open()
        partitions = list(partitions)
        _tp_check(partitions)
        if self._subscribed is not None:
            raise IllegalStateError("Subscription to topics, partitions and pattern are mutually exclusive")
        self._c.assign([_TP(tp.topic, tp.partition) for tp in partitions])
        self._manual = True
        self._held.clear()

    def assignment(self) -> FrozenSet[TopicPartition]:
        """:returns: the assigned partitions, a frozenset as in aiokafka (inside
            on_partitions_assigned: the new ones)."""
        self._check_open()
        if self._pending is not None:
            return frozenset(self._pending)
        return frozenset(TopicPartition(p.topic, p.partition) for p in self._c.assignment())

    def subscription(self) -> FrozenSet[str]:
        """:returns: the subscribed topic names, a frozenset as in aiokafka (empty when not
            subscribed; for a pattern or partitions given to assign(), the topics of the assignment)."""
        self._check_open()
        if self._pattern is not None or self._manual:
            return frozenset(tp.topic for tp in self.assignment())
        return frozenset(self._subscribed or ())

    def unsubscribe(self) -> None:
        """Leave the subscription (and a manual assignment)."""
        self._check_open()
        if self._manual:
            self._c.unassign()
        else:
            self._c.unsubscribe()
        self._subscribed = None
        self._pattern = None
        self._standalone = None
        self._manual = False
        self._held.clear()
        self._paused.clear()

    # ---- positions -------------------------------------------------------------------------

    def _assigned_check(self, tp: Any) -> None:
        if not isinstance(tp, TopicPartition):
            raise TypeError(f"partition must be a TopicPartition, got {tp!r}")
        if self._pending is not None:
            if tp not in self._pending:
                raise IllegalStateError(f"No current assignment for partition {tp}")
            return
        if tp not in self.assignment():
            raise IllegalStateError(f"No current assignment for partition {tp}")

    def _seek_raw(self, tp: TopicPartition, offset: int) -> None:
        if self._pending is not None:
            self._pending[tp] = offset
            return
        self._held = deque(m for m in self._held if (m.topic(), m.partition()) != tp)
        target = _TP(tp.topic, tp.partition, offset)
        try:
            self._c.seek(target)
            return
        except KafkaException as e:
            if e.args[0].code() != _RdKafkaError._STATE:
                raise from_librdkafka(e) from None
        # Assigned, but not fetching yet (librdkafka seeks only a started partition): assign it
        # again at the offset.
        try:
            self._c.incremental_unassign([_TP(tp.topic, tp.partition)])
            self._c.incremental_assign([target])
        except KafkaException:  # an eager group's assignment: replace it whole, positions kept
            current = self._c.position(self._c.assignment())
            self._c.assign([target if (p.topic, p.partition) == tp else p for p in current])

    def seek(self, partition: TopicPartition, offset: int) -> None:
        """Fetch ``partition`` from ``offset`` on (the next getone()/getmany() returns it).

        :param partition: an assigned :class:`~.structs.TopicPartition`.
        :param offset: the offset.
        :raises ValueError: for an offset that is not a non-negative int.
        :raises ~.errors.IllegalStateError: for a partition not assigned.
        """
        self._check_open()
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise ValueError("Offset must be a positive integer")
        self._assigned_check(partition)
        self._seek_raw(partition, offset)

    def _all_or(self, partitions: Any) -> List[TopicPartition]:
        if not partitions:
            return sorted(self.assignment())
        for tp in partitions:
            self._assigned_check(tp)
        return list(partitions)

    async def seek_to_beginning(self, *partitions: TopicPartition) -> bool:
        """Fetch these partitions (default: all assigned) from their first offset.

        :param partitions: assigned partitions.
        :returns: True.
        :raises ~.errors.IllegalStateError: for a partition not assigned.
        """
        self._check_open()
        for tp in self._all_or(partitions):
            self._seek_raw(tp, OFFSET_BEGINNING)
        return True

    async def seek_to_end(self, *partitions: TopicPartition) -> bool:
        """Fetch these partitions (default: all assigned) from their end: only newer records.

        :param partitions: assigned partitions.
        :returns: True.
        :raises ~.errors.IllegalStateError: for a partition not assigned.
        """
        self._check_open()
        for tp in self._all_or(partitions):
            self._seek_raw(tp, OFFSET_END)
        return True

    async def seek_to_committed(self, *partitions: TopicPartition) -> Dict[TopicPartition, Optional[int]]:
        """Fetch these partitions (default: all assigned) from the group's committed offsets.

        :param partitions: assigned partitions.
        :returns: ``{partition: committed offset or None}``; a partition without one keeps its position.
        :raises ~.errors.IllegalOperation: without a group_id.
        """
        self._check_open()
        self._need_group()
        tps = self._all_or(partitions)
        result: Dict[TopicPartition, Optional[int]] = {}
        for tp in tps:
            off = await self.committed(tp)
            result[tp] = off
            if off is not None:
                self._seek_raw(tp, off)
        return result

    async def position(self, partition: TopicPartition) -> int:
        """The offset of the next record to fetch from ``partition``.

        :param partition: an assigned partition.
        :returns: the offset.
        :raises ~.errors.IllegalStateError: for a partition not assigned.
        """
        self._check_open()
        self._assigned_check(partition)
        if self._pending is not None and self._pending[partition] >= 0:
            return self._pending[partition]
        for m in self._held:  # the next record to return is buffered
            if m.topic() == partition.topic and m.partition() == partition.partition:
                buffered: int = m.offset()
                return buffered
        pos = self._c.position([_TP(partition.topic, partition.partition)])[0].offset
        if pos >= 0:
            return pos
        if self._group_id is not None:
            committed = await self.committed(partition)
            if committed is not None:
                return committed
        low, high = await self._aio.get_watermark_offsets(_TP(partition.topic, partition.partition),
                                                          self._request_timeout)
        found: int = low if self._reset == "earliest" else high
        return found

    async def committed(self, partition: TopicPartition) -> Optional[int]:
        """The group's committed offset of ``partition`` (asks the broker).

        :param partition: a :class:`~.structs.TopicPartition`.
        :returns: the offset, or None when nothing was committed.
        :raises ~.errors.IllegalOperation: without a group_id.
        """
        self._check_open()
        self._need_group()
        if not isinstance(partition, TopicPartition):
            raise TypeError(f"partition must be a TopicPartition, got {partition!r}")
        try:
            found = await self._aio.committed([_TP(partition.topic, partition.partition)], self._request_timeout)
        except KafkaException as e:
            raise from_librdkafka(e) from None
        off: int = found[0].offset
        return off if off >= 0 else None

    def highwater(self, partition: TopicPartition) -> Optional[int]:
        """The partition's high watermark as last fetched (None before a fetch).

        :param partition: an assigned partition.
        :returns: the offset or None.
        """
        self._check_open()
        self._assigned_check(partition)
        marks = self._c.get_watermark_offsets(_TP(partition.topic, partition.partition), cached=True)
        return None if marks is None or marks[1] < 0 else marks[1]

    def last_stable_offset(self, partition: TopicPartition) -> Optional[int]:
        """The partition's last stable offset as last fetched (read_committed: the end of committed
        transactions; else the high watermark).

        :param partition: an assigned partition.
        :returns: the offset or None.
        """
        return self.highwater(partition)

    def last_poll_timestamp(self, partition: TopicPartition) -> Optional[int]:
        """When getone()/getmany() last returned records of ``partition`` (ms since the epoch).

        :param partition: an assigned partition.
        :returns: the time, or None.
        """
        self._check_open()
        self._assigned_check(partition)
        polled = self._last_poll.get(partition)
        return None if polled is None else int(polled * 1000)

    async def _watermarks(self, partitions: Any, index: int) -> Dict[TopicPartition, int]:
        self._check_open()
        _tp_check(partitions)
        out: Dict[TopicPartition, int] = {}
        for tp in partitions:
            try:
                marks = await self._aio.get_watermark_offsets(_TP(tp.topic, tp.partition), self._request_timeout)
            except KafkaException as e:
                raise from_librdkafka(e) from None
            out[tp] = marks[index]
        return out

    async def beginning_offsets(self, partitions: Any) -> Dict[TopicPartition, int]:
        """The first offset of each partition (asks the broker).

        :param partitions: a list of :class:`~.structs.TopicPartition`.
        :returns: ``{partition: offset}``.
        """
        return await self._watermarks(list(partitions), 0)

    async def end_offsets(self, partitions: Any) -> Dict[TopicPartition, int]:
        """The offset after the last record of each partition (asks the broker).

        :param partitions: a list of :class:`~.structs.TopicPartition`.
        :returns: ``{partition: offset}``.
        """
        return await self._watermarks(list(partitions), 1)

    async def offsets_for_times(self, timestamps: Dict[TopicPartition, int]) -> Dict[TopicPartition, Optional[OffsetAndTimestamp]]:
        """The first offset of each partition whose record timestamp is >= the given one.

        :param timestamps: ``{partition: timestamp in ms}``.
        :returns: ``{partition: OffsetAndTimestamp or None}``; the timestamp is the one asked for
            (librdkafka does not return the record's own).
        :raises ValueError: for a negative timestamp.
        """
        self._check_open()
        _tp_check(timestamps)
        query = []
        for tp, ts in timestamps.items():
            if isinstance(ts, bool) or not isinstance(ts, int) or ts < 0:
                raise ValueError(f"The target time for partition {tp} is {ts}. The target time cannot be negative.")
            query.append(_TP(tp.topic, tp.partition, ts))
        try:
            found = await self._aio.offsets_for_times(query, self._request_timeout)
        except KafkaException as e:
            raise from_librdkafka(e) from None
        return {TopicPartition(p.topic, p.partition): (OffsetAndTimestamp(p.offset, timestamps[TopicPartition(
            p.topic, p.partition)]) if p.offset >= 0 else None) for p in found}

    def partitions_for_topic(self, topic: str) -> Optional[Set[int]]:
        """The partition ids of a topic from the metadata last fetched (None when unknown).

        :param topic: the topic.
        :returns: a set of ids, or None.
        """
        self._check_open()
        known = self._partitions.get(topic)
        return None if known is None else set(known)

    async def topics(self) -> Set[str]:
        """The cluster's topic names (internal ones left out when exclude_internal_topics).

        :returns: a set of names.
        """
        self._check_open()
        md = await self._aio.list_topics(None, self._request_timeout)
        self._remember(md)
        return {t for t in md.topics if not (self._exclude_internal and t.startswith("__"))}

    def pause(self, *partitions: TopicPartition) -> None:
        """Stop fetching these partitions until resume().

        :param partitions: assigned partitions.
        """
        self._check_open()
        _tp_check(partitions)
        self._c.pause([_TP(tp.topic, tp.partition) for tp in partitions])
        self._paused.update((tp.topic, tp.partition) for tp in partitions)

    def resume(self, *partitions: TopicPartition) -> None:
        """Fetch these partitions again.

        :param partitions: paused partitions.
        """
        self._check_open()
        _tp_check(partitions)
        self._c.resume([_TP(tp.topic, tp.partition) for tp in partitions])
        self._paused.difference_update((tp.topic, tp.partition) for tp in partitions)

    def paused(self) -> Set[TopicPartition]:
        """:returns: the set of paused partitions."""
        self._check_open()
        return {TopicPartition(p.topic, p.partition) for p in self._c.paused()}

    # ---- commits ---------------------------------------------------------------------------

    def _need_group(self) -> None:
        if self._group_id is None:
            raise IllegalOperation("Requires group_id")

    async def commit(self, offsets: Optional[Dict[TopicPartition, Any]] = None) -> None:
        """Commit offsets: the given ones, or the positions after the records returned so far.

        :param offsets: ``{TopicPartition: offset or OffsetAndMetadata}``, the next offsets to read.
        :raises ~.errors.IllegalOperation: without a group_id.
        :raises ~.errors.IllegalStateError: when neither subscribed nor assigned.
        :raises ~.errors.CommitFailedError: when the group rebalanced meanwhile.
        :raises ValueError: for malformed offsets.
        """
        self._check_open()
        self._need_group()
        if self._subscribed is None and not self._manual:
            raise IllegalStateError("Not subscribed to any topics")
        positions = None if offsets is None else _offsets_list(offsets)
        if positions == []:
            return
        try:
            await self._aio.commit(offsets=positions)
        except KafkaException as e:
            err = e.args[0]
            if err.code() == _RdKafkaError._NO_OFFSET:
                return  # nothing consumed since the last commit
            if err.code() in _COMMIT_FAILED:
                raise CommitFailedError() from None
            raise from_librdkafka(e) from None

    # ---- fetching --------------------------------------------------------------------------

    def _record(self, msg: Any) -> ConsumerRecord[Any, Any]:
        if self._key_deserializer is None and self._value_deserializer is None:
            return _record(msg, ConsumerRecord, _LAYOUT, _NAMES)  # type: ignore[no-any-return]
        key = msg.key()
        value = msg.value()
        ts_type, ts = msg.timestamp()
        headers = msg.headers()
        kd = self._key_deserializer
        vd = self._value_deserializer
        return ConsumerRecord(msg.topic(), msg.partition(), msg.offset(), ts, 1 if ts_type == 2 else 0,
                              kd(key) if kd is not None else key, vd(value) if vd is not None else value, None,
                              -1 if key is None else len(key), -1 if value is None else len(value),
                              tuple(headers) if headers else ())

    def _fetch_error(self, err: _RdKafkaError, msg: Any) -> None:
        """Raise what aiokafka raises for a fetch error; other (transient) ones are logged."""
        code = err.code()
        if code == _RdKafkaError._PARTITION_EOF:
            return
        if code == _RdKafkaError._AUTO_OFFSET_RESET or code == 1:
            raise OffsetOutOfRangeError({TopicPartition(msg.topic(), msg.partition()): msg.offset()})
        if err.fatal() or code in _RAISED:
            raise from_librdkafka(err)
        log.debug("consumer event: %s", err.str())

    async def _ready(self) -> AIOConsumer:
        if self._closed:
            raise ConsumerStoppedError()
        if self._standalone is not None:
            await self._standalone_assign()
        return self._aio

    async def getone(self, *partitions: TopicPartition) -> ConsumerRecord[Any, Any]:
        """The next record (of one of ``partitions``, if given), waiting as long as it takes.

        :param partitions: only from these partitions.
        :returns: a :class:`~.structs.ConsumerRecord`.
        :raises ~.errors.ConsumerStoppedError: when the consumer is (or gets) stopped.
        :raises ~.errors.OffsetOutOfRangeError: no valid position and auto_offset_reset="none".
        """
        if partitions:
            _tp_check(partitions)
        if self._closed:
            raise ConsumerStoppedError()
        aio = self._aio if self._standalone is None else await self._ready()
        if not partitions and not self._paused and self._key_deserializer is None and self._value_deserializer is None:
            # The common call: the next buffered message, as a record built in C.
            while True:
                held = self._held
                if held:
                    msg = held.popleft()
                    if self._store_offsets:
                        try:
                            self._c.store_offsets(msg)  # its offset + 1, without a TopicPartition list
                        except KafkaException:
                            pass  # revoked meanwhile
                    rec: ConsumerRecord[Any, Any] = _record(msg, ConsumerRecord, _LAYOUT, _NAMES)
                    self._last_poll[(rec.topic, rec.partition)] = time.time()
                    return rec
                try:
                    fetched = await aio.consume(_GETONE_BATCH, None)
                except RuntimeError:
                    raise ConsumerStoppedError() from None
                self._absorb(fetched)
                if self._paused:
                    break  # paused meanwhile (by a rebalance listener): the general path filters
        wanted = {(tp.topic, tp.partition) for tp in partitions} if partitions else _NOTHING
        while True:
            msg = self._take_one(wanted)
            if msg is not None:
                if self._store_offsets:
                    try:
                        self._c.store_offsets(msg)  # its offset + 1, without a TopicPartition list
                    except KafkaException:
                        pass  # revoked meanwhile
                self._last_poll[(msg.topic(), msg.partition())] = time.time()  # (a TopicPartition finds it)
                return self._record(msg)
            try:
                fetched = await aio.consume(_GETONE_BATCH, None)
            except RuntimeError:
                raise ConsumerStoppedError() from None
            self._absorb(fetched)

    def _absorb(self, msgs: List[Any]) -> None:
        """Buffer what librdkafka handed over; then raise the first error aiokafka would raise."""
        failure: Optional[BaseException] = None
        held = self._held
        for m in msgs:
            err = m.error()
            if err is None:
                held.append(m)
            elif failure is None:
                try:
                    self._fetch_error(err, m)
                except Exception as e:
                    failure = e
        if failure is not None:
            raise failure

    def _take_one(self, wanted: Set[Tuple[str, int]]) -> Any:
        held = self._held
        if not held:
            return None
        if not wanted and not self._paused:
            return held.popleft()
        for i, m in enumerate(held):
            key = (m.topic(), m.partition())
            if key not in self._paused and (not wanted or key in wanted):
                del held[i]
                return m
        return None

    def _take_many(self, limit: int, wanted: Set[Tuple[str, int]]) -> List[Any]:
        held = self._held
        if not held:
            return []
        if not wanted and not self._paused:
            if len(held) <= limit:
                everything = list(held)
                held.clear()
                return everything
            return [held.popleft() for _ in range(limit)]
        out: List[Any] = []
        keep: Deque[Any] = deque()
        for m in held:
            key = (m.topic(), m.partition())
            if len(out) < limit and key not in self._paused and (not wanted or key in wanted):
                out.append(m)
            else:
                keep.append(m)
        self._held = keep
        return out

    def _store(self, msgs: List[Any]) -> None:
        """Store the offsets after the last of ``msgs`` per partition, for commit() and auto-commit."""
        if not self._store_offsets:
            return
        last: Dict[Tuple[str, int], int] = {}
        for m in msgs:
            last[(m.topic(), m.partition())] = m.offset()
        try:
            self._c.store_offsets(offsets=[_TP(t, p, off + 1) for (t, p), off in last.items()])
        except KafkaException:
            pass  # a partition revoked meanwhile: its offset is no longer ours to store

    def _store_grouped(self, grouped: Dict[TopicPartition, List[ConsumerRecord[Any, Any]]]) -> None:
        """_store() and the last-poll times for the records getmany() returns, by partition."""
        if self._store_offsets:
            try:
                self._c.store_offsets(offsets=[_TP(tp.topic, tp.partition, recs[-1].offset + 1)
                                               for tp, recs in grouped.items()])
            except KafkaException:
                pass  # a partition revoked meanwhile: its offset is no longer ours to store
        now = time.time()
        last_poll = self._last_poll
        for tp in grouped:
            last_poll[(tp.topic, tp.partition)] = now

    async def getmany(self, *partitions: TopicPartition, timeout_ms: int = 0,
                      max_records: Optional[int] = None) -> Dict[TopicPartition, List[ConsumerRecord[Any, Any]]]:
        """The records ready now (up to ``max_records``), waiting up to ``timeout_ms`` while none are.

        :param partitions: only from these partitions.
        :param timeout_ms: how long to wait for the first records.
        :param max_records: the most records (default: max_poll_records, else no bound but 10000).
        :returns: ``{TopicPartition: [ConsumerRecord, ...]}``.
        :raises ValueError: for a max_records that is not a positive int.
        :raises ~.errors.ConsumerStoppedError: when the consumer is (or gets) stopped.
        :raises ~.errors.OffsetOutOfRangeError: no valid position and auto_offset_reset="none".
        """
        _tp_check(partitions)
        if max_records is not None and (isinstance(max_records, bool) or not isinstance(max_records, int)
                                        or max_records < 1):
            raise ValueError("`max_records` must be a positive Integer")
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, (int, float)) or timeout_ms < 0:
            raise ValueError(f"timeout_ms must be a non-negative number, got {timeout_ms!r}")
        aio = await self._ready()
        limit = max_records or self._max_poll_records or _DEFAULT_BATCH
        wanted = {(tp.topic, tp.partition) for tp in partitions}
        msgs = self._take_many(limit, wanted)
        kd = self._key_deserializer
        vd = self._value_deserializer
        out: Dict[TopicPartition, List[ConsumerRecord[Any, Any]]]
        if not msgs:
            try:
                if not self._held and not self._paused and kd is None and vd is None:
                    # The common case: the records made in C straight from librdkafka's, grouped
                    # by partition (a dict); the Messages instead when one carries an error or
                    # is of a partition not asked for (those wait in the buffer).
                    fetched: Any = await aio._fetch(self._c._consume_records, (
                        limit, ConsumerRecord, _LAYOUT, _NAMES, TopicPartition, wanted or None), timeout_ms / 1000)
                else:
                    fetched = await aio.consume(limit, timeout_ms / 1000)
            except RuntimeError:
                raise ConsumerStoppedError() from None
            if fetched.__class__ is dict:
                if fetched:
                    self._store_grouped(fetched)
                ready: Dict[TopicPartition, List[ConsumerRecord[Any, Any]]] = fetched
                return ready
            if not self._held and not wanted and not self._paused:
                if kd is None and vd is None:
                    # Messages kept from a fetch that raised: all returned, built and grouped by
                    # partition in C (None: a message carries an error; the general path below).
                    grouped = _records(fetched, ConsumerRecord, _LAYOUT, _NAMES, TopicPartition)
                    if grouped is not None:
                        if grouped:
                            self._store_grouped(grouped)
                        return grouped
                elif all(m.error() is None for m in fetched):
                    msgs = fetched
            if not msgs:
                self._absorb(fetched)
                msgs = self._take_many(limit, wanted)
        out = {}
        if not msgs:
            return out
        self._store(msgs)
        last_tp: Any = None
        bucket: List[ConsumerRecord[Any, Any]] = []
        if kd is None and vd is None:
            # Every record built in C, then grouped by partition (runs of one).
            for r in _records(msgs, ConsumerRecord, _LAYOUT, _NAMES):
                if last_tp is None or last_tp[1] != r.partition or last_tp[0] != r.topic:
                    last_tp = TopicPartition(r.topic, r.partition)
                    bucket = out.setdefault(last_tp, [])
                bucket.append(r)
            msgs = []
        # With deserializers: one ConsumerRecord per message, built inline (what _record() does).
        record = ConsumerRecord
        for m in msgs:
            topic: Any = m.topic()
            part: Any = m.partition()
            if last_tp is None or last_tp[0] != topic or last_tp[1] != part:
                last_tp = TopicPartition(topic, part)
                bucket = out.setdefault(last_tp, [])
            key = m.key()
            value = m.value()
            ts_type, ts = m.timestamp()
            headers = m.headers()
            bucket.append(record(topic, part, m.offset(), ts, 1 if ts_type == 2 else 0,
                                 key if kd is None else kd(key), value if vd is None else vd(value), None,
                                 -1 if key is None else len(key), -1 if value is None else len(value),
                                 tuple(headers) if headers else ()))
        now = time.time()
        for tp in out:
            self._last_poll[(tp.topic, tp.partition)] = now
        return out

    def __aiter__(self) -> "AIOKafkaConsumer":
        if self._closed:
            raise ConsumerStoppedError()
        return self

    async def __anext__(self) -> ConsumerRecord[Any, Any]:
        """The next record; iteration ends when the consumer is stopped."""
        while True:
            try:
                return await self.getone()
            except ConsumerStoppedError:
                raise StopAsyncIteration from None
            except OffsetOutOfRangeError:
                raise


_CONSUMER_DEFAULTS = {name: p.default for name, p in inspect.signature(AIOKafkaConsumer.__init__).parameters.items()
                      if p.default is not inspect.Parameter.empty}
