"""``aiokafka.producer.producer`` of the aiokafka facade: ``AIOKafkaProducer`` over :class:`confluent_kafka.aio.AIOProducer`.

No thread pool: messages go straight to librdkafka, and delivery reports resolve the futures
``send()`` returned from the event loop (see docs/asyncio.md for how the loop is woken).
"""
from __future__ import annotations

import asyncio
import inspect
import itertools
import time
import weakref
from asyncio import BaseEventLoop as _BaseEventLoop
from asyncio import Future as _Future
from asyncio import get_running_loop as _running_loop
from asyncio import sleep as _sleep
from threading import get_ident as _thread_ident
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from confluent_kafka.aio import AIOProducer
from confluent_kafka.aio._done_callbacks import run_done_callbacks
from confluent_kafka.cimpl import Consumer as _Consumer
from confluent_kafka.cimpl import KafkaError as _RdKafkaError
from confluent_kafka.cimpl import KafkaException
from confluent_kafka.cimpl import TopicPartition as _TP

from .. import _options
from .._client_view import ClientView
from ..errors import (IllegalOperation, KafkaConfigurationError, KafkaConnectionError, KafkaError, KafkaTimeoutError,
                     MessageSizeTooLargeError, ProducerClosed, from_librdkafka)
from ..helpers import FacadeSSLContext
from ..._partitioning import sticky_partitioning_ms
from ..partitioner import DefaultPartitioner, runs_in_librdkafka
from ..structs import OffsetAndMetadata, RecordMetadata, TopicPartition

__all__ = ["AIOKafkaProducer"]

_missing = object()


_DEFAULT_PARTITIONER = DefaultPartitioner()

# Consumers of this process by group id: send_offsets_to_transaction() takes their group metadata
# (generation and member id included, so a zombie is fenced) rather than the group id alone.
_GROUP_CONSUMERS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()


_new_tuple = tuple.__new__
_TPS: Dict[Any, TopicPartition] = {}  # (topic, partition) -> TopicPartition, shared by the reports


def _settle(fut: "asyncio.Future[RecordMetadata]", err: Optional[_RdKafkaError], msg: Any) -> None:
    """Delivery report of one send(): resolve its future with a RecordMetadata (the hot path:
    no helper calls, cached TopicPartitions, tuples made without the named tuple's __new__)."""
    try:
        if err is None:
            topic = msg.topic()
            part = msg.partition()
            tp = _TPS.get((topic, part))
            if tp is None:
                if len(_TPS) > 100_000:
                    _TPS.clear()
                tp = _TPS[(topic, part)] = _new_tuple(TopicPartition, (topic, part))
            ts_type, ts = msg.timestamp()
            fut.set_result(_new_tuple(RecordMetadata, (topic, part, tp, msg.offset(), ts if ts_type else None,
                                                       1 if ts_type == 2 else 0, None)))
        elif not fut.done():
            fut.set_exception(from_librdkafka(err))
    except (asyncio.InvalidStateError, RuntimeError):
        pass  # cancelled by its awaiter (the report is dropped), or the loop was closed meanwhile


# _produce_future()'s spec: a successful delivery resolves the future in C with
# RecordMetadata(topic, partition, TopicPartition(...), offset, timestamp or None, 0/1, None), as
# _settle() would; a failed one goes to _settle(); these exceptions of set_result() are dropped.
# The TopicPartitions are shared through the cache (topic -> {partition: TopicPartition}), as
# _settle()'s are: one fewer object per delivered message for the garbage collector to count.
_TP_CACHE: Dict[str, Dict[int, TopicPartition]] = {}
# The done-callbacks of the asyncio futures one drain settles run as one loop callback, not a
# handle each (confluent_kafka/aio/_done_callbacks.py).
_SPEC = (RecordMetadata, TopicPartition, _settle, (asyncio.InvalidStateError, RuntimeError), _TP_CACHE,
         (_Future, run_done_callbacks))

