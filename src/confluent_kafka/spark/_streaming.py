"""Structured Streaming: a micro-batch reader whose offsets Spark checkpoints, and a writer."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence

from pyspark.sql.datasource import DataSourceStreamArrowWriter, DataSourceStreamReader, InputPartition, WriterCommitMessage

from ._offsets import (
    OffsetMap,
    OffsetPlanner,
    from_offset_map,
    limit_offsets,
    make_ranges,
    split_ranges,
    to_offset_map,
)
from ._options import EARLIEST, ReadOptions, WriteOptions
from ._source import KafkaCommitMessage, read_partition, reader_partitions, task_partition_id
from ._writer import write_batches


class KafkaStreamReader(DataSourceStreamReader):
    """Reads each micro-batch's offset ranges; the offsets are ``{topic: {"partition": offset}}``
    (the JSON of Spark's Kafka source), so a checkpoint names exactly what was read."""

    def __init__(self, options: ReadOptions) -> None:
        self.options = options
        self.planner = OffsetPlanner(options)

    def initialOffset(self) -> OffsetMap:
        """Where a new query starts: startingOffsets (default latest); partitions the JSON form
        leaves out start at their earliest offset."""
        tps = self.planner.partitions()
        marks = self.planner.watermarks(tps)
        return to_offset_map(self.planner.resolve(self.options.starting, tps, marks, EARLIEST, "startingOffsets"))

    def getDefaultReadLimit(self) -> Any:
        """maxOffsetsPerTrigger as a row limit, else everything available."""
        from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

        n = self.options.max_offsets_per_trigger
        return ReadMaxRows(n) if n else ReadAllAvailable()

    def latestOffset(self, start: OffsetMap, limit: Any) -> OffsetMap:
        """The end of the next micro-batch: the current end of every partition, within limit."""
        from pyspark.sql.streaming.datasource import ReadMaxRows

        starts = self._starts(from_offset_map(start), self.planner.partitions())
        ends = self.planner.latest(sorted(starts))
        for tp, off in starts.items():
            if ends[tp] < off:
                if self.options.fail_on_data_loss:
                    raise ValueError(f"{tp[0]}[{tp[1]}] ends at offset {ends[tp]}, before the checkpointed "
                                     f"offset {off}: data was lost (set failOnDataLoss=false to go on)")
                ends[tp] = off
        max_rows = limit.max_rows if isinstance(limit, ReadMaxRows) else None
        return to_offset_map(limit_offsets(starts, ends, max_rows))

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
