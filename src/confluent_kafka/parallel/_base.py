"""What the thread and asyncio forms share: options, the dispatcher, and the owner's bookkeeping
that needs no I/O (which records to accept, what a commit sends, what its result means)."""

from __future__ import annotations

import logging
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..cimpl import KafkaError, KafkaException, TopicPartition
from ._dispatch import TP, Dispatcher, Work
from ._failures import HandlerError
from ._options import Options, consumer_config

logger = logging.getLogger("confluent_kafka.parallel")

# How long one consume() waits when nothing arrives: how quickly stop() and resumes are noticed by
# an idle owner. While records are in process it waits no longer than the next commit is due.
POLL_TIMEOUT = 0.1
# Records taken from the consumer at once.
CONSUME_BATCH = 500
# Bound on reading the group's commits (with their metadata) when partitions are assigned.
COMMITTED_TIMEOUT = 10.0


def topic_partitions(tps: Sequence[TP]) -> List[TopicPartition]:
    return [TopicPartition(topic, partition) for topic, partition in tps]


class ParallelBase:
    """State and bookkeeping common to :class:`ParallelConsumer` and :class:`AIOParallelConsumer`."""

    def __init__(self, conf: Mapping[str, Any], options: Dict[str, Any]) -> None:
        unknown = set(options) - Options.names()
        if unknown:
            raise TypeError(f"unknown option{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
        self._options = Options(**options)
        self._conf = consumer_config(conf, self._on_commit, self._options.max_waiting)
        self._dispatcher = Dispatcher(self._options.ordering, self._options.max_waiting,
                                      self._options.max_waiting_bytes, self._options.metadata_limit)
        self._topics: Optional[List[str]] = None
        self._sent: Dict[TP, Tuple[int, str]] = {}
        self._commit_pending = False
        self._leaving = False  # the final commit is made: close()'s revokes only release
        self._running = False
        self._closed = False
        self._next_commit = 0.0
        self._next_stats = 0.0

    def subscribe(self, topics: List[str]) -> None:
        """The topics to consume, as with ``Consumer.subscribe``; takes effect when ``run()`` starts."""
        if isinstance(topics, (str, bytes)) or not isinstance(topics, (list, tuple)):
            raise TypeError(f"topics must be a list of str, not {type(topics).__name__}")
        if not topics or not all(isinstance(t, str) and t for t in topics):
            raise ValueError(f"topics must be a non-empty list of non-empty str, got {topics!r}")
        self._topics = list(topics)

    def stats(self) -> Dict[str, Any]:
        """A snapshot: records in flight and waiting, per-partition progress, counters, latencies."""
        snapshot = self._dispatcher.snapshot()
        snapshot["running"] = self._running
        return snapshot

    # -- checks before run() -----------------------------------------------------------------

    def _check_startable(self, handler: Any) -> None:
        if not callable(handler):
            raise TypeError(f"handler must be callable, not {type(handler).__name__}")
        if self._closed:
            raise RuntimeError("the parallel consumer is closed")
        if self._running:
            raise RuntimeError("run() is already running")
        if self._topics is None:
            raise RuntimeError("call subscribe() before run()")

    # -- the owner's bookkeeping ---------------------------------------------------------------

    def _accept(self, messages: Sequence[Any]) -> int:
        """Hand consumed records to the dispatcher; how many it queued."""
        good = []
        for msg in messages:
            err = msg.error()
            if err is None:
                good.append(msg)
            elif err.fatal():
                raise KafkaException(err)
            elif err.code() != KafkaError._PARTITION_EOF:
                logger.warning("consumer error: %s", err)
        return self._dispatcher.add(good) if good else 0

    def _restore(self, committed: Sequence[TopicPartition]) -> None:
        self._dispatcher.assign(((p.topic, p.partition), p.offset if p.offset >= 0 else None, p.metadata)
                                for p in committed)

    def _commit_offsets(self, tps: Optional[Sequence[TP]]) -> List[TopicPartition]:
        commits = self._dispatcher.commits(tps)
        for tp, offset, metadata in commits:
            self._sent[tp] = (offset, metadata)
        return [TopicPartition(t, p, offset, metadata=metadata or None) for (t, p), offset, metadata in commits]

    def _committed(self, results: Optional[Sequence[TopicPartition]]) -> None:
        for p in results or ():
            tp = (p.topic, p.partition)
            sent = self._sent.pop(tp, None)
            if sent is not None and p.error is None:
                self._dispatcher.committed(tp, *sent)

    def _on_commit(self, err: Any, partitions: Any) -> None:
        """librdkafka's answer to an asynchronous commit, served by the owner's consume()."""
        self._commit_pending = False
        if err is not None:
            logger.warning("commit failed: %s", err)
            self._sent.clear()
            return
        self._committed(partitions)

    def _poll_timeout(self) -> float:
        """consume()'s wait: short enough that progress is committed when it is due."""
        if not self._dispatcher.in_flight and not self._commit_pending:
            return POLL_TIMEOUT
        return max(0.001, min(POLL_TIMEOUT, self._next_commit - time.monotonic()))

    def _commit_due(self, now: float) -> bool:
        if now < self._next_commit or self._commit_pending:
            return False
        self._next_commit = now + self._options.commit_interval
        return True

    def _stats_due(self, now: float) -> bool:
        if self._options.stats_cb is None or now < self._next_stats:
            return False
        self._next_stats = now + self._options.stats_interval
        return True

    def _start_clock(self) -> None:
        now = time.monotonic()
        self._next_commit = now + self._options.commit_interval
        self._next_stats = now + self._options.stats_interval

    def _release(self, tps: List[TP]) -> None:
        """Forget partitions at once: lost ones, or those close() revokes after the final commit."""
        self._dispatcher.revoke(tps)
        self._dispatcher.release(tps)

    def _failure(self) -> Optional[HandlerError]:
        failure = self._dispatcher.failure
        if failure is None:
            return None
        work, error = failure
        return HandlerError(work.msg, error, work.attempts)

    def _give_up_text(self, work: Work, error: BaseException) -> str:
        return (f"{work.tp[0]} [{work.tp[1]}] offset {work.offset} failed after {work.attempts} "
                f"attempt(s): {type(error).__name__}: {error}")

    # -- a handler's failure -------------------------------------------------------------------

    def _retry_delay(self, work: Work) -> Optional[float]:
        """The wait before calling the handler again, or None when the attempts are used up."""
        if work.attempts >= self._options.max_attempts:
            return None
        self._dispatcher.count("retries")
        return self._options.backoff(work.attempts)

    def _skip(self, work: Work, error: BaseException) -> None:
        logger.warning("skipping %s", self._give_up_text(work, error))
        self._dispatcher.count("skipped")
        self._dispatcher.finish(work)

    def _failed_for_good(self, work: Work, error: BaseException) -> bool:
        """Apply ``on_failure`` to a record whose attempts are used up: skip it or stop. True when it
        goes to the dead-letter topic instead: the caller writes it, then calls _dead_lettered()."""
        policy = self._options.on_failure
        if policy == "dead_letter":
            return True
        if policy == "skip":
            self._skip(work, error)
        else:
            self._stop_on(work, error)
        return False

    def _dead_lettered(self, work: Work, write_error: Optional[BaseException]) -> None:
        """The dead-letter write of ``work`` is acknowledged (its offset may be committed), or it
        failed with ``write_error`` (stop, as for a record that failed)."""
        if write_error is not None:
            self._stop_on(work, write_error)
            return
        self._dispatcher.count("dead_lettered")
        self._dispatcher.finish(work)

    def _stop_on(self, work: Work, error: BaseException) -> None:
        logger.error("stopping: %s", self._give_up_text(work, error))
        self._dispatcher.fail(work, error)
        self._request_stop()

    def _request_stop(self) -> None:
        raise NotImplementedError