# send() serves the delivery reports that are ready, and lets the loop run once, every this many
# messages (as aiokafka's send() waits whenever a batch is full): a loop that sends without ever
# awaiting anything else then keeps a bounded number of futures (and done-callbacks) pending
# instead of all of them until flush(), which is what the garbage collector's cost grows with.
_SERVE_EVERY = 1024
_BASE_CREATE_FUTURE = _BaseEventLoop.create_future


def _check_bytes(what: str, data: Any) -> None:
    if data is not None and not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be bytes (or be made bytes by {what}_serializer), got {type(data).__name__}")


def _check_headers(headers: Any) -> None:
    for item in headers:
        if (not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str)
                or not (item[1] is None or isinstance(item[1], (bytes, bytearray)))):
            raise TypeError(f"headers must be (str, bytes) pairs, got {item!r}")


class DefaultRecordMetadata(NamedTuple):
    """What ``BatchBuilder.append()`` returns for a record it took."""

    offset: int
    crc: Optional[int]
    size: int
    timestamp: int


class BatchBuilder:
    """Records for one ``send_batch()`` call, from ``create_batch()``; holds up to max_batch_size bytes."""

    _OVERHEAD = 70  # a record batch header, counted once
    _RECORD = 21  # a record's own header, at most, besides key, value and headers

    def __init__(self, batch_size: int, key_serializer: Optional[Callable[[Any], Any]],
                 value_serializer: Optional[Callable[[Any], Any]]) -> None:
        self._limit = batch_size
        self._size = self._OVERHEAD
        self._records: List[Any] = []
        self._closed = False
        self._key_serializer = key_serializer
        self._value_serializer = value_serializer

    def append(self, *, timestamp: Optional[int], key: Any, value: Any,
               headers: Any = None) -> Optional[DefaultRecordMetadata]:
        """Add a record unless the batch is full or closed.

        :param timestamp: create time in ms since the epoch, or None for now.
        :param key: the key (bytes, or what key_serializer takes).
        :param value: the value (bytes, or what value_serializer takes).
        :param headers: (str, bytes) pairs.
        :returns: the record's metadata (offset relative to the batch), or None when it does not fit.
        :raises TypeError: for a key or value that is not bytes.
        """
        if self._closed:
            return None
        k = key if self._key_serializer is None else self._key_serializer(key)
        v = value if self._value_serializer is None else self._value_serializer(value)
        _check_bytes("key", k)
        _check_bytes("value", v)
        hdrs = list(headers or [])
        _check_headers(hdrs)
        size = self._RECORD + (len(k) if k is not None else 0) + (len(v) if v is not None else 0)
        size += sum(len(h) + (len(hv) if hv is not None else 0) + 2 for h, hv in hdrs)
        if self._records and self._size + size > self._limit:
            self.close()
            return None
        ts = int(time.time() * 1000) if timestamp is None else int(timestamp)
        self._records.append((k, v, ts, hdrs or None))
        self._size += size
        return DefaultRecordMetadata(len(self._records) - 1, None, size, ts)

    def close(self) -> None:
        """Take no more records."""
        self._closed = True

    def closed(self) -> bool:
        """:returns: whether the batch takes no more records."""
        return self._closed

    def size(self) -> int:
        """:returns: the estimated size of the batch in bytes."""
        return self._size

    def record_count(self) -> int:
        """:returns: the number of records in the batch."""
        return len(self._records)


class _BatchDone:
    """Delivery reports of one send_batch(): one future, resolved by the last report."""

    __slots__ = ("fut", "left", "first", "error")

    def __init__(self, fut: "asyncio.Future[RecordMetadata]", n: int) -> None:
        self.fut = fut
        self.left = n
        self.first: Optional[Any] = None
        self.error: Optional[_RdKafkaError] = None

    def record(self, index: int, err: Optional[_RdKafkaError], msg: Any) -> None:
        if err is not None and self.error is None:
            self.error = err
        if index == 0:
            self.first = msg
        self.left -= 1
        if self.left == 0 and not self.fut.done():
            if self.error is not None:
                self.fut.set_exception(from_librdkafka(self.error))
            else:
                _settle(self.fut, None, self.first)


