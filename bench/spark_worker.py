"""One side of the Spark benchmark, in its own process: a local[2] SparkSession that writes
``--rows`` rows of ``--size`` bytes to Kafka and reads them back, ``--repeat`` times, and prints
one JSON object with the wall time of every write and read.

``--client ours`` uses this project's data source (``confluent_kafka.spark``). ``--client
upstream`` runs, under upstream confluent-kafka's interpreter, the pattern its users write by
hand: ``mapInArrow`` with a Producer cached per Python worker (delivery reports for errors only,
a flush per task), and for reads one task per partition that assigns the partition, consumes up
to the planned end offset with ``consume(num_messages)`` and builds an Arrow batch from the
Message objects. Both read the same columns (Spark's Kafka schema without headers) and run the
same aggregation over them.

Both sides read every partition from offset 0 (the topics are fresh): the upstream pattern
assigns offset 0, and the data source is given ``startingOffsets`` with offset 0 of each
partition rather than left to ask the broker. tansu gives a produced batch its offsets before it
stores it and answers ListOffsets(EARLIEST) with the batch it stored first; when two Spark tasks
write a partition's first batches at once, that can be the second one, and a read from
``earliest`` then skips the first (docs/reliability.md). Writes go on as before: several tasks
into every partition.

``--client ours`` also times, ``--repeat`` times, the same DataFrame written to a Python data
source whose Arrow writer drops every batch: Spark's own cost of handing rows to a Python
sink, which no Python sink (this one or any other) can go below.

``--client avro`` (this project's interpreter, with ``--registry-url``) writes Schema Registry
framed Avro records with ``valueFormat=avro`` and reads them back into columns three ways: the
data source's ``valueFormat=avro`` (decoded per Arrow batch in the tasks), Spark's own pattern of
``substring(value, 6)`` and a decoder per record (a pandas UDF with fastavro, standing in for
``from_avro``, whose spark-avro jar is not in the pyspark wheel), and a plain binary read of the
same topic (the cost of reading, without decoding). ``--client json`` and ``--client protobuf``
do the same with ``valueFormat=json`` / ``protobuf``; their baselines are ``substring(value, 6)``
then Spark's own ``from_json`` (JSON), and ``substring(value, 7)`` then a pandas UDF parsing
each record with the protobuf library (Protobuf: spark-protobuf's jar is not in the pyspark
wheel either).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Dict, Iterable, Iterator, List, Set

READ_DDL = ("key binary, value binary, topic string, partition int, offset long, "
            "timestamp timestamp, timestampType int")


def session() -> Any:
    from pyspark.sql import SparkSession

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (SparkSession.builder.master("local[2]").appName("kafka-spark-bench")
         .config("spark.ui.enabled", "false")
         .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.python.unix.domain.socket.enabled", "true")
         .config("spark.sql.session.timeZone", "UTC")
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    return s


def source_frame(spark: Any, rows: int, size: int, tasks: int) -> Any:
    """``rows`` values of exactly ``size`` bytes (the row number, padded), in ``tasks`` partitions."""
    return spark.range(0, rows, 1, tasks).selectExpr(f"cast(lpad(cast(id AS string), {size}, 'x') AS binary) AS value")


def from_zero(topic: str, partitions: Iterable[Any]) -> str:
    """``startingOffsets`` naming offset 0 of each partition of a fresh topic (see the module
    docstring for why the start is said, not looked up)."""
    return json.dumps({topic: {str(p): 0 for p in partitions}})


def topic_partitions(bootstrap: str, topic: str) -> List[int]:
    """The partition ids of ``topic``."""
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    try:
        return sorted(admin.list_topics(topic, timeout=30).topics[topic].partitions)
    finally:
        admin.close()


def aggregate(df: Any) -> List[Any]:
    """What both sides do with what they read: every column reaches Spark, then one row."""
    return df.selectExpr("count(*)", "sum(length(value))", "max(offset)", "count(DISTINCT partition)").collect()


# ---- when a read comes back short: which side lost the rows --------------------------------

def broker_view(bootstrap: str, topic: str, partitions: List[int]) -> Dict[str, Any]:
    """What the broker holds, read with a plain Consumer: per partition the messages from the
    beginning to the end of partition and both high watermarks (ListOffsets, and the one the
    last Fetch response carried); over all partitions the distinct row ids (values are row numbers
    padded with 'x', see :func:`source_frame`), so rows never stored show as missing ids."""
    from confluent_kafka import Consumer, KafkaError, TopicPartition

    out: Dict[str, Any] = {}
    ids: Set[bytes] = set()
    for part in partitions:
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"bench-check-{topic}",
                      "enable.partition.eof": True, "enable.auto.commit": False})
        try:
            start, listed = c.get_watermark_offsets(TopicPartition(topic, part), timeout=10)
            c.assign([TopicPartition(topic, part, 0)])
            count, last, eof = 0, -1, False
            deadline = time.monotonic() + 120
            while not eof and time.monotonic() < deadline:
                for m in c.consume(10_000, 1.0):
                    err = m.error()
                    if err is not None:
                        eof = eof or err.code() == KafkaError._PARTITION_EOF
                        continue
                    count, last = count + 1, m.offset() or 0
                    ids.add((m.value() or b"").lstrip(b"x"))
            fetched = c.get_watermark_offsets(TopicPartition(topic, part), cached=True)[1]
            out[str(part)] = {"messages": count, "last_offset": last, "reached_end": eof,
                              "list_offsets_start": start, "list_offsets_end": listed,
                              "fetch_high_watermark": fetched}
        finally:
            c.close()
    out["distinct_rows"] = len(ids)
    return out


def short_read_report(spark: Any, client: str, bootstrap: str, topic: str, ends: Dict[str, int],
                      rows: int) -> str:
    """The evidence to tell a write that lost rows from a read that missed them: the end offsets
    the harness planned, the broker's own view (:func:`broker_view`), and (``ours``) what a
    second read through the data source counts per partition."""
    report: Dict[str, Any] = {"planned_ends": ends,
                              "broker": broker_view(bootstrap, topic, sorted(int(p) for p in ends))}
    if client == "ours":
        again = spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap) \
            .option("subscribe", topic).option("startingOffsets", from_zero(topic, ends)).load().groupBy("partition") \
            .agg({"*": "count", "offset": "max"}).collect()
        report["second_read"] = {str(r["partition"]): {"rows": r["count(1)"], "max_offset": r["max(offset)"]}
                                 for r in again}
    report["wanted_rows"] = rows
    return json.dumps(report, sort_keys=True)


# ---- the floor: a Python sink that does nothing ------------------------------------------------

def register_null_sink(spark: Any) -> None:
    """Register format ``bench_null_sink``: an Arrow writer that takes every batch and writes nothing."""
    from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, WriterCommitMessage

    class NullWriter(DataSourceArrowWriter):
        def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
            for _ in iterator:  # every batch is handed over, then dropped
                pass
            return WriterCommitMessage()

    class NullSink(DataSource):
        @classmethod
        def name(cls) -> str:
            return "bench_null_sink"

        def writer(self, schema: Any, overwrite: bool) -> NullWriter:
            return NullWriter()

    spark.dataSource.register(NullSink)


def null_write(df: Any) -> None:
    df.write.format("bench_null_sink").mode("append").save()


# ---- ours ------------------------------------------------------------------------------------

def ours_write(spark: Any, df: Any, bootstrap: str, topic: str) -> None:
    df.write.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", topic) \
        .mode("append").save()


def ours_read(spark: Any, bootstrap: str, topic: str, ends: Dict[str, int]) -> List[Any]:
    return aggregate(spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap)
                     .option("subscribe", topic).option("startingOffsets", from_zero(topic, ends)).load())


# ---- upstream: the hand-written pattern -------------------------------------------------------

_producers: Dict[Any, Any] = {}


def upstream_write(spark: Any, df: Any, bootstrap: str, topic: str) -> None:
    conf = {"bootstrap.servers": bootstrap, "delivery.report.only.error": True}

    def task(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from confluent_kafka import Producer

        key = (os.getpid(), bootstrap)
        p = _producers.get(key)
        if p is None:
            p = _producers[key] = Producer(conf)
        failed: List[Any] = []

        def on_delivery(err: Any, msg: Any) -> None:
            if err is not None:
                failed.append(err)

        n = 0
        for batch in batches:
            for value in batch.column(0).to_pylist():
                while True:
                    try:
                        p.produce(topic, value, on_delivery=on_delivery)
                        break
                    except BufferError:
                        p.poll(0.1)
                n += 1
            p.poll(0)
        while p.flush(1.0):
            pass
        if failed:
            raise RuntimeError(f"{len(failed)} deliveries failed: {failed[0]}")
        yield pa.RecordBatch.from_pydict({"n": pa.array([n], pa.int64())})

    df.mapInArrow(task, "n long").collect()


def upstream_read(spark: Any, bootstrap: str, topic: str, ends: Dict[str, int]) -> List[Any]:
    parts = sorted(int(p) for p in ends)
    conf = {"bootstrap.servers": bootstrap, "group.id": f"bench-{topic}", "enable.auto.commit": False}

    def task(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from confluent_kafka import Consumer, TopicPartition

        schema = pa.schema([("key", pa.binary()), ("value", pa.binary()), ("topic", pa.string()),
                            ("partition", pa.int32()), ("offset", pa.int64()),
                            ("timestamp", pa.timestamp("us", tz="UTC")), ("timestampType", pa.int32())])
        for b in batches:
            for i in b.column(0).to_pylist():
                part, end = parts[i], ends[str(parts[i])]
                c = Consumer(conf)
                c.assign([TopicPartition(topic, part, 0)])
                pos = 0
                while pos < end:
                    msgs = [m for m in c.consume(10_000, 1.0) if m.error() is None and m.offset() < end]
                    if not msgs:
                        continue
                    pos = msgs[-1].offset() + 1
                    yield pa.RecordBatch.from_arrays([
                        pa.array([m.key() for m in msgs], pa.binary()),
                        pa.array([m.value() for m in msgs], pa.binary()),
                        pa.array([m.topic() for m in msgs], pa.string()),
                        pa.array([m.partition() for m in msgs], pa.int32()),
                        pa.array([m.offset() for m in msgs], pa.int64()),
                        pa.array([m.timestamp()[1] * 1000 for m in msgs], pa.int64()).cast(schema.field(5).type),
                        pa.array([m.timestamp()[0] - 1 for m in msgs], pa.int32()),
                    ], schema=schema)
                c.close()

    return aggregate(spark.range(0, len(parts), 1, len(parts)).mapInArrow(task, READ_DDL))


# ---- Schema Registry Avro: decoding into columns ----------------------------------------------

AVRO_VALUE = ("named_struct('id', id, 'name', concat('user-', id), 'score', cast(id AS double) / 2,"
              " 'placed', timestamp_millis(1700000000000 + id), 'tags', array('a', cast(id % 10 AS string)),"
              " 'active', id % 2 = 0, 'note', CASE WHEN id % 3 = 0 THEN NULL ELSE 'note' END) AS value")


def avro_frame(spark: Any, rows: int, tasks: int) -> Any:
    """``rows`` records of seven fields (long, string, double, timestamp, array, boolean, nullable
    string), about 50 B of Avro each."""
    return spark.range(0, rows, 1, tasks).selectExpr(AVRO_VALUE)


def avro_aggregate(df: Any) -> List[Any]:
    """What every Avro read does with its rows: every field reaches Spark, then one row."""
    return df.selectExpr("count(*)", "sum(value.id)", "max(value.placed)", "sum(size(value.tags))",
                         "count(value.note)", "sum(cast(value.active AS int))", "sum(length(value.name))",
                         "sum(value.score)").collect()


def avro_options(bootstrap: str, registry_url: str) -> Dict[str, str]:
    return {"kafka.bootstrap.servers": bootstrap, "schema.registry.url": registry_url}


def avro_read_ours(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    return avro_aggregate(spark.read.format("confluent_kafka").options(**avro_options(bootstrap, registry_url))
                          .option("subscribe", topic).option("startingOffsets", start)
                          .option("valueFormat", "avro").load())


def avro_read_binary(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    """The same topic read as bytes, nothing decoded: what reading costs before any decoding."""
    return aggregate(spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap)
                     .option("subscribe", topic).option("startingOffsets", start).load())


def avro_read_udf(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    """Spark's own pattern without the spark-avro jar: strip the 5-byte header with
    ``substring(value, 6)`` and decode the rest with one fixed schema (the subject's latest) in
    a pandas UDF (Arrow-backed) calling fastavro per record, as ``from_avro`` would with
    spark-avro on the classpath."""
    import io

    import fastavro
    import pandas as pd
    from pyspark.sql.functions import expr, pandas_udf

    from confluent_kafka.schema_registry import SchemaRegistryClient

    client = SchemaRegistryClient({"url": registry_url})
    schema_text = client.get_latest_version(f"{topic}-value").schema.schema_str
    client.close()
    parsed = fastavro.parse_schema(json.loads(schema_text))
    from pyspark.sql.types import StructField, StructType

    # what the UDF returns is nullable throughout (pandas knows no NOT NULL)
    value_type = StructType([StructField(f.name, f.dataType, True)
                             for f in avro_frame(spark, 1, 1).schema["value"].dataType.fields])
    names = value_type.fieldNames()

    def decode_batch(payloads: Any) -> Any:
        records = [fastavro.schemaless_reader(io.BytesIO(p), parsed, None) for p in payloads]
        return pd.DataFrame.from_records(records, columns=names)

    # real classes, not the strings of ``from __future__ import annotations``: Spark reads them
    decode_batch.__annotations__ = {"payloads": pd.Series, "return": pd.DataFrame}
    decode = pandas_udf(decode_batch, value_type)  # type: ignore[call-overload]

    raw = spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap) \
        .option("subscribe", topic).option("startingOffsets", start).load()
    return avro_aggregate(raw.select(decode(expr("substring(value, 6)")).alias("value")))


def json_read_ours(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    return avro_aggregate(spark.read.format("confluent_kafka").options(**avro_options(bootstrap, registry_url))
                          .option("subscribe", topic).option("startingOffsets", start)
                          .option("valueFormat", "json").load())


def json_read_from_json(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    """The pattern of Spark users: strip the 5-byte header with ``substring(value, 6)``, then
    Spark's own ``from_json`` (in the JVM) with the column's type."""
    from pyspark.sql.functions import expr, from_json

    value_type = avro_frame(spark, 1, 1).schema["value"].dataType
    raw = spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap) \
        .option("subscribe", topic).option("startingOffsets", start).load()
    return avro_aggregate(raw.select(from_json(expr("cast(substring(value, 6) AS string)"), value_type)
                                     .alias("value")))


def protobuf_read_ours(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    return avro_aggregate(spark.read.format("confluent_kafka").options(**avro_options(bootstrap, registry_url))
                          .option("subscribe", topic).option("startingOffsets", start)
                          .option("valueFormat", "protobuf").load())


def protobuf_read_udf(spark: Any, bootstrap: str, registry_url: str, topic: str, start: str) -> List[Any]:
    """The pattern of Spark users without spark-protobuf's jar (not in the pyspark wheel, and
    nothing offline provides it): strip the 5-byte header and the one-byte message index with
    ``substring(value, 7)``, then a pandas UDF (Arrow-backed) parsing each record with the
    protobuf library's message class and reading its fields into a row."""
    import pandas as pd
    from google.protobuf import message_factory
    from pyspark.sql.functions import expr, pandas_udf
    from pyspark.sql.types import StructField, StructType

    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.spark._protobuf_codec import descriptor
    from confluent_kafka.spark._registry import FieldFormat, _lookup_registered

    client = SchemaRegistryClient({"url": registry_url})  # the message class, as protoc would make it
    resolved = _lookup_registered(client, FieldFormat("value", "protobuf"), [topic], "the read")
    client.close()
    value_type = StructType([StructField(f.name, f.dataType, True)
                             for f in avro_frame(spark, 1, 1).schema["value"].dataType.fields])
    names = value_type.fieldNames()

    def decode_batch(payloads: Any) -> Any:
        # the class is built in the worker (descriptors do not pickle), once per process
        cls = message_factory.GetMessageClass(descriptor(resolved))
        rows = []
        for p in payloads:
            m = cls()
            m.ParseFromString(p)
            rows.append((m.id, m.name, m.score, m.placed.ToDatetime(), list(m.tags), m.active,
                         m.note if m.HasField("note") else None))
        return pd.DataFrame.from_records(rows, columns=names)

    decode_batch.__annotations__ = {"payloads": pd.Series, "return": pd.DataFrame}
    decode = pandas_udf(decode_batch, value_type)  # type: ignore[call-overload]
    raw = spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", bootstrap) \
        .option("subscribe", topic).option("startingOffsets", start).load()
    return avro_aggregate(raw.select(decode(expr("substring(value, 7)")).alias("value")))


