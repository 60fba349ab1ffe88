"""Read one offset range inside a Spark task, as Arrow record batches in Spark's Kafka layout."""

from __future__ import annotations

import time
from typing import Any, Dict, Iterator, List, Optional

from .. import Consumer, KafkaError, KafkaException, TopicPartition
from ._offsets import OffsetRange
from ._options import ReadOptions
from ._schema import arrow_schema, pyarrow_compute, to_spark_batch

BATCH_ROWS = 10_000  # messages per consume_arrow() call: one Arrow batch handed to Spark
POLL_SLICE = 1.0  # seconds per consume_arrow() wait, so the progress deadline is checked


class _LastError:
    """An ``error_cb`` keeping the last client-level error (broker down, ...), to name it when a
    read makes no progress."""

    def __init__(self) -> None:
        self.error: Optional[KafkaError] = None

    def __call__(self, err: KafkaError) -> None:
        self.error = err


def read_range(conf: Dict[str, str], rng: OffsetRange, include_headers: bool, poll_timeout: float,
               batch_rows: int = BATCH_ROWS) -> Iterator[Any]:
    """Yield ``pyarrow.RecordBatch`` es holding the messages of ``rng``, in offset order.

    Raises KafkaException with the client's last error when no message arrives for
    ``poll_timeout`` seconds (a broker that went away), and the consume error itself when the
    broker refuses the read (offset out of range with failOnDataLoss, no such topic, ...).
    """
    if rng.size == 0:
        return
    pc = pyarrow_compute()
    schema = arrow_schema(include_headers)
    last_error = _LastError()
    c = Consumer({**conf, "error_cb": last_error})
    try:
        c.assign([TopicPartition(rng.topic, rng.partition, rng.start)])
        pos = rng.start
        deadline = time.monotonic() + poll_timeout
        while pos < rng.end:
            batch = c.consume_arrow(min(batch_rows, rng.end - pos), POLL_SLICE,
                                    headers=include_headers).to_pyarrow()
            if batch.num_rows:
                offsets = batch.column("offset")
                last = offsets[-1].as_py()
                if last >= rng.end:  # the fetch ran past the range: keep what is inside
                    batch = batch.slice(0, pc.sum(pc.less(offsets, rng.end)).as_py() or 0)
                if batch.num_rows:
                    yield to_spark_batch(batch, schema)
                pos = last + 1
                deadline = time.monotonic() + poll_timeout
                continue
            # Nothing came: the range may end in offsets that hold no data (transaction
            # markers, compacted records), which only the position shows.
            position = c.position([TopicPartition(rng.topic, rng.partition)])[0].offset
            if position >= rng.end:
                break
            if time.monotonic() > deadline:
                cause = f": last client error {last_error.error}" if last_error.error is not None else ""
                raise KafkaException(KafkaError(
                    KafkaError._TIMED_OUT,
                    f"reading {rng.topic}[{rng.partition}] offsets {rng.start}..{rng.end}: no message "
                    f"at offset {pos} within {poll_timeout:g} s (kafkaConsumer.pollTimeoutMs){cause}"))
    finally:
        c.close()


def read_ranges(conf: Dict[str, str], ranges: List[OffsetRange], include_headers: bool,
                poll_timeout: float) -> Iterator[Any]:
    """:func:`read_range` over several ranges, one after the other."""
    for rng in ranges:
        yield from read_range(conf, rng, include_headers, poll_timeout)


def decoded(options: ReadOptions, batches: Iterator[Any]) -> Iterator[Any]:
    """``batches`` with their key / value decoded as ``options`` say (unchanged without
    valueFormat / keyFormat avro)."""
    if options.registry is None or not options.schemas:
        yield from batches
        return
    from ._codecs import BatchDecoder  # the codecs: only where something is decoded

    decode = BatchDecoder(options.registry, options.schemas)
    for batch in batches:
        out = decode(batch)
        if out.num_rows:
            yield out
