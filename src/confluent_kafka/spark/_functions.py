"""Function API for Spark 3.3+ (no Python data source API): ``write(df, ...)`` and
``read(spark, ...)`` on ``mapInArrow``, with the same options, schema and semantics as the
data source."""

from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Optional

from ._offsets import OffsetPlanner
from ._options import ReadOptions, WriteOptions
from ._reader import decoded, read_range
from ._schema import pyarrow, read_schema
from ._writer import check_schema, write_batches, written_columns


def _merge(options: Optional[Mapping[str, Any]], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
    merged: Dict[str, Any] = dict(options or {})
    merged.update(kwargs)
    return merged


def write(df: Any, topic: Optional[str] = None, options: Optional[Mapping[str, Any]] = None,
          **kwargs: Any) -> int:
    """Write ``df`` (columns value, and optionally key, topic, partition, headers, timestamp)
    to Kafka; returns how many rows were delivered.

    ``options`` are the data source's (``{"kafka.bootstrap.servers": ...}``); keyword arguments
    are merged over them. Each Spark task flushes its producer and fails on any delivery error,
    so Spark retries it (at-least-once).
    """
    merged = _merge(options, kwargs)
    if topic is not None:
        merged["topic"] = topic
    opts = WriteOptions.parse(merged)
    check_schema(((f.name, f.dataType.simpleString()) for f in df.schema.fields), opts.topic, opts.encoded_columns())
    opts = opts.with_schemas({f.name.lower(): f.dataType for f in df.schema.fields})
    used = written_columns(df.columns)
    if len(used) != len(df.columns):
        df = df.select(*used)  # columns a write does not use are not even handed to Python

    def task(batches: Iterator[Any]) -> Iterator[Any]:
        pa = pyarrow()
        from pyspark import TaskContext

        tc = TaskContext.get()
        rows = write_batches(opts, batches, tc.partitionId() if tc is not None else None)
        yield pa.RecordBatch.from_pydict({"rows": pa.array([rows], pa.int64())})

    return sum(int(r[0]) for r in df.mapInArrow(task, "rows long").collect())


def read(spark: Any, options: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> Any:
    """A DataFrame of the messages between the starting and ending options (offsets or
    timestamps, as for the data source), with the schema of the data source (key, value, topic,
    partition, offset, timestamp, timestampType, and headers with ``includeHeaders``). The offset
    ranges are fixed here, before any task runs."""
    opts = ReadOptions.parse(_merge(options, kwargs), streaming=False).with_schemas()
    planner = OffsetPlanner(opts)
    try:
        ranges = planner.batch_ranges()
    finally:
        planner.close()
    ddl = read_schema(opts.include_headers, opts.schemas)
    if not ranges:
        return spark.createDataFrame([], ddl)
    conf = opts.consumer_conf()

    def task(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            for i in batch.column(0).to_pylist():
                yield from decoded(opts, read_range(conf, ranges[i], opts.include_headers, opts.poll_timeout))

    return spark.range(0, len(ranges), 1, len(ranges)).mapInArrow(task, ddl)
