"""ParallelConsumer: handlers on a pool of worker threads; the thread in run() owns the Consumer."""

from __future__ import annotations

import inspect
import signal
import threading
import time
from typing import Any, Callable, Dict, List, Mapping, Optional

from ..cimpl import Consumer, KafkaException, Producer, TopicPartition
from ._base import COMMITTED_TIMEOUT, CONSUME_BATCH, ParallelBase, logger, topic_partitions
from ._dispatch import Work
from ._failures import DeadLetterError, dead_letter_headers
from ._options import dead_letter_config

Handler = Callable[[Any], Any]


class ParallelConsumer(ParallelBase):
    """A consumer whose handler runs on up to ``max_concurrency`` records at once.

    ``ordering="key"`` runs one record of a key at a time, in offset order (records without a key
    run in any order); ``"partition"`` one record of a partition at a time; ``"unordered"`` any.
    Offsets are committed only up to the first record that has not finished, with the finished
    records above it named in the commit's metadata, so a restart neither loses nor (mostly)
    repeats work. See docs/parallel.md.
    """

    def __init__(self, conf: Mapping[str, Any], **options: Any) -> None:
        super().__init__(conf, options)
        self._consumer = Consumer(self._conf)
        self._stopping = threading.Event()
        self._producer: Optional[Producer] = None

    def stop(self) -> None:
        """Ask run() to return: from any thread, a handler or a signal handler."""
        self._stopping.set()

    _request_stop = stop

    def close(self) -> None:
        """Release the consumer; run() does this itself when it returns."""
        if self._running:
            raise RuntimeError("close() while run() is running: call stop() and let run() return")
        if not self._closed:
            self._closed = True
            self._consumer.close()

    def __enter__(self) -> "ParallelConsumer":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._running:
            self.stop()
        else:
            self.close()

    def run(self, handler: Handler) -> None:
        """Consume and process until stop(), SIGINT or SIGTERM; then finish the records in process
        (bounded by ``revoke_timeout``), commit and close.

        Raises :class:`HandlerError` when a record fails for good under ``on_failure="stop"``.
        """
        self._check_startable(handler)
        if inspect.iscoroutinefunction(handler):
            raise TypeError("handler is a coroutine function: use AIOParallelConsumer for async handlers")
        o = self._options
        if o.on_failure == "dead_letter":
            self._producer = Producer(dead_letter_config(self._conf, o.dead_letter_config))
        self._running = True
        workers = [threading.Thread(target=self._work, args=(handler,), daemon=True,
                                    name=f"parallel-consumer-{i}") for i in range(o.max_concurrency)]
        for worker in workers:
            worker.start()
        previous = self._install_signals()
        try:
            self._consumer.subscribe(self._topics, on_assign=self._on_assign,  # type: ignore[arg-type]
                                     on_revoke=self._on_revoke, on_lost=self._on_lost)
            self._loop()
        finally:
            try:
                self._shutdown()
            finally:
                self._restore_signals(previous)
                self._running = False
                self._closed = True
                for worker in workers:
                    worker.join(0.1)
        failure = self._failure()
        if failure is not None:
            raise failure from failure.error

    # -- the owner -----------------------------------------------------------------------------

    def _loop(self) -> None:
        consumer, dispatcher = self._consumer, self._dispatcher
        self._start_clock()
        while not self._stopping.is_set():
            self._accept(consumer.consume(CONSUME_BATCH, self._poll_timeout()))
            pause, resume = dispatcher.backpressure()
            if pause:
                consumer.pause(topic_partitions(pause))
            if resume:
                consumer.resume(topic_partitions(resume))
            now = time.monotonic()
            if self._commit_due(now):
                offsets = self._commit_offsets(None)
                if offsets:
                    self._commit_pending = True
                    consumer.commit(offsets=offsets, asynchronous=True)
            if self._stats_due(now):
                dispatcher.set_high_watermarks({tp: self._high_watermark(tp) for tp in dispatcher.assigned()})
                self._options.stats_cb(self.stats())  # type: ignore[misc]

    def _high_watermark(self, tp: Any) -> int:
        try:
            return self._consumer.get_watermark_offsets(TopicPartition(*tp), cached=True)[1]
        except KafkaException:
            return -1

    def _shutdown(self) -> None:
        dispatcher = self._dispatcher
        dispatcher.close()
        self._stopping.set()  # a record waiting to be retried gives up: it runs again after a restart
        if not dispatcher.wait_idle(None, self._options.revoke_timeout):
            logger.warning("%d record(s) still in process after revoke_timeout; they run again after a restart",
                           dispatcher.in_flight)
        self._commit_sync(None)
        # The revokes close() serves find nothing new to commit, and a commit there can reach the
        # group as it terminates: librdkafka 2.14 then drops it unanswered or aborts the process
        # (rdkafka_cgrp.c's assert that no assignment is in progress).
        self._leaving = True
        self._consumer.close()
        if self._producer is not None:
            self._producer.close(self._options.revoke_timeout)

    def _commit_sync(self, tps: Optional[List[Any]]) -> None:
        offsets = self._commit_offsets(tps)
        if not offsets:
            return
        try:
            self._committed(self._consumer.commit(offsets=offsets, asynchronous=False))
        except KafkaException as exc:
            self._sent.clear()
            logger.warning("commit failed: %s", exc)

    def _on_assign(self, consumer: Consumer, partitions: List[Any]) -> None:
        try:
            committed = consumer.committed(partitions, COMMITTED_TIMEOUT)
        except KafkaException as exc:
            logger.warning("reading the group's commits failed (%s): finished records are processed again", exc)
            committed = partitions
        self._restore(committed)

    def _on_revoke(self, consumer: Consumer, partitions: List[Any]) -> None:
        tps = [(p.topic, p.partition) for p in partitions]
        if self._leaving:
            self._release(tps)
            return
        dispatcher = self._dispatcher
        dispatcher.revoke(tps)
        if not dispatcher.wait_idle(tps, self._options.revoke_timeout):
            logger.warning("records of revoked partitions still in process after revoke_timeout; "
                           "releasing them uncommitted")
        self._commit_sync(tps)
        dispatcher.release(tps)

    def _on_lost(self, consumer: Consumer, partitions: List[Any]) -> None:
        self._release([(p.topic, p.partition) for p in partitions])

    def _install_signals(self) -> Dict[int, Any]:
        if threading.current_thread() is not threading.main_thread():
            return {}
        previous: Dict[int, Any] = {}
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                previous[signum] = signal.signal(signum, lambda _s, _f: self._stopping.set())
            except (ValueError, OSError):
                continue
        return previous

    @staticmethod
    def _restore_signals(previous: Dict[int, Any]) -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    # -- the workers -----------------------------------------------------------------------------

    def _work(self, handler: Handler) -> None:
        take = self._dispatcher.take
        while True:
            work = take()
            if work is None:
                return
            self._process(work, handler)

    def _process(self, work: Work, handler: Handler) -> None:
        dispatcher = self._dispatcher
        while True:
            work.attempts += 1
            start = time.perf_counter()
            try:
                handler(work.msg)
            except Exception as exc:
                delay = self._retry_delay(work)
                if delay is None:
                    self._give_up(work, exc)
                    return
                if self._stopping.wait(delay):
                    dispatcher.abandon(work)
                    return
                continue
            except BaseException as exc:  # SystemExit and the like: no retry
                self._stop_on(work, exc)
                return
            dispatcher.finish(work, time.perf_counter() - start)
            return

    def _give_up(self, work: Work, error: BaseException) -> None:
        if self._failed_for_good(work, error):
            try:
                self._dead_letter(work, error)
            except Exception as exc:
                self._dead_lettered(work, exc)
            else:
                self._dead_lettered(work, None)

    def _dead_letter(self, work: Work, error: BaseException) -> None:
        """Write the record to the dead-letter topic and wait for the broker's acknowledgement."""
        producer = self._producer
        assert producer is not None
        msg = work.msg
        outcome: List[Any] = []
        delivered = threading.Event()

        def on_delivery(err: Any, _msg: Any) -> None:
            outcome.append(err)
            delivered.set()

        deadline = time.monotonic() + 60.0
        while True:
            try:
                producer.produce(self._options.dead_letter_topic or "", value=msg.value(), key=msg.key(),
                                 headers=dead_letter_headers(msg, error, work.attempts), on_delivery=on_delivery)
                break
            except BufferError:
                if time.monotonic() > deadline:
                    raise DeadLetterError("the dead-letter producer's queue stayed full") from None
                producer.poll(0.1)
        while not delivered.is_set():
            if time.monotonic() > deadline:
                raise DeadLetterError("no acknowledgement of the dead-letter write in 60 s")
            producer.poll(0.1)
        if outcome[0] is not None:
            raise DeadLetterError(f"writing to dead-letter topic {self._options.dead_letter_topic!r} failed: "
                                  f"{outcome[0]}")
