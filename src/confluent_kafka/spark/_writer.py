"""Write Arrow record batches from a Spark task to Kafka, and make the task fail on any loss.

Rows go to ``Producer.produce_batch`` as Arrow columns (no Python object per row). Only failed
deliveries are reported (``delivery.report.only.error``); the first one is kept and fails the
task, naming the Kafka error, after which Spark retries the task: writes are at-least-once.
With ``transactionalIdPrefix`` each task writes inside one transaction instead (see
:func:`write_batches`).
"""

from __future__ import annotations

import time
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from .. import KafkaError, KafkaException, Message, Producer
from . import _producers
from ._options import WriteOptions
from ._schema import pyarrow, pyarrow_compute

#: Columns of a write and the Arrow type families each may have (Spark's Kafka sink columns).
WRITE_COLUMNS = ("key", "value", "topic", "partition", "headers", "timestamp")
FULL_QUEUE_WAIT = 0.1  # seconds to serve the producer when its queue is full
TRANSACTION_TIMEOUT = 60.0  # seconds for init/commit/abort of a task's transaction


class DeliveryErrors:
    """The delivery callback of one task: counts failures and keeps the first."""

    def __init__(self) -> None:
        self.count = 0
        self.first: Optional[Tuple[KafkaError, str]] = None

    def __call__(self, err: Optional[KafkaError], msg: Message) -> None:
        if err is None:
            return
        self.count += 1
        if self.first is None:
            part = msg.partition()
            where = f"{msg.topic()}[{part}]" if part is not None and part >= 0 else \
                f"topic {msg.topic()!r} (no partition assigned yet)"
            self.first = (err, where)

    def check(self, done: int) -> None:
        """Raise KafkaException naming the first failure, if any."""
        if self.first is None:
            return
        err, where = self.first
        raise KafkaException(KafkaError(
            err.code(), f"Kafka delivery failed for {self.count} message(s) of this task "
                        f"({done} enqueued), first to {where}: {err.str()} ({err.name()}); "
                        f"the task fails so that Spark retries it"))


# Spark types (``DataType.simpleString()``) each column may have.
_COLUMN_TYPES = {
    "value": ("binary", "string"),
    "key": ("binary", "string"),
    "topic": ("string",),
    "partition": ("int",),
    "headers": ("array<struct<key:string,value:binary>>",),
    # a double is seconds since the epoch, as Spark's Kafka sink casts it
    "timestamp": ("timestamp", "timestamp_ntz", "double"),
}


def check_schema(fields: Iterable[Tuple[str, str]], topic_option: Optional[str],
                 encoded: Tuple[str, ...] = ()) -> None:
    """Refuse, before any task runs, a DataFrame that cannot be written: ``fields`` are
    ``(name, Spark type as simpleString)`` pairs; the columns named in ``encoded`` (``key``,
    ``value``) are encoded with the Schema Registry and may have any type their schema takes.
    Other columns (``offset`` and ``timestampType`` of a Kafka read, ...) are not written and
    may have any type, as with Spark's Kafka sink."""
    fields = [(name.lower(), kind) for name, kind in fields]
    names = [name for name, _ in fields]
    if "value" not in names:
        raise ValueError(f"a Kafka write needs a 'value' column; the DataFrame has {names}")
    if topic_option is None and "topic" not in names:
        raise ValueError("a Kafka write needs the option 'topic' or a 'topic' column")
    for name, kind in fields:
        allowed = _COLUMN_TYPES.get(name)
        if allowed is None:
            continue
        if kind not in allowed and name not in encoded:
            raise ValueError(f"column {name!r} has type {kind}; it must be {' or '.join(allowed)}")


def written_columns(names: Iterable[str]) -> List[str]:
    """The names among ``names`` that a write uses (any case), in their order."""
    return [n for n in names if n.lower() in WRITE_COLUMNS]


def _seconds_to_ms(column: Any) -> Any:
    """A double column of seconds since the epoch as int64 milliseconds, truncated toward zero
    as Spark's cast of a double to a timestamp does; NaN and infinities become null (now)."""
    pa, pc = pyarrow(), pyarrow_compute()
    ms = pc.multiply(column, pa.scalar(1000.0))
    finite = pc.is_finite(ms)
    ms = pc.if_else(finite, pc.trunc(ms), pa.scalar(None, pa.float64()))
    return pc.cast(ms, pa.int64(), safe=False)


