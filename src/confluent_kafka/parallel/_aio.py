"""AIOParallelConsumer: ``async def`` handlers as asyncio tasks over AIOConsumer; no thread runs."""

from __future__ import annotations

import asyncio
import inspect
import signal
import threading
import time
from typing import Any, Awaitable, Callable, List, Mapping, Optional, Set

from ..aio import AIOConsumer, AIOProducer
from ..cimpl import KafkaException, TopicPartition
from ._base import COMMITTED_TIMEOUT, CONSUME_BATCH, ParallelBase, logger, topic_partitions
from ._dispatch import TP, Work
from ._failures import DeadLetterError, dead_letter_headers
from ._options import dead_letter_config

AsyncHandler = Callable[[Any], Awaitable[Any]]


class AIOParallelConsumer(ParallelBase):
    """:class:`~confluent_kafka.parallel.ParallelConsumer` for ``async def`` handlers.

    Up to ``max_concurrency`` handler calls run as tasks on the event loop that awaits
    :meth:`run`; the same ordering, commit, backpressure and failure rules apply.
    """

    def __init__(self, conf: Mapping[str, Any], **options: Any) -> None:
        super().__init__(conf, options)
        self._consumer = AIOConsumer(self._conf)
        self._producer: Optional[AIOProducer] = None
        self._stopping = threading.Event()
        # Set when records were added (workers waiting take them) and when a record finished
        # (a revoke or stop waiting for records in process looks again).
        self._ready: Optional[asyncio.Event] = None
        self._progress: Optional[asyncio.Event] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._tasks: Set["asyncio.Task[None]"] = set()
        self._handler: Optional[AsyncHandler] = None

    def stop(self) -> None:
        """Ask run() to return; safe from any thread and from a handler."""
        self._stopping.set()

    _request_stop = stop

    async def close(self) -> None:
        """Release the consumer; run() does this itself when it returns."""
        if self._running:
            raise RuntimeError("close() while run() is running: call stop() and let run() return")
        if not self._closed:
            self._closed = True
            await self._consumer.close()

    async def __aenter__(self) -> "AIOParallelConsumer":
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._running:
            self.stop()
        else:
            await self.close()

    async def run(self, handler: AsyncHandler) -> None:
        """Consume and process until stop(), SIGINT or SIGTERM; then finish the records in process
        (bounded by ``revoke_timeout``), commit and close.

        Raises :class:`HandlerError` when a record fails for good under ``on_failure="stop"``.
        """
        self._check_startable(handler)
        if not (inspect.iscoroutinefunction(handler) or inspect.iscoroutinefunction(
                getattr(handler, "__call__", None))):
            raise TypeError("handler must be an async def function: use ParallelConsumer for plain ones")
        o = self._options
        self._loop = asyncio.get_running_loop()
        self._progress = asyncio.Event()
        self._ready = asyncio.Event()
        self._handler = handler
        if o.on_failure == "dead_letter":
            self._producer = AIOProducer(dead_letter_config(self._conf, o.dead_letter_config))
        self._running = True
        signals = self._install_signals()
        for _ in range(o.max_concurrency):
            task = self._loop.create_task(self._work())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        try:
            await self._consumer.subscribe(self._topics, on_assign=self._on_assign,  # type: ignore[arg-type]
                                           on_revoke=self._on_revoke, on_lost=self._on_lost)
            await self._owner()
        finally:
            try:
                await self._shutdown()
            finally:
                for signum in signals:
                    self._loop.remove_signal_handler(signum)
                self._running = False
                self._closed = True
        failure = self._failure()
        if failure is not None:
            raise failure from failure.error

    # -- the owner -----------------------------------------------------------------------------

    async def _owner(self) -> None:
        consumer, dispatcher, ready = self._consumer, self._dispatcher, self._ready
        assert ready is not None
        self._start_clock()
        while not self._stopping.is_set():
            if self._accept(await consumer.consume(CONSUME_BATCH, self._poll_timeout())):
                ready.set()
            pause, resume = dispatcher.backpressure()
            if pause:
                await consumer.pause(topic_partitions(pause))
            if resume:
                await consumer.resume(topic_partitions(resume))
            now = time.monotonic()
            if self._commit_due(now):
                offsets = self._commit_offsets(None)
                if offsets:
                    self._commit_pending = True
                    await consumer.commit(offsets=offsets, asynchronous=True)
            if self._stats_due(now):
                marks = {}
                for tp in dispatcher.assigned():
                    got = await consumer.get_watermark_offsets(TopicPartition(*tp), cached=True)
                    marks[tp] = got[1] if got else -1
                dispatcher.set_high_watermarks(marks)
                self._options.stats_cb(self.stats())  # type: ignore[misc]

    async def _shutdown(self) -> None:
        self._dispatcher.close()
        self._stopping.set()  # a record waiting to be retried gives up: it runs again after a restart
        self._ready.set()  # type: ignore[union-attr]
        if not await self._wait_idle(None):
            logger.warning("%d record(s) still in process after revoke_timeout; they run again after a restart",
                           self._dispatcher.in_flight)
            for task in self._tasks:
                task.cancel()
        await self._commit_sync(None)
        self._leaving = True  # as in ParallelConsumer._shutdown: close()'s revokes only release
        await self._consumer.close()
        if self._producer is not None:
            await self._producer.close(self._options.revoke_timeout)

    async def _wait_idle(self, tps: Optional[List[TP]]) -> bool:
        deadline = time.monotonic() + self._options.revoke_timeout
        progress = self._progress
        assert progress is not None
        while self._dispatcher.busy(tps):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            progress.clear()
            try:
                await asyncio.wait_for(progress.wait(), min(left, 0.5))
            except asyncio.TimeoutError:
                continue
        return True

    async def _commit_sync(self, tps: Optional[List[TP]]) -> None:
        offsets = self._commit_offsets(tps)
        if not offsets:
            return
        try:
            self._committed(await self._consumer.commit(offsets=offsets, asynchronous=False))
        except KafkaException as exc:
            self._sent.clear()
            logger.warning("commit failed: %s", exc)

    async def _on_assign(self, consumer: AIOConsumer, partitions: List[Any]) -> None:
        try:
            committed = await consumer.committed(partitions, COMMITTED_TIMEOUT)
        except KafkaException as exc:
            logger.warning("reading the group's commits failed (%s): finished records are processed again", exc)
            committed = partitions
        self._restore(committed)

    async def _on_revoke(self, consumer: AIOConsumer, partitions: List[Any]) -> None:
        tps = [(p.topic, p.partition) for p in partitions]
        if self._leaving:
            self._release(tps)
            return
        self._dispatcher.revoke(tps)
        if not await self._wait_idle(tps):
            logger.warning("records of revoked partitions still in process after revoke_timeout; "
                           "releasing them uncommitted")
        await self._commit_sync(tps)
        self._dispatcher.release(tps)

    async def _on_lost(self, consumer: AIOConsumer, partitions: List[Any]) -> None:
        self._release([(p.topic, p.partition) for p in partitions])

    def _install_signals(self) -> List[int]:
        if threading.current_thread() is not threading.main_thread():
            return []
        installed: List[int] = []
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self._loop.add_signal_handler(signum, self._stopping.set)  # type: ignore[union-attr]
            except (NotImplementedError, RuntimeError, ValueError):
                continue
            installed.append(signum)
        return installed

    # -- the tasks -----------------------------------------------------------------------------

    async def _work(self) -> None:
        """One of max_concurrency worker tasks: the next record whose key is free, until closed."""
        dispatcher, ready = self._dispatcher, self._ready
        assert ready is not None
        while True:
            work = dispatcher.take(0)
            if work is not None:
                await self._process(work)
                continue
            if dispatcher.closed:
                return
            ready.clear()
            await ready.wait()

    async def _process(self, work: Work) -> None:
        handler = self._handler
        assert handler is not None
        try:
            while True:
                work.attempts += 1
                start = time.perf_counter()
                try:
                    await handler(work.msg)
                except asyncio.CancelledError:
                    self._dispatcher.abandon(work)
                    raise
                except Exception as exc:
                    delay = self._retry_delay(work)
                    if delay is None:
                        await self._give_up(work, exc)
                        return
                    await asyncio.sleep(delay)
                    if self._stopping.is_set():
                        self._dispatcher.abandon(work)
                        return
                    continue
                except BaseException as exc:  # SystemExit and the like: no retry
                    self._stop_on(work, exc)
                    return
                self._dispatcher.finish(work, time.perf_counter() - start)
                return
        finally:
            self._progress.set()  # type: ignore[union-attr]

    async def _give_up(self, work: Work, error: BaseException) -> None:
        if self._failed_for_good(work, error):
            try:
                await self._dead_letter(work, error)
            except Exception as exc:
                self._dead_lettered(work, exc)
            else:
                self._dead_lettered(work, None)

    async def _dead_letter(self, work: Work, error: BaseException) -> None:
        producer = self._producer
        assert producer is not None
        msg = work.msg
        try:
            delivery = await producer.produce(self._options.dead_letter_topic, value=msg.value(), key=msg.key(),  # type: ignore[arg-type]
                                              headers=dead_letter_headers(msg, error, work.attempts))
            await asyncio.wait_for(delivery, 60.0)
        except (KafkaException, asyncio.TimeoutError) as exc:
            raise DeadLetterError(f"writing to dead-letter topic {self._options.dead_letter_topic!r} failed: "
                                  f"{exc}") from exc
