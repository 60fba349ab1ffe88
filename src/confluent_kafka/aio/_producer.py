"""AIOProducer: an asyncio producer served by librdkafka's own wake-ups (no thread pool)."""

from __future__ import annotations

import asyncio
import threading
from asyncio import get_running_loop as _running_loop
from threading import get_ident as _thread_ident
from concurrent.futures import Executor
from functools import partial
from typing import Any, Callable, Dict, Iterable, List, Optional

from ..cimpl import KafkaError, KafkaException, Message, Producer
from . import _slices
from ._callbacks import Tasks
from ._done_callbacks import run_done_callbacks
from ._wakeup import Wakeup

_SERVE_ROUNDS = 64  # poll(0) calls per wake-up before yielding to other callbacks of the loop
_TICK = 0.05        # fallback wake-up while flushing or waiting for room, in seconds
_MIN_END_TXN = 1.0  # least time a commit is given for its EndTxn exchange after its flush, in seconds
DEFAULT_LINGER_MS = 1  # AIOProducer's linger.ms unless configured (librdkafka's default is 5)
_LINGER_KEYS = ("linger.ms", "queue.buffering.max.ms")


def _settle(fut: "asyncio.Future[Message]", err: Optional[KafkaError], msg: Message) -> None:
    """Delivery report of an awaited message (one function for all of them, no closure)."""
    if fut.done():
        return  # the awaiting task was cancelled: the report is dropped, nothing is held
    try:
        if err is None:
            fut.set_result(msg)
        else:
            fut.set_exception(KafkaException(err))
    except RuntimeError:
        pass  # the future's event loop was closed meanwhile


# _produce_awaited()'s spec: a successful delivery sets the future's result to the Message in C,
# its done-callbacks run with the drain's others as one loop callback (_done_callbacks.py); a
# failed one goes to _settle(); these exceptions of set_result() (a cancelled future, a closed
# loop) are dropped.
_AWAITED = (_settle, (asyncio.InvalidStateError, RuntimeError), (asyncio.Future, run_done_callbacks))


def _settle_and_call(user_cb: Callable[[Optional[KafkaError], Message], Any],
                     fut: "asyncio.Future[Message]", err: Optional[KafkaError], msg: Message) -> None:
    _settle(fut, err, msg)
    user_cb(err, msg)


class _Batch:
    """The delivery reports of one produce_batch() call, gathered into one future."""

    __slots__ = ("fut", "left", "results")

    def __init__(self, fut: "asyncio.Future[List[Message]]", n: int) -> None:
        self.fut = fut
        self.left = n
        self.results: List[Optional[Message]] = [None] * n

    def record(self, index: int, err: Optional[KafkaError], msg: Message) -> None:
        self.results[index] = msg
        self.left -= 1
        if self.left == 0 and not self.fut.done():
            try:
                self.fut.set_result(self.results)  # type: ignore[arg-type]
            except RuntimeError:
                pass


class _ClientCalls:
    """What :class:`AIOProducer` and :class:`AIOConsumer` offer alike over their native client
    (``_native``), each call refused once the client is closed (``_enter``)."""

    def _enter(self) -> asyncio.AbstractEventLoop:
        raise NotImplementedError

    @property
    def _native(self) -> Any:
        raise NotImplementedError

    async def list_topics(self, topic: Optional[str] = None, timeout: Optional[float] = None) -> Any:
        """Cluster metadata (see Producer.list_topics and Consumer.list_topics), queried in bounded
        slices.

        :param topic: only this topic, or None for all.
        :param timeout: seconds to wait; None (the default) waits without limit.
        :returns: a ClusterMetadata.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the client is closed.
        """
        self._enter()
        return await _slices.bounded(lambda t: self._native.list_topics(topic, t), timeout)

    async def cluster_id(self, timeout: float = -1) -> str:
        """The id of the Kafka cluster, from broker metadata (queried in bounded slices).

        :param timeout: seconds to wait for a broker to answer; -1 waits as long as it takes.
        :returns: the cluster id.
        :raises ~confluent_kafka.KafkaException: ``_TIMED_OUT`` if no broker answered in time.
        """
        self._enter()
        return await cluster_id_of(self._native, timeout)

    async def set_sasl_credentials(self, username: str, password: str) -> None:
        """Set the SASL PLAIN/SCRAM credentials used on the next authentication.

        :param username: the SASL user name.
        :param password: the SASL password.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the client is closed.
        """
        self._enter()
        self._native.set_sasl_credentials(username, password)