class TransactionContext:
    """``async with producer.transaction():`` begins a transaction, commits it on success and
    aborts it when the block raised."""

    def __init__(self, producer: "AIOKafkaProducer") -> None:
        self._producer = producer

    async def __aenter__(self) -> "TransactionContext":
        await self._producer.begin_transaction()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            await self._producer.commit_transaction()
        elif not isinstance(exc, KafkaException) or not exc.args[0].fatal():
            await self._producer.abort_transaction()


def _check_partition(partition: Any) -> None:
    if isinstance(partition, bool) or not isinstance(partition, int) or partition < 0:
        raise AssertionError(f"partition must be a non-negative int, got {partition!r}")


class AIOKafkaProducer:
    """aiokafka's ``AIOKafkaProducer`` on librdkafka (see docs/aiokafka.md for the option mapping).

    ``await start()`` checks that the cluster answers (and registers the transactional id);
    ``await send()`` hands the message to librdkafka and returns a future resolving to a
    :class:`~.structs.RecordMetadata`. Options without a librdkafka equivalent raise
    :class:`~._options.UnsupportedOption` unless left at their default.
    """

    _PRODUCER_CLIENT_ID_SEQUENCE = 0

    def __init__(self, *, loop: Any = None, bootstrap_servers: Any = "localhost", client_id: Optional[str] = None,
                 metadata_max_age_ms: int = 300000, request_timeout_ms: int = 40000, api_version: Any = None,
                 acks: Any = _missing, key_serializer: Optional[Callable[[Any], Any]] = None,
                 value_serializer: Optional[Callable[[Any], Any]] = None, compression_type: Optional[str] = None,
                 max_batch_size: int = 16384, partitioner: Any = _DEFAULT_PARTITIONER,
                 max_request_size: int = 1048576, linger_ms: int = 0, retry_backoff_ms: int = 100,
                 security_protocol: str = "PLAINTEXT", ssl_context: Any = None,
                 connections_max_idle_ms: int = 540000, enable_idempotence: bool = False,
                 transactional_id: Optional[str] = None, transaction_timeout_ms: int = 60000,
                 sasl_mechanism: str = "PLAIN", sasl_plain_password: Optional[str] = None,
                 sasl_plain_username: Optional[str] = None, sasl_kerberos_service_name: str = "kafka",
                 sasl_kerberos_domain_name: Optional[str] = None, sasl_oauth_token_provider: Any = None) -> None:
        values = _options.arguments(locals())
        if acks not in (0, 1, -1, "all", _missing):
            raise ValueError("Invalid ACKS parameter")
        if transactional_id is not None:
            enable_idempotence = values["enable_idempotence"] = True
        if enable_idempotence:
            if acks is _missing:
                acks = -1
            elif acks not in ("all", -1):
                raise ValueError(f"acks={acks} not supported if enable_idempotence=True")
        acks = 1 if acks is _missing else (-1 if acks == "all" else acks)
        if not callable(partitioner):
            raise TypeError("partitioner must be callable(key, all_partitions, available_partitions)")
        for name in ("key_serializer", "value_serializer"):
            if values[name] is not None and not callable(values[name]):
                raise TypeError(f"{name} must be callable")
        if client_id is None:
            AIOKafkaProducer._PRODUCER_CLIENT_ID_SEQUENCE += 1
            values["client_id"] = f"aiokafka-producer-{AIOKafkaProducer._PRODUCER_CLIENT_ID_SEQUENCE}"
        conf = _options.to_librdkafka(_options.PRODUCER, values, _PRODUCER_DEFAULTS, "AIOKafkaProducer")
        conf.update(_security_conf(values, "AIOKafkaProducer"))
        _sasl_prune(conf)
        conf["acks"] = acks
        # aiokafka's sender keeps one request in flight per broker, holding every partition;
        # librdkafka's request holds one partition, so with one in flight the partitions would take
        # turns, a round trip each. Five lets them go out together, and the records sent while five
        # are out fill the next batches. The cost: without enable_idempotence a retried request can
        # land after a later one (idempotent, librdkafka keeps up to five in order). More would
        # serve keyed records spread over many partitions sooner, but with linger.ms 0 would also
        # split the records of one partition into many small requests. docs/aiokafka.md says why;
        # docs/performance.md's keyed send-and-wait row is the case that pays for it.
        conf["max.in.flight.requests.per.connection"] = 5
        if max_batch_size == _PRODUCER_DEFAULTS["max_batch_size"]:
            # aiokafka's request holds one batch per partition, librdkafka's one partition: 16 KB
            # batches would carry a fraction of what aiokafka's request carries per round trip.
            # librdkafka's own batch size lets a round trip carry as many records as aiokafka's.
            del conf["batch.size"]
        if transactional_id is None:
            conf.pop("transaction.timeout.ms", None)
        in_librdkafka = runs_in_librdkafka(partitioner)
        if in_librdkafka:
            conf["partitioner"] = "murmur2_random"
            sticky = sticky_partitioning_ms(linger_ms)
            if sticky is not None:
                conf["sticky.partitioning.linger.ms"] = sticky
        self._key_serializer = key_serializer
        self._value_serializer = value_serializer
        self._partitioner = None if in_librdkafka else partitioner
        self._max_request_size = max_request_size
        self._max_batch_size = max_batch_size
        # The facade's own waits (start(), partitions_for()) take the clamped timeout: librdkafka
        # would wait without end for a negative one.
        self._request_timeout = conf.get("request.timeout.ms", request_timeout_ms) / 1000
        self._bootstrap = conf["bootstrap.servers"]
        self._transactional = transactional_id is not None
        self._in_txn = False
        self._partitions: Dict[str, List[int]] = {}
        self._partition_sets: Dict[str, FrozenSet[int]] = {}
        self._conf = conf
        self._started = False
        self._closed = False
        try:
            self._aio = AIOProducer(dict(conf))
        except KafkaException as e:
            raise KafkaConfigurationError(f"AIOKafkaProducer: {e.args[0].str()}") from None
        self._produce = self._aio._p._produce_with
        self._produce_future = self._aio._p._produce_future
        self._send_future = self._aio._p._send_future
        # aiokafka's producer.client, as far as instrumentation reads it.
        self.client = ClientView(bootstrap_servers, values["client_id"], self.partitions_for)
        # The loop send() made its last future on, when it is an asyncio BaseEventLoop with the
        # stock create_future(): while that loop runs on the calling thread it is the running loop,
        # found without asyncio.get_running_loop() (which asks the kernel for the process id on
        # every call up to CPython 3.11).
        self._loop: Optional[_BaseEventLoop] = None
        # What send()'s one-call path (_send_future()) needs: the loop on which it may be taken (None
        # while it may not, see _update_fast()), and (the future class, its keyword arguments for
        # that loop, _SPEC, max_request_size).
        self._fast_loop: Optional[_BaseEventLoop] = None
        self._send_args: Tuple[Any, ...] = ()
        self._unserved = 0  # messages sent since send() last served reports and yielded
        self._update_fast()

    def _update_fast(self) -> None:
        """send() may try its one-call path on the remembered loop while the producer is open, has
        no serializer or partitioner to run in Python, and is not a transactional producer outside
        a transaction. Called by whatever changes one of these, or the loop."""
        plain = (not self._closed and self._key_serializer is None and self._value_serializer is None
                 and self._partitioner is None and (not self._transactional or self._in_txn))
        self._fast_loop = self._loop if plain else None

    # ---- lifetime --------------------------------------------------------------------------

    def _client(self) -> AIOProducer:
        if self._closed:
            raise ProducerClosed()
        return self._aio

    async def start(self) -> None:
        """Connect: wait until a broker answers (and register the transactional id).

        :raises ~.errors.KafkaConnectionError: when no broker answers in request_timeout_ms.
        :raises ~.errors.ProducerClosed: after stop().
        """
        aio = self._client()
        if self._started:
            return
        try:
            md = await aio.list_topics(None, self._request_timeout)
        except KafkaException as e:
            raise KafkaConnectionError(f"Unable to bootstrap from {self._bootstrap}: {e.args[0].str()}") from None
        for name, topic in md.topics.items():
            if topic.error is None:
                self._partitions[name] = sorted(topic.partitions)
                self._partition_sets[name] = frozenset(topic.partitions)
        if self._transactional:
            try:
                await aio.init_transactions(max(self._request_timeout, 60.0))
            except KafkaException as e:
                raise from_librdkafka(e) from None
        self._started = True

    async def stop(self) -> None:
        """Flush what is queued and release the client (an open transaction is aborted). Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._update_fast()
        await self._aio.close()

    async def __aenter__(self) -> "AIOKafkaProducer":
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.stop()

    # ---- sending ---------------------------------------------------------------------------

    async def partitions_for(self, topic: str) -> Set[int]:
        """The partition ids of a topic (creating it when the broker auto-creates topics).

        :param topic: the topic name.
        :returns: a set of partition ids.
        :raises ~.errors.KafkaTimeoutError: when the topic's metadata does not arrive in time.
        """
        aio = self._client()
        deadline = _running_loop().time() + self._request_timeout
        while True:
            try:
                md = await aio.list_topics(topic, self._request_timeout)
            except KafkaException as e:
                raise from_librdkafka(e) from None
            meta = md.topics.get(topic)
            if meta is not None and meta.error is None and meta.partitions:
                self._partitions[topic] = sorted(meta.partitions)
                self._partition_sets[topic] = frozenset(meta.partitions)
                return set(meta.partitions)
            if _running_loop().time() > deadline:
                raise KafkaTimeoutError(f"no metadata for topic {topic!r} within {self._request_timeout} s")
            await asyncio.sleep(0.05)

    def _partition(self, topic: str, partition: Optional[int], key: Any, value: Any, serialized_key: Any,
                   serialized_value: Any) -> int:
        """The partition of a record, as aiokafka's ``_partition()`` decides it from the topic's
        known partitions (instrumentation calls it after ``client._wait_on_metadata(topic)``): a
        given one checked, otherwise the partitioner's choice for the serialized key.

        :raises AssertionError: for a partition that is not a non-negative int or not the topic's.
        """
        if partition is not None:
            _check_partition(partition)
            if partition not in self._partition_sets.get(topic, ()):
                raise AssertionError("Unrecognized partition")
            return partition
        parts = self._partitions.get(topic, [])
        return int((self._partitioner or _DEFAULT_PARTITIONER)(serialized_key, parts, parts))

    async def _choose_partition(self, topic: str, partition: Optional[int], key_bytes: Any) -> int:
        """:meth:`_partition` once the topic's partitions are known (fetched when they are not, or
        do not hold ``partition``)."""
        if partition is not None:
            _check_partition(partition)  # before any metadata is asked for
        known = self._partition_sets.get(topic)
        if known is None or (partition is not None and partition not in known):
            await self.partitions_for(topic)
        return self._partition(topic, partition, None, None, key_bytes, None)

    async def send(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                   timestamp_ms: Optional[int] = None, headers: Any = None) -> "asyncio.Future[RecordMetadata]":
        """Hand a message to librdkafka; returns a future resolving to its RecordMetadata.

        Waits (without blocking the loop) while librdkafka's queue is full. Cancelling the
        returned future does not unsend the message.

        :param topic: the topic.
        :param value: the value: bytes, or what value_serializer takes.
        :param key: the key: bytes, or what key_serializer takes.
        :param partition: the partition, or None for the partitioner's choice.
        :param timestamp_ms: create time in ms since the epoch; None for now.
        :param headers: a list of (str, bytes) pairs.
        :returns: a future resolving to :class:`~.structs.RecordMetadata` (or raising a KafkaError).
        :raises AssertionError: when both key and value are None, or the partition is not one of
            the topic's (as in aiokafka).
        :raises ~.errors.IllegalOperation: a transactional producer outside a transaction.
        :raises ~.errors.MessageSizeTooLargeError: above max_request_size.
        :raises TypeError: for a key, value or header that is not bytes.
        :raises ~.errors.ProducerClosed: after stop().
        """
        if self._unserved >= _SERVE_EVERY and not self._closed:
            # Before anything is sent: a send() cancelled here has sent nothing.
            self._unserved = 0
            self._aio._serve()
            await _sleep(0)
        loop = self._fast_loop
        if loop is not None and topic in self._partition_sets \
                and loop._thread_id == _thread_ident():  # type: ignore[attr-defined]
            # The common call in one step: _send_future() checks what the path below would (bytes
            # or None, not both None, within max_request_size, no partition, no headers), makes
            # the future as below and produces; for anything else it does nothing.
            send_future = self._send_future  # a plain attribute load: cheaper than a method load
            try:
                sent: "Optional[asyncio.Future[RecordMetadata]]" = send_future(
                    self._send_args, topic, value, key, partition, timestamp_ms, headers)
            except BufferError:
                sent = None  # the path below waits for room
            except KafkaException as e:
                raise from_librdkafka(e) from None
            if sent is not None:
                self._unserved += 1
                return sent
        if self._closed:
            raise ProducerClosed()
        assert not (value is None and key is None), "Need at least one: key or value"
        if self._transactional and not self._in_txn:
            raise IllegalOperation("Can't send messages while not in transaction")
        if self._key_serializer is not None:
            key = self._key_serializer(key)
        if self._value_serializer is not None:
            value = self._value_serializer(value)
        if value.__class__ is not bytes:
            _check_bytes("value", value)
        if key is not None and key.__class__ is not bytes:
            _check_bytes("key", key)
        if headers:
            headers = list(headers)
            _check_headers(headers)
        else:
            headers = None
        size = (len(value) if value is not None else 0) + (len(key) if key is not None else 0)
        if size > self._max_request_size:
            raise MessageSizeTooLargeError(
                f"The message is {size} bytes when serialized which is larger than max_request_size "
                f"({self._max_request_size})")
        if partition is not None or self._partitioner is not None:  # (otherwise librdkafka picks)
            partition = await self._choose_partition(topic, partition, key)
        elif topic not in self._partition_sets:
            # As aiokafka's send() does (after the checks of the arguments here): the topic's
            # partitions are known before the record goes, so that _partition(), which frameworks
            # call after a send, chooses among them.
            await self.partitions_for(topic)
        loop = self._loop
        if loop is not None and loop._thread_id == _thread_ident():  # type: ignore[attr-defined]
            fut: "asyncio.Future[RecordMetadata]" = _Future(loop=loop)
        else:
            fut = self._new_future()
        produce = self._produce_future
        while True:
            try:
                produce(fut, _SPEC, topic, value, key, partition, timestamp_ms, headers)
                break
            except BufferError:
                await self._aio._make_room()
            except KafkaException as e:
                raise from_librdkafka(e) from None
        self._unserved += 1
        return fut

    def _new_future(self) -> "asyncio.Future[RecordMetadata]":
        """A future of the running loop, and remember the loop when send() may skip looking it up.
        A loop the client was not used on yet (a second asyncio.run()) now serves its reports."""
        loop = _running_loop()
        if self._aio._wake.loop is not loop:
            self._aio._wake.bind()
        if isinstance(loop, _BaseEventLoop) and type(loop).create_future is _BASE_CREATE_FUTURE:
            if self._loop is not loop:
                self._loop = loop
                self._send_args = (_Future, {"loop": loop}, _SPEC, self._max_request_size)
                self._update_fast()
            return _Future(loop=loop)  # what create_future() makes
        if self._loop is not None:
            self._loop = None
            self._update_fast()
        return loop.create_future()

    async def send_and_wait(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                            timestamp_ms: Optional[int] = None, headers: Any = None) -> RecordMetadata:
        """``send()`` and wait for the delivery.

        :param topic: the topic.
        :param value: the value.
        :param key: the key.
        :param partition: the partition, or None for the partitioner's choice.
        :param timestamp_ms: create time in ms since the epoch; None for now.
        :param headers: a list of (str, bytes) pairs.
        :returns: the :class:`~.structs.RecordMetadata` of the delivered message.
        :raises ~.errors.KafkaError: when the delivery failed.
        """
        fut = await self.send(topic, value, key, partition, timestamp_ms, headers)
        return await fut

    def create_batch(self) -> BatchBuilder:
        """An empty batch for ``send_batch()`` (serializers apply; up to max_batch_size bytes).

        :returns: a :class:`BatchBuilder`.
        """
        return BatchBuilder(self._max_batch_size, self._key_serializer, self._value_serializer)

    async def send_batch(self, batch: BatchBuilder, topic: str, *,
                         partition: Optional[int]) -> "asyncio.Future[RecordMetadata]":
        """Send a batch's records to one partition; returns a future resolving when all are delivered.

        :param batch: from ``create_batch()``.
        :param topic: the topic.
        :param partition: the partition; None lets the partitioner pick one (as for a record
            without a key), as aiokafka does.
        :returns: a future resolving to the :class:`~.structs.RecordMetadata` of the first record.
        :raises TypeError: when ``batch`` is not from create_batch().
        :raises ~.errors.IllegalOperation: a transactional producer outside a transaction.
        """
        aio = self._client()
        if not isinstance(batch, BatchBuilder):
            raise TypeError(f"batch must come from create_batch(), got {type(batch).__name__}")
        # None: one partition for the whole batch, which the partitioner picks as for no key (aiokafka).
        partition = await self._choose_partition(topic, partition, None)
        if self._transactional and not self._in_txn:
            raise IllegalOperation("Can't send messages while not in transaction")
        batch.close()
        fut = self._new_future()
        records = batch._records
        if not records:
            fut.set_result(RecordMetadata(topic, partition, TopicPartition(topic, partition), -1, None, 0, None))
            return fut
        done = _BatchDone(fut, len(records))
        for i, (k, v, ts, hdrs) in enumerate(records):
            while True:
                try:
                    self._produce(i, done.record, topic, v, k, partition, ts, hdrs)
                    break
                except BufferError:
                    await aio._make_room()
                except KafkaException as e:
                    done.left -= len(records) - i
                    raise from_librdkafka(e) from None
        return fut

    async def flush(self) -> None:
        """Wait until every message sent so far is delivered (or failed)."""
        await self._client().flush()

    # ---- transactions ----------------------------------------------------------------------

    def _ensure_transactional(self) -> None:
        if not self._transactional:
            raise IllegalOperation("You need to configure transaction_id to use transactions")

    async def begin_transaction(self) -> None:
        """Start a transaction.

        :raises ~.errors.IllegalOperation: without a transactional_id.
        :raises ~.errors.KafkaError: when librdkafka refuses (e.g. one is already open).
        """
        self._ensure_transactional()
        try:
            await self._client().begin_transaction()
        except KafkaException as e:
            raise from_librdkafka(e) from None
        self._in_txn = True
        self._update_fast()

    async def commit_transaction(self) -> None:
        """Deliver what the transaction sent and commit it.

        :raises ~.errors.IllegalOperation: without a transactional_id.
        :raises ~.errors.KafkaError: when the commit failed.
        """
        self._ensure_transactional()
        try:
            await self._client().commit_transaction()
        except KafkaException as e:
            raise from_librdkafka(e) from None
        finally:
            self._in_txn = False
            self._update_fast()

    async def abort_transaction(self) -> None:
        """Abort the open transaction (its messages are never read by read_committed consumers).

        :raises ~.errors.IllegalOperation: without a transactional_id.
        :raises ~.errors.KafkaError: when the abort failed.
        """
        self._ensure_transactional()
        try:
            await self._client().abort_transaction()
        except KafkaException as e:
            raise from_librdkafka(e) from None
        finally:
            self._in_txn = False
            self._update_fast()

    def transaction(self) -> TransactionContext:
        """``async with producer.transaction():`` commits on success and aborts on an exception.

        :returns: the context manager.
        """
        return TransactionContext(self)

    async def send_offsets_to_transaction(self, offsets: Dict[Any, Any], group_id: str) -> None:
        """Commit consumer offsets as part of the open transaction.

        :param offsets: ``{TopicPartition: offset or OffsetAndMetadata}``, the next offsets to read.
        :param group_id: the consumer group.
        :raises ~.errors.IllegalOperation: without a transactional_id, or outside a transaction.
        :raises ValueError: for an empty or non-str group_id, or bad offsets.
        """
        self._ensure_transactional()
        if not self._in_txn:
            raise IllegalOperation("Not in the middle of a transaction")
        if not group_id or not isinstance(group_id, str):
            raise ValueError(group_id)
        positions = _offsets_list(offsets)
        consumer = _GROUP_CONSUMERS.get(group_id)
        if consumer is not None:
            metadata = consumer._group_metadata()
        else:
            probe = _Consumer({"group.id": group_id, "bootstrap.servers": self._bootstrap})
            try:
                metadata = probe.consumer_group_metadata()
            finally:
                probe.close()
        try:
            await self._client().send_offsets_to_transaction(positions, metadata,
                                                             max(self._request_timeout, 60.0))
        except KafkaException as e:
            raise from_librdkafka(e) from None


def _offsets_list(offsets: Any) -> List[_TP]:
    """``{TopicPartition: offset | OffsetAndMetadata}`` as a list of confluent_kafka TopicPartitions."""
    if not isinstance(offsets, dict):
        raise ValueError(f"offsets must be a dict of TopicPartition to offset, got {offsets!r}")
    out = []
    for tp, off in offsets.items():
        if not isinstance(tp, tuple) or len(tp) != 2:
            raise ValueError(f"offsets keys must be TopicPartition, got {tp!r}")
        meta: Optional[str] = None
        value: Any = off
        if isinstance(off, OffsetAndMetadata):
            value, meta = off.offset, off.metadata
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"offset for {tp} must be a non-negative int, got {value!r}")
        out.append(_TP(tp[0], tp[1], value, metadata=meta) if meta else _TP(tp[0], tp[1], value))
    return out


def _security_conf(values: Dict[str, Any], client: str) -> Dict[str, Any]:
    """The properties that depend on other options: SASL per mechanism, TLS from the context."""
    conf: Dict[str, Any] = {}
    ctx = values.get("ssl_context")
    if ctx is not None:
        if not isinstance(ctx, FacadeSSLContext):
            raise _options.UnsupportedOption(
                f"{client}(ssl_context=...): librdkafka makes its own TLS connections from files; make the "
                f"context with this facade's aiokafka.helpers.create_ssl_context(cafile=..., certfile=..., "
                f"keyfile=...) so its files can be passed on")
        conf.update(ctx.librdkafka_conf)
    return conf


def _sasl_prune(conf: Dict[str, Any]) -> Dict[str, Any]:
    """Drop the SASL properties that do not apply (aiokafka has defaults for them; librdkafka warns)."""
    if not str(conf.get("security.protocol", "")).startswith("sasl"):
        conf.pop("sasl.mechanism", None)
    if conf.get("sasl.mechanism") != "GSSAPI":
        conf.pop("sasl.kerberos.service.name", None)
    return conf


_PRODUCER_DEFAULTS = {name: p.default for name, p in inspect.signature(AIOKafkaProducer.__init__).parameters.items()
                      if p.default is not inspect.Parameter.empty}
