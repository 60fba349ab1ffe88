"""Structured Streaming: a micro-batch reader whose offsets Spark checkpoints, and a writer.

The reader supports ``Trigger.AvailableNow``: Spark then asks it to fix, once, the end offsets
of the run; the run reads up to them in as many micro-batches as ``maxOffsetsPerTrigger`` makes
and stops, leaving whatever was produced later to the next run.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from pyspark.sql.datasource import DataSourceStreamArrowWriter, DataSourceStreamReader, InputPartition, WriterCommitMessage

from ._offsets import (
    TP,
    OffsetMap,
    OffsetPlanner,
    from_offset_map,
    limit_offsets,
    make_ranges,
    split_ranges,
    to_offset_map,
)
from ._options import ReadOptions, WriteOptions
from ._source import KafkaCommitMessage, read_partition, reader_partitions, task_partition_id
from ._writer import write_batches

try:
    from pyspark.sql.streaming.datasource import SupportsTriggerAvailableNow
except ImportError:  # a Spark whose Python data sources have no Trigger.AvailableNow
    SupportsTriggerAvailableNow = object  # type: ignore[misc,assignment]


class KafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Reads each micro-batch's offset ranges; the offsets are ``{topic: {"partition": offset}}``
    (the JSON of Spark's Kafka source), so a checkpoint names exactly what was read."""

    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self.planner = OffsetPlanner(options)
        # With Trigger.AvailableNow: the end offsets fixed when the run began, never passed.
        self.target: Optional[Dict[TP, int]] = None

    def initialOffset(self) -> OffsetMap:
        """Where a new query starts: startingTimestamp, startingOffsetsByTimestamp or
        startingOffsets (default latest), in that order of precedence. Partitions the
        startingOffsets JSON leaves out start at their earliest offset, those the
        startingOffsetsByTimestamp JSON leaves out where startingOffsets says."""
        tps = self.planner.partitions()
        return to_offset_map(self.planner.starting_offsets(tps, self.planner.watermarks(tps)))

    def getDefaultReadLimit(self) -> Any:
        """maxOffsetsPerTrigger as a row limit, else everything available."""
        from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

        n = self.options.max_offsets_per_trigger
        return ReadMaxRows(n) if n else ReadAllAvailable()

    def latestOffset(self, start: OffsetMap, limit: Any) -> OffsetMap:
        """The end of the next micro-batch: the current end of every partition (with
        Trigger.AvailableNow the end fixed for the run), within limit."""
        from pyspark.sql.streaming.datasource import ReadMaxRows

        starts, ends = self._bounds(from_offset_map(start))
        for tp, off in starts.items():
            if ends[tp] < off:
                if self.options.fail_on_data_loss:
                    raise ValueError(f"{tp[0]}[{tp[1]}] ends at offset {ends[tp]}, before the checkpointed "
                                     f"offset {off}: data was lost (set failOnDataLoss=false to go on)")
                ends[tp] = off
        max_rows = limit.max_rows if isinstance(limit, ReadMaxRows) else None
        return to_offset_map(limit_offsets(starts, ends, max_rows))

    def prepareForTriggerAvailableNow(self) -> None:
        """Called by Spark before a ``Trigger.AvailableNow`` run: fix the run's end at the
        current end of every partition covered now, so that messages produced later are left
        to the next run (latestOffset never goes past these offsets)."""
        self.target = self.planner.latest()

    def _bounds(self, start: Dict[TP, int]) -> Tuple[Dict[TP, int], Dict[TP, int]]:
        """Start and end of every partition the next micro-batch may read: the current ends of
        the partitions covered now, or with Trigger.AvailableNow the ends fixed for the run
        (a partition that appeared after the run began is not read by this run)."""
        if self.target is None:
            starts = self._starts(start, self.planner.partitions())
            return starts, self.planner.latest(sorted(starts))
        starts = self._starts(start, sorted(self.target))
        return starts, {tp: self.target.get(tp, off) for tp, off in starts.items()}

    def reportLatestOffset(self) -> Optional[OffsetMap]:
        """The current end of every partition, for the query's progress report."""
        return to_offset_map(self.planner.latest())

    def _starts(self, starts: Dict[Any, int], tps: List[Any]) -> Dict[Any, int]:
        """``starts`` plus the partitions that appeared since, at their earliest offset."""
        new = [tp for tp in tps if tp not in starts]
        return {**starts, **(self.planner.earliest(new) if new else {})}

    def partitions(self, start: OffsetMap, end: OffsetMap) -> Sequence[InputPartition]:
        """One task per partition with new offsets (more with minPartitions)."""
        ends = from_offset_map(end)
        starts = self._starts(from_offset_map(start), sorted(ends))
        ranges = split_ranges(make_ranges(starts, ends), self.options.min_partitions)
        return reader_partitions(ranges) if ranges else []

    def read(self, partition: InputPartition) -> Iterator[Any]:
        """Arrow record batches of the partition's messages, in Spark's Kafka schema."""
        return read_partition(self.options, partition)

    def commit(self, end: OffsetMap) -> None:
        """Nothing to do: Spark's checkpoint holds the offsets; no consumer group is used."""

    def stop(self) -> None:
        """Close the planning consumer."""
        self.planner.close()


class FailedStreamReader(DataSourceStreamReader):
    """The reader of a streaming query whose options are wrong: every call raises the error, so
    that the query fails with it at its start."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def initialOffset(self) -> OffsetMap:
        """Raise the options' error."""
        raise self.error

    def latestOffset(self, start: OffsetMap, limit: Any) -> OffsetMap:
        """Raise the options' error."""
        raise self.error

    def partitions(self, start: OffsetMap, end: OffsetMap) -> Sequence[InputPartition]:
        """Raise the options' error."""
        raise self.error

    def read(self, partition: InputPartition) -> Iterator[Any]:
        """Raise the options' error."""
        raise self.error

    def commit(self, end: OffsetMap) -> None:
        """Nothing was read."""

    def stop(self) -> None:
        """Nothing to close."""


class KafkaStreamWriter(DataSourceStreamArrowWriter):
    """Every micro-batch task produces its rows and flushes before it reports success."""

    def __init__(self, options: WriteOptions) -> None:
        self.options = options

    def write(self, iterator: Iterator[Any]) -> KafkaCommitMessage:
        """Produce all rows of this task's Arrow batches; raises on any delivery error."""
        return KafkaCommitMessage(write_batches(self.options, iterator, task_partition_id()))

    def commit(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:
        """Nothing to do: every task's rows were delivered before the task ended."""

    def abort(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:
        """Nothing to undo: rows already delivered by other tasks stay (at-least-once)."""