class AIOProducer(_ClientCalls):
    """An asyncio Kafka producer.

    ``AIOProducer(producer_conf, **kwargs)`` takes the same configuration as
    :class:`confluent_kafka.Producer` (keyword arguments are merged over ``producer_conf``).
    ``linger.ms`` defaults to 1 (librdkafka's default is 5), since asyncio code usually awaits
    its deliveries. Delivery reports, error/stats/throttle/log callbacks are served on the event
    loop as soon as librdkafka queues them: the loop watches a descriptor librdkafka writes to,
    so no thread polls and no thread pool runs. ``error_cb``, ``stats_cb``, ``throttle_cb`` and
    ``on_delivery`` may be plain functions or ``async def`` (then each call runs as a task).

    ``await producer.produce(...)`` enqueues a message and returns an :class:`asyncio.Future`
    that resolves to the delivered :class:`~confluent_kafka.Message` (or raises
    :class:`~confluent_kafka.KafkaException`); ``await producer.produce_and_wait(...)`` does both
    steps in one await.

    The other parameters are upstream's, where they size its thread pool and its Python-side
    message buffer. Neither exists here, and they change nothing:

    :param producer_conf: the configuration.
    :param max_workers: upstream's thread-pool size; accepted and unused (no pool runs). A
        value below 1 is refused with ValueError, as upstream refuses it.
    :param executor: upstream's executor for its blocking calls; accepted and never used, nor
        shut down (it stays the caller's).
    :param batch_size: upstream hands its buffered messages to librdkafka once this many are
        waiting. Here every ``produce()`` hands its message to librdkafka at once and librdkafka
        makes the batches: ``batch.num.messages`` and ``batch.size`` bound a batch and
        ``linger.ms`` is how long it may wait to fill. Accepted and unused.
    :param buffer_timeout: upstream hands over a partly filled buffer after this many seconds
        without a new message, so a lone message waited up to that long. Here it waits at most
        ``linger.ms`` (1 ms unless configured). Accepted and unused; set ``linger.ms`` to trade
        latency for larger batches.
    :raises ValueError: if ``max_workers`` is below 1 and no ``executor`` is given.
    """

    def __init__(self, producer_conf: Optional[Dict[str, Any]] = None, max_workers: Optional[int] = 4,
                 executor: Optional[Executor] = None, batch_size: int = 1000, buffer_timeout: float = 1.0,
                 **kwargs: Any) -> None:
        # Refused as upstream's thread pool refuses it, though there is no pool here.
        if executor is None and max_workers is not None and max_workers <= 0:
            raise ValueError("max_workers must be greater than 0")
        _ = buffer_timeout > 0  # compared as upstream's timer set-up does: a non-number fails alike
        self._exc: Optional[BaseException] = None
        self._closed = False
        self._loop: Optional[asyncio.AbstractEventLoop] = None  # the loop _enter() bound last
        self._tasks = Tasks(self._report, lambda: self._wake.loop)
        merged = self._tasks.adapt({**(producer_conf or {}), **kwargs})
        if not any(k in merged for k in _LINGER_KEYS):
            # Asyncio code usually awaits its deliveries: wait 1 ms for a batch to fill, not 5.
            merged["linger.ms"] = DEFAULT_LINGER_MS
        self._p = Producer(merged)
        self._wake = Wakeup(self._p._io_event_fd(), self._serve)
        self._served = 0
        self._in_txn = False
        self._serve_pending = False
        self._threads: List[threading.Event] = []  # set when a send_offsets thread has finished

    def _report(self, exc: BaseException) -> None:
        """An ``async def`` callback raised: surface it from the next call."""
        if self._exc is None:
            self._exc = exc

    # ---- serving ---------------------------------------------------------------------------

    def _serve(self) -> None:
        """Serve queued events until the queue is empty (it must be, for the next wake-up)."""
        p = self._p
        try:
            for _ in range(_SERVE_ROUNDS):
                n = p.poll(0)
                self._served += n
                if not n:
                    return
        except RuntimeError:
            return  # closed meanwhile
        except Exception as e:  # a user callback raised: surface it from the next call
            if self._exc is None:
                self._exc = e
            return
        # Still busy: continue after the loop ran its other callbacks.
        loop = self._wake.loop
        if loop is not None and not self._serve_pending:
            self._serve_pending = True
            loop.call_soon(self._serve_again)

    def _serve_again(self) -> None:
        self._serve_pending = False
        self._serve()
        self._wake.notify()

    @property
    def _native(self) -> Producer:
        return self._p

    def _enter(self) -> asyncio.AbstractEventLoop:
        if self._closed:
            raise RuntimeError("Producer has been closed")
        if self._exc is not None:
            exc, self._exc = self._exc, None
            raise exc
        self._loop = self._wake.bind()
        return self._loop

    def _enter_fast(self) -> asyncio.AbstractEventLoop:
        """_enter() for the per-message calls: a few comparisons when nothing changed.

        While an asyncio BaseEventLoop runs on the calling thread it is the running loop, so the
        loop bound last is recognized without asyncio.get_running_loop(), which asks the kernel
        for the process id on every call up to CPython 3.11."""
        loop = self._loop
        if (self._exc is None and not self._closed and isinstance(loop, asyncio.BaseEventLoop)
                and loop._thread_id == _thread_ident()):  # type: ignore[attr-defined]
            return loop
        if _running_loop() is loop and loop is not None and self._exc is None and not self._closed:
            return loop
        return self._enter()

    async def _make_room(self) -> None:
        """Wait for delivery reports to free room in a full queue."""
        self._serve()
        await self._wake.wait(_TICK)
        if self._exc is not None:
            exc, self._exc = self._exc, None
            raise exc

    # ---- produce ---------------------------------------------------------------------------

    async def produce(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                      on_delivery: Optional[Callable[..., Any]] = None, callback: Optional[Callable[..., Any]] = None,
                      timestamp: Optional[int] = None, headers: Any = None) -> "asyncio.Future[Message]":
        """Enqueue a message; returns a Future resolving to the delivered Message.

        Waits (without blocking the loop) while the local queue is full. ``on_delivery`` /
        ``callback`` (``cb(err, msg)``), if given, is called as well. Cancelling the returned
        future does not unsend the message; its delivery report is then just dropped.

        :param topic: topic name.
        :param value: payload: bytes, str or None.
        :param key: key: bytes, str or None.
        :param partition: partition, or None for the configured partitioner.
        :param on_delivery: optional callback cb(err, msg), called besides the future.
        :param callback: alias of on_delivery.
        :param timestamp: create time in ms since the epoch, or None for now.
        :param headers: dict or list of (str, bytes|str|None) pairs.
        :returns: a future resolving to the delivered Message.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        loop = self._enter_fast()
        fut: "asyncio.Future[Message]" = loop.create_future()
        user_cb = on_delivery if on_delivery is not None else callback
        settle = None if user_cb is None else partial(_settle_and_call, self._tasks.wrap(user_cb))
        while True:
            try:
                if settle is None:
                    self._p._produce_awaited(fut, _AWAITED, topic, value, key, partition, timestamp, headers)
                else:
                    self._p._produce_with(fut, settle, topic, value, key, partition, timestamp, headers)
                return fut
            except BufferError:
                await self._make_room()

    async def produce_and_wait(self, topic: str, value: Any = None, key: Any = None,
                               partition: Optional[int] = None, timestamp: Optional[int] = None,
                               headers: Any = None) -> Message:
        """Enqueue a message and wait for its delivery; returns the delivered Message.

        :param topic: topic name.
        :param value: payload: bytes, str or None.
        :param key: key: bytes, str or None.
        :param partition: partition, or None for the configured partitioner.
        :param timestamp: create time in ms since the epoch, or None for now.
        :param headers: dict or list of (str, bytes|str|None) pairs.
        :returns: the delivered Message.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        fut = await self.produce(topic, value, key, partition, timestamp=timestamp, headers=headers)
        return await fut

    async def enqueue(self, topic: str, value: Any = None, key: Any = None, partition: Optional[int] = None,
                      timestamp: Optional[int] = None, headers: Any = None) -> None:
        """Fire-and-forget: enqueue a message without any future or delivery report.

        Only waits while the local queue is full. Use :meth:`flush` to wait for delivery.

        :param topic: topic name.
        :param value: payload: bytes, str or None.
        :param key: key: bytes, str or None.
        :param partition: partition, or None for the configured partitioner.
        :param timestamp: create time in ms since the epoch, or None for now.
        :param headers: dict or list of (str, bytes|str|None) pairs.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        self._enter_fast()
        plain = key is None and partition is None and timestamp is None and headers is None
        while True:
            try:
                if plain:  # the common call, without the cost of keyword arguments
                    self._p.produce(topic, value)
                else:
                    self._p.produce(topic, value, key, -1 if partition is None else partition,
                                    timestamp=timestamp or 0, headers=headers)
                return
            except BufferError:
                await self._make_room()

    async def produce_batch(self, topic: str, messages: Iterable[Dict[str, Any]],
                            partition: Optional[int] = None) -> List[Message]:
        """Enqueue many messages and wait once for all their delivery reports.

        ``messages`` are dicts with optional ``value``, ``key``, ``partition``, ``timestamp`` and
        ``headers``. Returns the delivered Messages in input order; one whose delivery failed
        has its ``error()`` set (nothing is raised for it). A message refused at enqueue (bad
        argument, unknown partition) raises at once; the messages before it are still sent.

        :param topic: topic name.
        :param messages: dicts with optional value, key, partition, timestamp and headers.
        :param partition: partition for messages that name none, or None for the partitioner.
        :returns: list of the delivered Messages, in input order.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        loop = self._enter()
        items = list(messages)
        fut: "asyncio.Future[List[Message]]" = loop.create_future()
        if not items:
            return []
        batch = _Batch(fut, len(items))
        record = batch.record
        produce_with = self._p._produce_with
        for i, m in enumerate(items):
            part = m.get("partition", partition)
            while True:
                try:
                    produce_with(i, record, topic, m.get("value"), m.get("key"), part,
                                 m.get("timestamp"), m.get("headers"))
                    break
                except BufferError:
                    await self._make_room()
                except BaseException:
                    # Not enqueued: the messages before it are, and report into the batch.
                    batch.left -= len(items) - i
                    if batch.left == 0 and not fut.done():
                        fut.set_result(batch.results)  # type: ignore[arg-type]
                    raise
        return await fut

    # ---- serving calls ---------------------------------------------------------------------

    async def poll(self, timeout: Optional[float] = 0) -> int:
        """Serve events (delivery reports are served on their own; this waits for the next ones).

        :param timeout: seconds to wait when nothing is ready: 0 (the default) does not wait,
            None or a negative number waits until something was served.
        :returns: the number of events served.
        """
        _slices.check_timeout(timeout)
        loop = self._enter()
        start = self._served
        self._serve()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        while self._served == start:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                break
            await self._wake.wait(left)
            self._serve()
        self._enter()  # raise what a callback raised
        return self._served - start

    async def flush(self, timeout: Optional[float] = None) -> int:
        """Send everything queued (ignoring linger.ms) and wait for the delivery reports.

        Returns the number of messages still queued when ``timeout`` (None: no limit) passed.

        :param timeout: seconds to wait; None (the default) waits without limit.
        :returns: the number of messages still queued.
        :raises RuntimeError: when the producer is closed.
        """
        _slices.check_timeout(timeout)
        loop = self._enter()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        p = self._p
        while True:
            p.flush(0)  # wakes the broker threads to send now, serves what is ready
            left_msgs = len(p)
            self._enter()
            if left_msgs == 0:
                return 0
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return left_msgs
            await self._wake.wait(_TICK if left is None else min(_TICK, left))

    async def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Drop queued and/or in-flight messages; their futures fail with _PURGE_QUEUE/_PURGE_INFLIGHT.

        :param in_queue: purge messages not yet sent.
        :param in_flight: purge messages awaiting an answer.
        :param blocking: wait for librdkafka to finish purging.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        self._enter()
        self._p.purge(in_queue=in_queue, in_flight=in_flight, blocking=blocking)
        self._serve()

    def __len__(self) -> int:
        """Messages and requests waiting to be delivered (0 once closed)."""
        if self._closed:
            return 0
        return len(self._p)

    # ---- transactions ----------------------------------------------------------------------

    async def _nap(self, seconds: float) -> None:
        await self._wake.wait(seconds)

    async def init_transactions(self, timeout: Optional[float] = None) -> None:
        """Register transactional.id with the coordinator (resumable: runs in loop slices).

        :param timeout: seconds to wait; None (the default) waits without limit.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        self._enter()
        await _slices.resumable(self._p.init_transactions, timeout, self._nap)

    async def begin_transaction(self) -> None:
        """Start a transaction (a local state change; never blocks).

        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        self._enter()
        self._p.begin_transaction()
        self._in_txn = True

    async def send_offsets_to_transaction(self, positions: List[Any], group_metadata: bytes,
                                          timeout: Optional[float] = None) -> None:
        """Commit consumer positions as part of the transaction.

        librdkafka can neither slice nor resume this call (its timeout bounds the whole
        AddOffsetsToTxn + TxnOffsetCommit exchange, and the call waits for that exchange to
        end), so it runs once, with the whole timeout, on a thread of its own for the call's
        duration while the loop awaits it. A retriable failure may be retried with the same
        arguments.

        :param positions: list of TopicPartition, offsets the next to read.
        :param group_metadata: from Consumer.consumer_group_metadata().
        :param timeout: seconds to wait; None (the default) waits as long as the transaction
            may still run (``transaction.timeout.ms``).
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        _slices.check_timeout(timeout)
        self._enter()
        seconds = -1 if timeout is None else timeout
        await self._aside(partial(self._p.send_offsets_to_transaction, positions, group_metadata, seconds),
                          "confluent_kafka.aio send_offsets_to_transaction")

    async def _aside(self, call: Callable[[], Any], name: str) -> Any:
        """Run a blocking transactional call once, on a thread of its own (see _slices.on_own_thread);
        close() waits for it to end."""
        finished = threading.Event()

        def run() -> Any:
            try:
                return call()
            finally:
                finished.set()

        self._threads = [e for e in self._threads if not e.is_set()]
        self._threads.append(finished)
        return await _slices.on_own_thread(run, name)

    async def _end_transaction(self, commit: bool, timeout: Optional[float]) -> None:
        """The commit or abort itself (arguments checked by the caller)."""
        seconds = -1 if timeout is None else timeout
        try:
            await self._aside(partial(self._p._end_transaction, commit, seconds),
                              "confluent_kafka.aio " + ("commit" if commit else "abort") + "_transaction")
        finally:
            self._serve()  # the delivery reports the call left for the loop

    async def commit_transaction(self, timeout: Optional[float] = None) -> None:
        """Flush and commit the transaction (the commit runs once, on a thread of its own; see
        docs/asyncio.md).

        The messages are flushed on the loop first, so their delivery reports are served there
        in order and the futures have resolved by the time the commit starts.

        :param timeout: seconds to wait; None (the default) waits without limit.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error, or with a
            retriable ``_TIMED_OUT`` when the messages were not all delivered in time (the
            transaction is still open then: commit again, or abort).
        :raises RuntimeError: when the producer is closed.
        """
        _slices.check_timeout(timeout)
        loop = self._enter()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        left = await self.flush(timeout)
        if left:
            raise KafkaException(KafkaError(
                KafkaError._TIMED_OUT, f"Failed to flush all outstanding messages within the API timeout: "
                f"{left} message(s) remaining", retriable=True))
        # What is left of the timeout, but never so little that the EndTxn exchange cannot fit.
        rest = None if deadline is None else max(_MIN_END_TXN, deadline - loop.time())
        await self._end_transaction(True, rest)
        self._in_txn = False

    async def abort_transaction(self, timeout: Optional[float] = None) -> None:
        """Purge and abort the transaction (once, on a thread of its own); pending delivery
        futures fail, on the loop.

        :param timeout: seconds to wait; None (the default) waits without limit.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the producer is closed.
        """
        _slices.check_timeout(timeout)
        self._enter()
        await self._end_transaction(False, timeout)
        self._in_txn = False

    # ---- misc ------------------------------------------------------------------------------


    async def close(self, timeout: Optional[float] = None) -> None:
        """Abort an open transaction, flush, fail what is left as purged, release the client.

        Idempotent. Every later call raises RuntimeError.

        :param timeout: seconds to wait for the flush; None waits without limit.
        """
        if self._closed:
            return
        loop = self._wake.bind()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        for finished in self._threads:  # a cancelled send_offsets_to_transaction still running
            while not finished.is_set():
                await asyncio.sleep(_TICK)
        self._threads = []
        if self._in_txn:
            try:
                await self.abort_transaction(timeout)
            except KafkaException:
                pass
        left = None if deadline is None else max(0.0, deadline - loop.time())
        if await self.flush(left):
            # Out of time: what is left fails as purged rather than being dropped silently.
            self._p.purge(in_queue=True, in_flight=True, blocking=False)
            await self.flush(1.0)
        self._closed = True
        self._wake.unbind()
        self._p.close(0)
        await self._tasks.settle()

    async def __aenter__(self) -> "AIOProducer":
        self._enter()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()


async def cluster_id_of(client: Any, timeout: Optional[float]) -> str:
    """``client.cluster_id(timeout)`` in bounded slices of the loop."""

    def attempt(seconds: float) -> str:
        found: str = client.cluster_id(seconds)
        return found

    _slices.check_timeout(timeout)
    result: str = await _slices.bounded(attempt, None if timeout is None or timeout < 0 else timeout)
    return result