#: The reads each registry run times: this source, the pattern of upstream's users, bytes only.
REGISTRY_READS = {
    "avro": {"ours": avro_read_ours, "udf": avro_read_udf, "binary": avro_read_binary},
    "json": {"ours": json_read_ours, "udf": json_read_from_json, "binary": avro_read_binary},
    "protobuf": {"ours": protobuf_read_ours, "udf": protobuf_read_udf, "binary": avro_read_binary},
}


def avro_main(args: argparse.Namespace) -> None:
    """Write ``--rows`` records with the registry in the format ``--client`` names (avro, json
    or protobuf), then read them back into columns three ways, ``--repeat`` times each (one
    topic per repeat, plus a warm-up topic)."""
    from confluent_kafka.spark import register

    t0 = time.monotonic()
    spark = session()
    register(spark)
    startup = time.monotonic() - t0
    topics = args.topics.split(",")
    fmt = args.client
    df = avro_frame(spark, args.rows, args.tasks)
    warm = avro_frame(spark, max(1, args.rows // 10), args.tasks)
    reads = REGISTRY_READS[fmt]

    def write(frame: Any, topic: str) -> None:
        frame.write.format("confluent_kafka").options(**avro_options(args.bootstrap, args.registry_url)) \
            .option("topic", topic).option("valueFormat", fmt).mode("append").save()

    write(warm, topics[0])
    for read in reads.values():
        read(spark, args.bootstrap, args.registry_url, topics[0],
             from_zero(topics[0], topic_partitions(args.bootstrap, topics[0])))
    results: Dict[str, Any] = {"client": fmt, "rows": args.rows, "startup_seconds": startup,
                               "write_seconds": [], **{f"read_{k}_seconds": [] for k in reads}}
    want = None
    for topic in topics[1:]:
        t = time.monotonic()
        write(df, topic)
        results["write_seconds"].append(time.monotonic() - t)
        start = from_zero(topic, topic_partitions(args.bootstrap, topic))  # untimed, as the harness's ends
        for name, read in reads.items():
            t = time.monotonic()
            (row,) = read(spark, args.bootstrap, args.registry_url, topic, start)
            results[f"read_{name}_seconds"].append(time.monotonic() - t)
            if row[0] != args.rows:
                raise SystemExit(f"{name}: read back {row[0]} rows, wanted {args.rows}")
            if name != "binary":
                if want is None:
                    want = tuple(row)
                elif tuple(row) != want:
                    raise SystemExit(f"{name}: read {tuple(row)}, the other decoder read {want}")
        print(json.dumps({"progress": topic}), flush=True)
    spark.stop()
    print(json.dumps(results), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--client", choices=("ours", "upstream", "avro", "json", "protobuf"), required=True)
    ap.add_argument("--registry-url", help="Schema Registry URL (--client avro, json, protobuf)")
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topics", required=True, help="comma-separated: a warm-up topic, then one fresh topic per repeat")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--size", type=int, default=100)
    ap.add_argument("--tasks", type=int, default=4, help="partitions of the written DataFrame")
    args = ap.parse_args()
    if args.client in REGISTRY_READS:
        avro_main(args)
        return
    write = ours_write if args.client == "ours" else upstream_write
    read = ours_read if args.client == "ours" else upstream_read

    t0 = time.monotonic()
    spark = session()
    if args.client == "ours":
        from confluent_kafka.spark import register

        register(spark)
        register_null_sink(spark)
    startup = time.monotonic() - t0
    df = source_frame(spark, args.rows, args.size, args.tasks)
    # warm-up, untimed: the first jobs of a session pay for starting the Python workers, their
    # imports and the JVM's JIT; the first topic is written and read once before the timed runs
    topics = args.topics.split(",")
    warm = source_frame(spark, max(1, args.rows // 10), args.size, args.tasks)
    write(spark, warm, args.bootstrap, topics[0])
    print(json.dumps({"written": topics[0]}), flush=True)
    read(spark, args.bootstrap, topics[0], json.loads(sys.stdin.readline()))
    results: Dict[str, Any] = {"client": args.client, "rows": args.rows, "size": args.size,
                               "startup_seconds": startup, "write_seconds": [], "read_seconds": []}
    if args.client == "ours":
        results["handoff_seconds"] = []
        null_write(warm)
        for _ in topics[1:]:
            t = time.monotonic()
            null_write(df)
            results["handoff_seconds"].append(time.monotonic() - t)
    for topic in topics[1:]:
        t = time.monotonic()
        write(spark, df, args.bootstrap, topic)
        results["write_seconds"].append(time.monotonic() - t)
        # the harness looks up the end offset of every partition and hands them over (the
        # upstream pattern needs them; the data source plans its own, inside the timed read)
        print(json.dumps({"written": topic}), flush=True)
        ends = json.loads(sys.stdin.readline())
        t = time.monotonic()
        (row,) = read(spark, args.bootstrap, topic, ends)
        results["read_seconds"].append(time.monotonic() - t)
        if row[0] != args.rows or row[1] != args.rows * args.size:
            raise SystemExit(f"read back {row[0]} rows / {row[1]} bytes, wanted {args.rows} / {args.rows * args.size}; "
                             + short_read_report(spark, args.client, args.bootstrap, topic, ends, args.rows))
        print(json.dumps({"progress": topic}), flush=True)
    spark.stop()
    print(json.dumps(results), flush=True)


if __name__ == "__main__":
    main()
