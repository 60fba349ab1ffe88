"""The schema of Kafka rows in Spark, and the cheap Arrow conversion of consumed batches to it.

The columns and types are those of Spark's built-in Kafka source, so a query reads the same
whichever of the two it uses. ``Consumer.consume_arrow`` already gives almost this layout; the
differences (names, the timestamp unit, Kafka's timestamp-type numbering) are fixed in Arrow
without touching the key and value buffers.
"""

from __future__ import annotations

import importlib
from typing import Any, Dict, Optional


def pyarrow() -> Any:
    """The ``pyarrow`` module (imported where used: the driver of a write never needs it)."""
    return importlib.import_module("pyarrow")


def pyarrow_compute() -> Any:
    """The ``pyarrow.compute`` module."""
    return importlib.import_module("pyarrow.compute")

#: The read schema as Spark DDL, without and with the headers column (``includeHeaders``).
READ_DDL = ("key binary, value binary, topic string, partition int, offset long, "
            "timestamp timestamp, timestampType int")
HEADERS_DDL = "headers array<struct<key: string, value: binary>>"


def read_ddl(include_headers: bool) -> str:
    """The DDL schema of a read, with the headers column when ``include_headers``."""
    return f"{READ_DDL}, {HEADERS_DDL}" if include_headers else READ_DDL


def arrow_schema(include_headers: bool) -> Any:
    """The Arrow schema Spark expects for :func:`read_ddl` (what ``to_arrow_schema`` derives)."""
    pa = pyarrow()
    fields = [
        pa.field("key", pa.binary()),
        pa.field("value", pa.binary()),
        pa.field("topic", pa.string()),
        pa.field("partition", pa.int32()),
        pa.field("offset", pa.int64()),
        pa.field("timestamp", pa.timestamp("us", tz="UTC")),
        pa.field("timestampType", pa.int32()),
    ]
    if include_headers:
        header = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])
        fields.append(pa.field("headers", pa.list_(pa.field("element", header))))
    return pa.schema(fields)


def to_spark_batch(batch: Any, schema: Any) -> Any:
    """A ``consume_arrow`` record batch in the Spark layout ``schema`` (from :func:`arrow_schema`).

    Kafka numbers timestamp types -1 (none), 0 (create time), 1 (log append time); librdkafka
    numbers the same three 0, 1, 2.
    """
    pa, pc = pyarrow(), pyarrow_compute()
    columns = [
        batch.column("key"),
        batch.column("value"),
        batch.column("topic"),
        batch.column("partition"),
        batch.column("offset"),
        batch.column("timestamp").cast(schema.field("timestamp").type),
        pc.subtract(batch.column("timestamp_type"), pa.scalar(1, pa.int32())),
    ]
    if len(schema) > len(columns):
        columns.append(batch.column("headers").cast(schema.field("headers").type))
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def read_struct(include_headers: bool) -> Any:
    """:func:`read_ddl` as a ``pyspark.sql.types.StructType`` (built without a session)."""
    from pyspark.sql.types import (ArrayType, BinaryType, IntegerType, LongType, StringType, StructField,
                                   StructType, TimestampType)

    fields = [StructField("key", BinaryType()), StructField("value", BinaryType()),
              StructField("topic", StringType()), StructField("partition", IntegerType()),
              StructField("offset", LongType()), StructField("timestamp", TimestampType()),
              StructField("timestampType", IntegerType())]
    if include_headers:
        fields.append(StructField("headers", ArrayType(StructType([StructField("key", StringType()),
                                                                   StructField("value", BinaryType())]))))
    return StructType(fields)


def read_schema(include_headers: bool, schemas: Optional[Dict[str, Any]] = None) -> Any:
    """The schema of a read: :func:`read_ddl`, or, when ``schemas`` (the
    :class:`~confluent_kafka.spark._registry.ResolvedSchema` of decoded columns by name) is
    given, a ``StructType`` whose ``key`` / ``value`` have the Spark types of their reader
    schemas (Avro, JSON Schema or Protobuf)."""
    if not schemas:
        return read_ddl(include_headers)
    from pyspark.sql.types import StructField, StructType

    from ._codecs import spark_type

    return StructType([StructField(f.name, spark_type(schemas[f.name]), True)
                       if f.name in schemas else f for f in read_struct(include_headers).fields])


def through_structs(column: Any, dtype: Any, leaf: Any) -> Any:
    """``column`` (an Arrow column of Spark type ``dtype``) with ``leaf(child, its Spark type)``
    applied to every column that is not a struct, through nested structs (not into arrays and
    maps); ``column`` itself where nothing changed. Lets an encoder convert values in Arrow, not
    one Python value at a time.

    :param leaf: ``leaf(column, dtype) -> column``.
    """
    from pyspark.sql import types as T

    if not isinstance(dtype, T.StructType):
        return leaf(column, dtype)
    flat = column.flatten()
    children = [through_structs(child, f.dataType, leaf) for child, f in zip(flat, dtype.fields)]
    if all(c is o for c, o in zip(children, flat)):
        return column
    mask = column.is_null() if column.null_count else None
    return pyarrow().StructArray.from_arrays(children, names=dtype.fieldNames(), mask=mask)
