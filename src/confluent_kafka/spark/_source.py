"""The Spark 4 Python data source: batch read and write, in the shape of Spark's Kafka source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.types import StructType

from ._offsets import OffsetPlanner, OffsetRange
from ._options import ReadOptions, Subscription, WriteOptions, _bool, _lower
from ._reader import decoded, read_ranges
from ._registry import ResolvedSchema, parse_registry_options, resolve_read
from ._schema import read_schema
from ._writer import check_schema, write_batches

#: The format name :func:`confluent_kafka.spark.register` uses by default. Spark reserves
#: ``kafka`` for its own connector even when that connector is not installed.
DEFAULT_NAME = "confluent_kafka"


class KafkaInputPartition(InputPartition):
    """The offset ranges one Spark task reads (``value``: a list of :class:`OffsetRange`)."""

    def __init__(self, ranges: List[OffsetRange]) -> None:
        super().__init__(ranges)


@dataclass
class KafkaCommitMessage(WriterCommitMessage):
    """What a write task reports back: how many rows it delivered."""

    rows: int


def task_partition_id() -> Optional[int]:
    """The Spark partition the current task works on (None outside a task)."""
    from pyspark import TaskContext

    tc = TaskContext.get()
    return tc.partitionId() if tc is not None else None


def reader_partitions(ranges: List[OffsetRange]) -> List[KafkaInputPartition]:
    """One input partition per range; an empty read still gets one (empty) task."""
    return [KafkaInputPartition([r]) for r in ranges] or [KafkaInputPartition([])]


def read_partition(options: ReadOptions, partition: InputPartition) -> Iterator[Any]:
    """The Arrow batches of one input partition (key and value decoded with the registry when
    the read says so)."""
    batches = read_ranges(options.consumer_conf(), partition.value, options.include_headers, options.poll_timeout)
    return decoded(options, batches)


def check_read_schema(options: ReadOptions, schema: Optional[StructType]) -> None:
    """Refuse a schema given with ``.schema(...)`` that is not the one the registry's reader
    schemas give (only for reads that decode: the Kafka columns are fixed, as in Spark)."""
    if options.registry is None or schema is None:
        return
    expected = read_schema(options.include_headers, options.schemas)
    if schema != expected:
        raise ValueError(f"the read's schema is fixed by the Schema Registry: {expected.simpleString()}; "
                         f"a different one was given: {schema.simpleString()}")


class KafkaBatchReader(DataSourceReader):
    """``spark.read``: plans offset ranges once, on the driver side; each task reads one."""

    def __init__(self, options: ReadOptions) -> None:
        self.options = options

    def partitions(self) -> Sequence[InputPartition]:
        """The offset ranges from startingOffsets to endingOffsets, split for minPartitions."""
        planner = OffsetPlanner(self.options)
        try:
            return reader_partitions(planner.batch_ranges())
        finally:
            planner.close()

    def read(self, partition: InputPartition) -> Iterator[Any]:
        """Arrow record batches of the partition's messages, in Spark's Kafka schema."""
        return read_partition(self.options, partition)


class KafkaBatchWriter(DataSourceArrowWriter):
    """``df.write``: every task produces its rows and flushes before it reports success."""

    def __init__(self, options: WriteOptions) -> None:
        self.options = options

    def write(self, iterator: Iterator[Any]) -> KafkaCommitMessage:
        """Produce all rows of this task's Arrow batches; raises on any delivery error."""
        return KafkaCommitMessage(write_batches(self.options, iterator, task_partition_id()))

    def commit(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        """Nothing to do: every task's rows were delivered before the task ended."""

    def abort(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        """Nothing to undo: rows already delivered by other tasks stay (at-least-once)."""


class KafkaDataSource(DataSource):
    """Kafka as a Spark data source through this package's client: no JVM connector needed.

    Options and schema follow Spark's built-in Kafka source and sink (see the Spark page of the
    documentation for the table).
    """

    @classmethod
    def name(cls) -> str:
        """The format name: ``spark.read.format("confluent_kafka")``."""
        return DEFAULT_NAME

    def schema(self) -> Any:
        """key, value, topic, partition, offset, timestamp, timestampType (+ headers); with
        valueFormat / keyFormat avro the value / key have the Spark type of the registry's
        reader schema, looked up here, once, and kept for the reader."""
        # Every option is checked here, when ``load()`` is called, as Spark's Kafka source does;
        # only what depends on batch or streaming waits for the reader.
        ReadOptions.parse(self.options, streaming=None)
        o = _lower(self.options)
        include_headers = _bool(o, "includeHeaders", False)
        registry = parse_registry_options(o, read=True)
        if registry is None:
            return read_schema(include_headers)
        self._schemas: Dict[str, ResolvedSchema] = resolve_read(registry, Subscription.parse(o).named_topics())
        return read_schema(include_headers, self._schemas)

    def _read_options(self, schema: Optional[StructType], streaming: bool) -> ReadOptions:
        options = ReadOptions.parse(self.options, streaming=streaming).with_schemas(getattr(self, "_schemas", None))
        check_read_schema(options, schema)
        return options

    def reader(self, schema: StructType) -> DataSourceReader:
        """A batch reader (``spark.read``); the options are checked here, on the driver."""
        return KafkaBatchReader(self._read_options(schema, streaming=False))

    def _write_options(self, schema: StructType) -> WriteOptions:
        options = WriteOptions.parse(self.options)
        check_schema(((f.name, f.dataType.simpleString()) for f in schema.fields), options.topic,
                     options.encoded_columns())
        return options.with_schemas({f.name.lower(): f.dataType for f in schema.fields})

    def writer(self, schema: StructType, overwrite: bool) -> KafkaBatchWriter:
        """A batch writer. ``overwrite`` (save mode Overwrite) is refused, as by Spark's Kafka
        sink: a topic cannot be overwritten. With valueFormat / keyFormat avro the writer
        schemas are looked up or registered here."""
        if overwrite:
            from ._writers_patch import REFUSED_MODE

            raise ValueError(REFUSED_MODE.format(mode="Overwrite"))
        return KafkaBatchWriter(self._write_options(schema))

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        """A micro-batch reader (``spark.readStream``); offsets are checkpointed by Spark."""
        from ._streaming import FailedStreamReader, KafkaStreamReader

        try:
            options = self._read_options(schema, streaming=True)
        except ValueError as exc:
            # Raised from here, PySpark's stream runner buries the error under an
            # UnboundLocalError of its own; the reader raises it at its first call instead.
            return FailedStreamReader(exc)
        return KafkaStreamReader(options)

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        """A micro-batch writer (``df.writeStream``), at-least-once like the batch writer."""
        from ._streaming import KafkaStreamWriter

        return KafkaStreamWriter(self._write_options(schema))
