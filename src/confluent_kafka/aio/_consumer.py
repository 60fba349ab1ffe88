"""AIOConsumer: an asyncio consumer woken by librdkafka's own queue events (no thread, no pool)."""

from __future__ import annotations

import asyncio
import inspect
import itertools
from concurrent.futures import Executor
from typing import Any, Awaitable, Callable, Dict, List, Literal, Optional, Tuple, Union, overload

from ..cimpl import Consumer, KafkaError, KafkaException, Message, TopicPartition
from . import _slices
from ._callbacks import Tasks
from ._producer import _ClientCalls
from ._wakeup import Wakeup

_TICK = 1.0  # longest wait between two looks at the queue, should a wake-up ever be missed
_CLOSE_BOUND = 60.0  # longest asynchronous group leave before falling back to the plain close

RebalanceCallback = Callable[["AIOConsumer", List[TopicPartition]], Union[None, Awaitable[None]]]


class AIOConsumer(_ClientCalls):
    """An asyncio Kafka consumer.

    ``AIOConsumer(consumer_conf, **kwargs)`` takes the same configuration as
    :class:`confluent_kafka.Consumer` (keyword arguments are merged over ``consumer_conf``).
    ``await poll()``, ``await consume()`` and ``async for`` wait on a descriptor librdkafka
    writes to when messages or events arrive, then take what is there with non-blocking calls:
    no thread polls, and a cancelled wait has taken nothing. Rebalance callbacks may be plain
    functions or coroutine functions; they get this AIOConsumer and the partitions. So may
    ``error_cb``, ``stats_cb``, ``throttle_cb`` and ``on_commit`` (each call then runs as a task).

    :param consumer_conf: the configuration.
    :param max_workers: upstream's thread-pool size; accepted and unused (no thread runs). A
        value below 1 is refused with ValueError, as upstream refuses it.
    :param executor: upstream's executor for its blocking calls; accepted and never used, nor
        shut down (it stays the caller's).
    :raises ValueError: if ``max_workers`` is below 1 and no ``executor`` is given.
    """

    def __init__(self, consumer_conf: Optional[Dict[str, Any]] = None, max_workers: Optional[int] = 100,
                 executor: Optional[Executor] = None, **kwargs: Any) -> None:
        # Refused as upstream refuses it, though there is no pool here.
        if executor is None and max_workers < 1:  # type: ignore[operator]
            raise ValueError("max_workers must be at least 1")
        self._rebalance: Optional["asyncio.Task[None]"] = None
        self._rebalance_exc: Optional[BaseException] = None
        self._tasks = Tasks(self._report, lambda: self._wake.loop)
        self._c = Consumer(self._tasks.adapt({**(consumer_conf or {}), **kwargs}))
        self._wake = Wakeup(self._c._io_event_fd(), self._collect)
        self._results: Dict[int, "asyncio.Future[Any]"] = {}
        self._tokens = itertools.count(1)
        self._user_assigned = False
        self._closed = False

    def _report(self, exc: BaseException) -> None:
        """An ``async def`` callback raised: surface it from the next poll() or consume()."""
        if self._rebalance_exc is None:
            self._rebalance_exc = exc

    # ---- wake-ups --------------------------------------------------------------------------

    def _collect(self) -> None:
        """Hand finished awaited requests (commits) to their futures."""
        if not self._results:
            return
        try:
            done = self._c._aio_results()
        except RuntimeError:
            return
        for token, value, exc in done:
            fut = self._results.pop(token, None)
            if fut is None or fut.done():
                continue
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(value)

    @property
    def _native(self) -> Consumer:
        return self._c

    def _enter(self) -> asyncio.AbstractEventLoop:
        if self._closed:
            raise RuntimeError("Consumer closed")
        return self._wake.bind()

    async def _settle_rebalance(self) -> None:
        """Wait for an awaited rebalance callback, and raise what it raised."""
        task = self._rebalance
        if task is not None and not task.done():
            await asyncio.shield(task)
        if self._rebalance_exc is not None:
            exc, self._rebalance_exc = self._rebalance_exc, None
            raise exc

    # ---- rebalance callbacks ---------------------------------------------------------------

    def _wrap(self, cb: Optional[RebalanceCallback], assign: bool) -> Optional[Callable[..., None]]:
        if cb is None:
            return None
        if not (inspect.iscoroutinefunction(cb) or inspect.iscoroutinefunction(getattr(cb, "__call__", None))):
            def plain(_consumer: Consumer, partitions: List[TopicPartition]) -> None:
                cb(self, partitions)
            return plain

        def deferred(_consumer: Consumer, partitions: List[TopicPartition]) -> None:
            # Runs inside poll(0): librdkafka waits for the assignment change, which is made
            # after the coroutine finished (unless it assigned by itself).
            self._c._defer_rebalance()
            self._user_assigned = False
            loop = self._wake.loop or asyncio.get_running_loop()
            self._rebalance = loop.create_task(self._run_rebalance(cb, assign, partitions))
        return deferred

    async def _run_rebalance(self, cb: RebalanceCallback, assign: bool, partitions: List[TopicPartition]) -> None:
        try:
            await cb(self, partitions)  # type: ignore[misc]
        except BaseException as e:  # surfaces from the next poll()/consume()
            if self._rebalance_exc is None:
                self._rebalance_exc = e
        if not self._user_assigned and not self._closed:
            try:
                self._c._rebalance_finish(assign, partitions)
            except Exception as e:
                if self._rebalance_exc is None:
                    self._rebalance_exc = e

    async def subscribe(self, topics: List[str], on_assign: Optional[RebalanceCallback] = None,
                        on_revoke: Optional[RebalanceCallback] = None,
                        on_lost: Optional[RebalanceCallback] = None) -> None:
        """Join the group for these topics. Callbacks (plain or ``async def``) get
        ``(consumer, partitions)``; when they do not assign, the consumer assigns by itself.

        :param topics: list of topic names or ^regular expressions.
        :param on_assign: callback (consumer, partitions) on assignment; may be ``async def``.
        :param on_revoke: callback (consumer, partitions) on revocation; may be ``async def``.
        :param on_lost: callback (consumer, partitions) when the assignment was lost; may be ``async def``.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.subscribe(topics, on_assign=self._wrap(on_assign, True), on_revoke=self._wrap(on_revoke, False),
                          on_lost=self._wrap(on_lost, False))

    async def unsubscribe(self) -> None:
        """Leave the subscription."""
        self._enter()
        self._c.unsubscribe()

    # ---- fetching --------------------------------------------------------------------------

    async def poll(self, timeout: Optional[float] = None) -> Optional[Message]:
        """The next message or error event, waiting up to ``timeout`` seconds (None: forever).

        Returns None on timeout. Cancelling the call loses no message: messages are only taken
        from librdkafka after the wait is over.

        :param timeout: seconds to wait; None waits without limit.
        :returns: a Message (check its error()), or None on timeout.
        :raises RuntimeError: when the consumer is closed.
        """
        _slices.check_timeout(timeout)
        loop = self._enter()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        c = self._c
        while True:
            await self._settle_rebalance()
            msg = c.poll(0)
            if msg is not None:
                return msg
            if self._rebalance is not None and not self._rebalance.done():
                continue
            left = _TICK if deadline is None else min(_TICK, deadline - loop.time())
            if left <= 0:
                return None
            await self._wake.wait(left)

    @overload
    async def consume(self, num_messages: int = ..., timeout: Optional[float] = ...,
                      by_partition: Literal[False] = ...) -> List[Message]: ...

    @overload
    async def consume(self, num_messages: int = ..., timeout: Optional[float] = ..., *,
                      by_partition: Literal[True]) -> Dict[TopicPartition, List[Message]]: ...

    async def consume(self, num_messages: int = 1, timeout: Optional[float] = None,
                      by_partition: bool = False) -> Union[List[Message], Dict[TopicPartition, List[Message]]]:
        """Up to ``num_messages`` messages: all that are ready now, else waits up to ``timeout``
        seconds (None: forever) for the first ones to arrive (aiokafka's getmany).

        With ``by_partition`` the result is a dict of ``TopicPartition -> [Message]``.

        :param num_messages: the most messages to return.
        :param timeout: seconds to wait; None waits without limit.
        :param by_partition: group the messages by partition.
        :returns: list of Message, or a dict of TopicPartition to list of Message with by_partition.
        :raises RuntimeError: when the consumer is closed.
        """
        msgs: List[Message] = await self._fetch(self._c.consume, (num_messages, 0), timeout)
        if not by_partition:
            return msgs
        grouped: Dict[TopicPartition, List[Message]] = {}
        for m in msgs:
            grouped.setdefault(TopicPartition(m.topic() or "", m.partition() or 0), []).append(m)
        return grouped

    async def _fetch(self, take: Callable[..., Any], args: Tuple[Any, ...], timeout: Optional[float]) -> Any:
        """``take(*args)``, a call that takes what librdkafka has ready without waiting, until it
        returns something (true), waiting up to ``timeout`` seconds (None: forever) for the
        next wake-up in between; its last result (consume() and the aiokafka facade's getmany())."""
        _slices.check_timeout(timeout)
        loop = self._enter()
        deadline = None if timeout is None or timeout < 0 else loop.time() + timeout
        while True:
            await self._settle_rebalance()
            got = take(*args)
            if got:
                return got
            if self._rebalance is not None and not self._rebalance.done():
                continue
            left = _TICK if deadline is None else min(_TICK, deadline - loop.time())
            if left <= 0:
                return got
            await self._wake.wait(left)

    def __aiter__(self) -> "AIOConsumer":
        return self

    async def __anext__(self) -> Message:
        """The next message; error events raise KafkaException, end-of-partition notices are
        skipped; iteration stops when the consumer is closed."""
        while True:
            if self._closed:
                raise StopAsyncIteration
            try:
                msg = await AIOConsumer.poll(self)
            except RuntimeError:
                if self._closed:
                    raise StopAsyncIteration
                raise
            if msg is None:
                continue
            err = msg.error()
            if err is None:
                return await self._iterated(msg)
            if err.code() != KafkaError._PARTITION_EOF:
                raise self._iteration_error(err, msg)

    async def _iterated(self, msg: Message) -> Message:
        """What ``async for`` yields for ``msg`` (subclasses deserialize it)."""
        return msg

    def _iteration_error(self, err: KafkaError, msg: Message) -> Exception:
        """What ``async for`` raises for an error event."""
        return KafkaException(err)

    # ---- offsets ---------------------------------------------------------------------------

    async def commit(self, message: Optional[Message] = None, offsets: Optional[List[TopicPartition]] = None,
                     asynchronous: bool = False) -> Optional[List[TopicPartition]]:
        """Commit the offset after ``message``, the given ``offsets``, or the current positions.

        Waits for the broker's answer and returns the committed partitions, unless
        ``asynchronous`` (then returns None at once; the result goes to ``on_commit``).

        :param message: commit the offset after this message.
        :param offsets: list of TopicPartition to commit.
        :param asynchronous: return without waiting for the result.
        :returns: None when asynchronous, else the committed list of TopicPartition.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        loop = self._enter()
        if asynchronous:
            self._c.commit(message=message, offsets=offsets, asynchronous=True)
            return None
        token = next(self._tokens)
        fut: "asyncio.Future[List[TopicPartition]]" = loop.create_future()
        self._results[token] = fut
        try:
            self._c._commit_start(token, message, offsets)
        except BaseException:
            del self._results[token]
            raise
        try:
            return await fut
        finally:
            self._results.pop(token, None)

    async def store_offsets(self, message: Optional[Message] = None,
                            offsets: Optional[List[TopicPartition]] = None) -> None:
        """Store offsets for the next (auto-)commit.

        :param message: store the offset after this message.
        :param offsets: list of TopicPartition to store.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.store_offsets(message=message, offsets=offsets)

    async def committed(self, partitions: List[TopicPartition], timeout: Optional[float] = None) -> List[TopicPartition]:
        """The group's committed offsets for these partitions (queried in bounded slices).

        :param partitions: list of TopicPartition.
        :param timeout: seconds to wait; None waits without limit.
        :returns: list of TopicPartition with the committed offsets.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        result: List[TopicPartition] = await _slices.bounded(lambda t: self._c.committed(partitions, t), timeout)
        return result

    async def offsets_for_times(self, partitions: List[TopicPartition],
                                timeout: Optional[float] = None) -> List[TopicPartition]:
        """The earliest offsets whose timestamps are >= the given ones (bounded slices).

        :param partitions: list of TopicPartition whose offset is a timestamp in ms.
        :param timeout: seconds to wait; None waits without limit.
        :returns: list of TopicPartition with the found offsets.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        result: List[TopicPartition] = await _slices.bounded(
            lambda t: self._c.offsets_for_times(partitions, t), timeout)
        return result

    async def position(self, partitions: List[TopicPartition]) -> List[TopicPartition]:
        """The next offsets to be fetched (local, never blocks).

        :param partitions: list of TopicPartition.
        :returns: list of TopicPartition with the current positions.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.position(partitions)

    async def seek(self, partition: TopicPartition) -> None:
        """Move the fetch position of an assigned partition.

        :param partition: TopicPartition with the offset to fetch next.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.seek(partition)

    async def get_watermark_offsets(self, partition: TopicPartition, timeout: Optional[float] = None,
                                    cached: bool = False) -> Any:
        """(low, high) offsets of a partition: cached ones at once, or queried in bounded slices.

        :param partition: TopicPartition.
        :param timeout: seconds to wait; None waits without limit.
        :param cached: use the locally cached values instead of asking the broker.
        :returns: (low, high) tuple of int, or None when cached and unknown.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        if cached:
            return self._c.get_watermark_offsets(partition, cached=True)
        return await _slices.bounded(lambda t: self._c.get_watermark_offsets(partition, t), timeout)

    # ---- assignment ------------------------------------------------------------------------

    async def assign(self, partitions: List[TopicPartition]) -> None:
        """Replace the assignment (also from an ``async`` rebalance callback).

        :param partitions: list of TopicPartition (offsets optional).
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.assign(partitions)
        self._user_assigned = True

    async def unassign(self) -> None:
        """Drop the assignment."""
        self._enter()
        self._c.unassign()
        self._user_assigned = True

    async def incremental_assign(self, partitions: List[TopicPartition]) -> None:
        """Add partitions to the assignment (cooperative protocol).

        :param partitions: list of TopicPartition.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.incremental_assign(partitions)
        self._user_assigned = True

    async def incremental_unassign(self, partitions: List[TopicPartition]) -> None:
        """Remove partitions from the assignment (cooperative protocol).

        :param partitions: list of TopicPartition.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.incremental_unassign(partitions)
        self._user_assigned = True

    async def assignment(self) -> List[TopicPartition]:
        """The current assignment.

        :returns: list of TopicPartition currently assigned.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.assignment()

    async def subscription(self) -> List[str]:
        """The subscribed topic names.

        :returns: list of the subscribed topic names.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.subscription()

    async def pause(self, partitions: List[TopicPartition]) -> None:
        """Stop fetching these partitions.

        :param partitions: list of TopicPartition.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.pause(partitions)

    async def resume(self, partitions: List[TopicPartition]) -> None:
        """Resume fetching these partitions.

        :param partitions: list of TopicPartition.
        :raises ~confluent_kafka.KafkaException: when librdkafka reports an error.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        self._c.resume(partitions)

    async def paused(self) -> List[TopicPartition]:
        """Assigned partitions paused by pause().

        :returns: list of TopicPartition.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.paused()

    async def memberid(self) -> Optional[str]:
        """This member's id in the group, or None before joining.

        :returns: the group member id, or None when not in a group.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.memberid()

    async def consumer_group_metadata(self) -> bytes:
        """For AIOProducer.send_offsets_to_transaction().

        :returns: the group metadata, opaque bytes.
        :raises RuntimeError: when the consumer is closed.
        """
        self._enter()
        return self._c.consumer_group_metadata()

    # ---- lifetime --------------------------------------------------------------------------

    async def close(self) -> None:
        """Leave the group (committing when auto-commit is on, running revoke callbacks) and
        release the client, without blocking the loop. Idempotent."""
        if self._closed:
            return
        if self._rebalance is not None and self._rebalance is asyncio.current_task():
            # The leave would wait for this very callback to finish.
            raise RuntimeError("a Consumer cannot be closed from inside one of its own callbacks")
        loop = self._wake.bind()
        c = self._c
        try:
            await self._settle_rebalance()
        except Exception:
            pass
        c._close_start()
        deadline = loop.time() + _CLOSE_BOUND
        raised: Optional[BaseException] = None
        while True:
            task = self._rebalance
            if task is not None and not task.done():
                # An awaited callback is waited for (nothing more is served meanwhile), in slices:
                # should the group terminate, a commit it awaits is never answered.
                await asyncio.wait({task}, timeout=0.1)
                if not task.done() and c._group_closed():
                    self._fail_unanswered()
                continue
            if loop.time() >= deadline:
                break
            try:
                done = c._close_serve()
            except Exception as e:  # a plain rebalance callback raised: finish, then re-raise
                raised = raised or e
                done = False
            started = self._rebalance
            if started is not None and not started.done():
                continue  # the leave's revoke started an awaited callback: that first
            if done:
                self._fail_unanswered()
                break
            await self._wake.wait(0.1)
        self._closed = True
        self._rebalance_exc = None
        for fut in self._results.values():
            if not fut.done():
                fut.set_exception(RuntimeError("Consumer closed"))
        self._results.clear()
        self._wake.unbind()
        c.close()
        await self._tasks.settle()
        if raised is not None:
            raise raised

    def _fail_unanswered(self) -> None:
        """The group has left and terminated: an awaited commit not answered by now never will be
        (librdkafka drops what reaches a terminated group), so a revoke callback awaiting one
        would hold close() forever."""
        self._collect()
        for fut in self._results.values():
            if not fut.done():
                fut.set_exception(KafkaException(KafkaError(
                    KafkaError._DESTROY,
                    "Commit failed: the consumer left its group and closed before the commit was answered")))

    async def __aenter__(self) -> "AIOConsumer":
        self._enter()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