def _column(batch: Any, name: str) -> Any:
    idx = batch.schema.get_field_index(name)
    return batch.column(idx) if idx >= 0 else None


def _by_topic(batch: Any, topic_option: Optional[str]) -> Iterator[Tuple[str, Any]]:
    """``(topic, rows)`` pairs: the whole batch when the option names the topic or the column
    holds one topic, else one filtered batch per topic (order kept within each)."""
    if topic_option is not None:
        yield topic_option, batch
        return
    pc = pyarrow_compute()
    topics = _column(batch, "topic")
    if topics.null_count:
        raise ValueError("a row has a null 'topic' and no 'topic' option is set")
    distinct = pc.unique(topics).to_pylist()
    if len(distinct) == 1:
        yield distinct[0], batch
        return
    for topic in distinct:
        yield topic, batch.filter(pc.equal(topics, topic))


def _produce(p: Producer, topic: str, batch: Any, errors: DeliveryErrors, deadline: float) -> None:
    n = batch.num_rows
    values, keys = _column(batch, "value"), _column(batch, "key")
    partitions, headers, stamps = _column(batch, "partition"), _column(batch, "headers"), _column(batch, "timestamp")
    sent = 0
    while sent < n:
        try:
            sent += p.produce_batch(
                topic, values.slice(sent), -1 if partitions is None else partitions.slice(sent), errors,
                keys=None if keys is None else keys.slice(sent),
                headers=None if headers is None else headers.slice(sent),
                timestamps=None if stamps is None else stamps.slice(sent))
        except BufferError:
            if time.monotonic() > deadline:
                raise KafkaException(KafkaError(KafkaError._QUEUE_FULL,
                                                "the producer queue stayed full past flushTimeoutMs")) from None
            p.poll(FULL_QUEUE_WAIT)
            errors.check(sent)


def _flush(p: Producer, deadline: float) -> None:
    while True:
        left = p.flush(max(0.0, min(1.0, deadline - time.monotonic())))
        if left == 0:
            return
        if time.monotonic() > deadline:
            raise KafkaException(KafkaError(KafkaError._TIMED_OUT,
                                            f"{left} message(s) still undelivered after flushTimeoutMs"))


def _init_transactions(p: Producer) -> None:
    p.init_transactions(TRANSACTION_TIMEOUT)


def write_batches(opts: WriteOptions, batches: Iterable[Any], task_id: Optional[int] = None) -> int:
    """Produce every row of ``batches``; returns the row count once all are delivered.

    At-least-once: the first delivery error fails the call (Spark retries the task). With
    ``opts.transactional_id_prefix`` the rows go inside one transaction, with transactional id
    ``<prefix>-<task_id>``: committed at the end, aborted on any failure, and a retry of the task
    fences an earlier attempt that is still alive.
    """
    conf: Dict[str, str] = dict(opts.conf)
    transactional = opts.transactional_id_prefix is not None
    if transactional:
        if task_id is None:
            raise ValueError("a transactional write needs the task's partition id")
        conf["transactional.id"] = f"{opts.transactional_id_prefix}-{task_id}"
    deadline = time.monotonic() + opts.flush_timeout
    errors = DeliveryErrors()
    rows = 0
    encode = None
    if opts.schemas:
        from ._codecs import BatchEncoder

        encode = BatchEncoder(opts.schemas, opts.column_types or {})
    try:
        p = _producers.get(conf, _init_transactions if transactional else None)
        if transactional:
            p.begin_transaction()
        for batch in batches:
            names = batch.schema.names
            used = written_columns(names)
            if len(used) != len(names):
                batch = batch.select(used)
            batch = batch.rename_columns([n.lower() for n in used])
            stamps = _column(batch, "timestamp")
            if stamps is not None and pyarrow().types.is_floating(stamps.type):
                batch = batch.set_column(batch.schema.get_field_index("timestamp"), "timestamp",
                                         _seconds_to_ms(stamps))
            if encode is not None:
                batch = encode(batch)
            for topic, rows_of_topic in _by_topic(batch, opts.topic):
                _produce(p, topic, rows_of_topic, errors, deadline)
            rows += batch.num_rows
            p.poll(0)
            errors.check(rows)
        _flush(p, deadline)
        errors.check(rows)
        if transactional:
            p.commit_transaction(TRANSACTION_TIMEOUT)
    except BaseException:
        _producers.discard(conf)  # aborts an open transaction, drops what is queued
        raise
    return rows

