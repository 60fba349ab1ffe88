"""Schema Registry framed Avro through the data source, on local[2] against tansu + Karapace:
reads into typed columns (batch and streaming), writes of struct columns, evolution across two
schema versions, and records that do not decode in each mode."""

from __future__ import annotations

import datetime
import decimal
import json
from typing import Any, Callable, Dict, List, Optional

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")

from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import Schema, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

FORMAT = "confluent_kafka"

ORDER_V1 = {
    "type": "record", "name": "Order", "namespace": "shop", "fields": [
        {"name": "id", "type": "long"},
        {"name": "customer", "type": ["null", "string"], "default": None},
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
        {"name": "placed", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
        {"name": "lines", "type": {"type": "array", "items": {
            "type": "record", "name": "Line", "fields": [{"name": "sku", "type": "string"},
                                                         {"name": "qty", "type": "int"}]}}},
        {"name": "attrs", "type": {"type": "map", "values": "string"}},
    ]}
ORDER_V2 = {**ORDER_V1, "fields": ORDER_V1["fields"] + [
    {"name": "channel", "type": "string", "default": "web"}]}

T0 = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=datetime.timezone.utc)


def order(i: int, v2: bool = False) -> Dict[str, Any]:
    rec = {"id": i, "customer": None if i % 5 == 0 else f"c{i}", "amount": decimal.Decimal(i) / 4,
           "placed": T0 + datetime.timedelta(milliseconds=i), "day": datetime.date(2024, 5, 1 + i % 28),
           "status": "PAID" if i % 2 else "NEW", "lines": [{"sku": f"s{j}", "qty": j} for j in range(i % 3)],
           "attrs": {"n": str(i)}}
    if v2:
        rec["channel"] = "app"
    return rec


@pytest.fixture
def registry(registry_url: str) -> Any:
    client = SchemaRegistryClient({"url": registry_url})
    yield client
    client.close()


@pytest.fixture
def sr_options(kafka_options: Dict[str, str], registry_url: str) -> Dict[str, str]:
    return {**kafka_options, "schema.registry.url": registry_url}


def produce_avro(bootstrap: str, registry: Any, topic: str, schema: Dict[str, Any], records: List[Any],
                 partitions: int = 1, key_schema: Optional[str] = None, raw: Optional[Dict[int, bytes]] = None) -> None:
    """``records`` serialized with the registry (keys "k<i>" as Avro strings with ``key_schema``),
    round-robin over ``partitions``; ``raw`` puts the given bytes at those positions instead."""
    value_ser = AvroSerializer(registry, json.dumps(schema))
    key_ser = AvroSerializer(registry, key_schema) if key_schema else None
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i, rec in enumerate(records):
        value = (raw or {}).get(i)
        if value is None:
            value = value_ser(rec, SerializationContext(topic, MessageField.VALUE))
        key = key_ser(f"k{i}", SerializationContext(topic, MessageField.KEY)) if key_ser else None
        p.produce(topic, value, key, partition=i % partitions)
    assert p.flush(30) == 0


def load(spark: Any, options: Dict[str, str], **more: str) -> Any:
    return spark.read.format(FORMAT).options(**options, **more).load()


def test_batch_read_decodes_key_and_value_into_columns(spark: Any, new_topic: Callable[..., str],
                                                       kafka_bootstrap: str, registry: Any,
                                                       sr_options: Dict[str, str]) -> None:
    topic = new_topic(2)
    produce_avro(kafka_bootstrap, registry, topic, ORDER_V1, [order(i) for i in range(500)], 2, '"string"')
    df = load(spark, sr_options, subscribe=topic, valueFormat="avro", keyFormat="avro")
    assert df.schema.simpleString() == (
        "struct<key:string,value:struct<id:bigint,customer:string,amount:decimal(10,2),placed:timestamp,"
        "day:date,status:string,lines:array<struct<sku:string,qty:int>>,attrs:map<string,string>>,"
        "topic:string,partition:int,offset:bigint,timestamp:timestamp,timestampType:int>")
    assert not df.schema["value"].dataType["id"].nullable and df.schema["value"].dataType["customer"].nullable
    rows = df.select("key", "value.*", "partition").orderBy("id").collect()
    assert len(rows) == 500
    for i, r in enumerate(rows):
        want = order(i)
        assert r.key == f"k{i}" and r.partition == i % 2
        assert (r.id, r.customer, r.amount, r.day, r.status) == (
            want["id"], want["customer"], want["amount"], want["day"], want["status"])
        assert r.placed.replace(tzinfo=datetime.timezone.utc) == want["placed"]
        assert [(x.sku, x.qty) for x in r.lines] == [(x["sku"], x["qty"]) for x in want["lines"]]
        assert r.attrs == want["attrs"]
    # the columns work in SQL like any other
    paid = df.where("value.status = 'PAID'").selectExpr("sum(value.amount) AS s").collect()[0].s
    assert paid == sum(order(i)["amount"] for i in range(1, 500, 2))


def test_streaming_read_decodes_micro_batches(spark: Any, new_topic: Callable[..., str], kafka_bootstrap: str,
                                              registry: Any, sr_options: Dict[str, str], tmp_path: Any) -> None:
    topic = new_topic(2)
    produce_avro(kafka_bootstrap, registry, topic, ORDER_V1, [order(i) for i in range(300)], 2)
    options = {**sr_options, "subscribe": topic, "startingOffsets": "earliest", "maxOffsetsPerTrigger": "100",
               "valueFormat": "avro"}
    stream = spark.readStream.format(FORMAT).options(**options).load()
    assert stream.schema["value"].dataType.simpleString().startswith("struct<id:bigint,customer:string")
    batches: Dict[int, List[Any]] = {}

    def collect(df: Any, batch_id: int) -> None:
        got = df.select("value.id", "value.status", "value.lines").collect()
        if got:
            batches[batch_id] = got

    query = (stream.writeStream.foreachBatch(collect).trigger(availableNow=True)
             .option("checkpointLocation", str(tmp_path / "cp")).start())
    try:
        assert query.awaitTermination(180)
    finally:
        query.stop()
    assert query.exception() is None
    assert len(batches) >= 3
    rows = sorted((r for b in batches.values() for r in b), key=lambda r: r.id)
    assert [r.id for r in rows] == list(range(300))
    assert all(r.status == ("PAID" if r.id % 2 else "NEW") and len(r.lines) == r.id % 3 for r in rows)


def test_write_struct_columns_auto_registers_and_reads_back(spark: Any, new_topic: Callable[..., str],
                                                            kafka_bootstrap: str, registry: Any,
                                                            sr_options: Dict[str, str],
                                                            read_topic: Callable[..., List[Dict[str, Any]]],
                                                            from_zero: Callable[[str, int], str]) -> None:
    topic = new_topic(2)
    start = from_zero(topic, 2)  # two tasks write both partitions at once (tansu: see conftest.py)
    df = spark.range(1000).selectExpr(
        "cast(id AS string) AS key",
        "named_struct('id', id, 'name', CASE WHEN id % 7 = 0 THEN NULL ELSE concat('n', id) END,"
        " 'when', timestamp_micros(1700000000000000 + id), 'tags', array('a', cast(id AS string)),"
        " 'price', cast(id / 8 AS decimal(12, 3))) AS value")
    (df.write.format(FORMAT).options(**sr_options).option("topic", topic).option("valueFormat", "avro")
     .mode("append").save())
    registered = registry.get_latest_version(f"{topic}-value")
    schema = json.loads(registered.schema.schema_str)
    assert schema["name"] == "topLevelRecord"
    assert {f["name"]: f["type"] for f in schema["fields"]}["id"] == "long"  # not null in Spark: no union

    # outside Spark, with the ordinary deserializer
    deser = AvroDeserializer(registry)
    ctx = SerializationContext(topic, MessageField.VALUE)
    raw = read_topic(topic, 2, 1000)
    assert {bytes(r["value"][1:5]) for r in raw} == {registered.schema_id.to_bytes(4, "big")}
    decoded = sorted((deser(r["value"], ctx) for r in raw), key=lambda v: v["id"])
    assert decoded[3]["name"] == "n3" and decoded[7]["name"] is None
    assert decoded[3]["when"] == datetime.datetime(2023, 11, 14, 22, 13, 20, 3, tzinfo=datetime.timezone.utc)
    assert decoded[3]["price"] == decimal.Decimal("0.375") and decoded[3]["tags"] == ["a", "3"]
    assert sorted(r["key"] for r in raw) == sorted(str(i).encode() for i in range(1000))  # keys stay binary

    # and back through Spark: the same rows
    back = load(spark, sr_options, subscribe=topic, valueFormat="avro", startingOffsets=start).select("value.*")
    assert sorted(back.collect()) == sorted(df.select("value.*").collect())

    # a write with the given schema id does not register anything new
    versions = registry.get_versions(f"{topic}-value")
    (df.limit(10).write.format(FORMAT).options(**sr_options).option("topic", topic).option("valueFormat", "avro")
     .option("valueSchemaId", str(registered.schema_id)).mode("append").save())
    assert registry.get_versions(f"{topic}-value") == versions
    assert load(spark, sr_options, subscribe=topic, valueFormat="avro", startingOffsets=start).count() == 1010


def test_write_refuses_a_column_that_does_not_fit_the_given_schema(spark: Any, registry: Any, unique_topic: str,
                                                                   sr_options: Dict[str, str]) -> None:
    schema_id = registry.register_schema(f"{unique_topic}-value", Schema(json.dumps(ORDER_V1), "AVRO"))
    df = spark.range(1).selectExpr("named_struct('id', id, 'nick', 'x') AS value")
    with pytest.raises(Exception, match="has no field 'nick'"):
        (df.write.format(FORMAT).options(**sr_options).option("topic", unique_topic)
         .option("valueFormat", "avro").option("valueSchemaId", str(schema_id)).mode("append").save())


def test_evolution_reads_both_versions_into_the_planned_schema(spark: Any, new_topic: Callable[..., str],
                                                               kafka_bootstrap: str, registry: Any,
                                                               sr_options: Dict[str, str]) -> None:
    topic = new_topic(1)
    produce_avro(kafka_bootstrap, registry, topic, ORDER_V1, [order(i) for i in range(100)])
    produce_avro(kafka_bootstrap, registry, topic, ORDER_V2, [order(i, v2=True) for i in range(100, 200)])
    assert registry.get_versions(f"{topic}-value") == [1, 2]

    latest = load(spark, sr_options, subscribe=topic, valueFormat="avro")  # version 2, planned now
    assert latest.schema["value"].dataType.fieldNames()[-1] == "channel"
    got = {r.id: r.channel for r in latest.select("value.id", "value.channel").collect()}
    assert got == {**{i: "web" for i in range(100)}, **{i: "app" for i in range(100, 200)}}  # v1 gets the default

    first = load(spark, sr_options, subscribe=topic, valueFormat="avro", valueSchemaVersion="1")
    assert "channel" not in first.schema["value"].dataType.fieldNames()
    assert sorted(r.id for r in first.select("value.id").collect()) == list(range(200))

    by_id = load(spark, sr_options, subscribe=topic, valueFormat="avro",
                 valueSchemaId=str(registry.get_version(f"{topic}-value", 1).schema_id))
    assert by_id.schema == first.schema


def test_bad_records_fail_the_read_or_follow_the_mode(spark: Any, new_topic: Callable[..., str],
                                                      kafka_bootstrap: str, registry: Any,
                                                      sr_options: Dict[str, str]) -> None:
    topic = new_topic(1)
    unknown_id = b"\x00\x00\x0f\x42\x40" + b"\x02"  # schema id 1000000
    produce_avro(kafka_bootstrap, registry, topic, ORDER_V1, [order(i) for i in range(50)],
                 raw={10: b'{"id": 10}', 20: unknown_id})
    options = {**sr_options, "subscribe": topic, "valueFormat": "avro"}

    with pytest.raises(Exception) as info:
        load(spark, options).collect()
    text = str(info.value)
    assert f"{topic}[0] offset 10: the value starts with byte 0x7b" in text
    assert "mode to PERMISSIVE" in text

    permissive = load(spark, options, mode="PERMISSIVE").select("offset", "value.id").orderBy("offset").collect()
    assert len(permissive) == 50
    assert [r.offset for r in permissive if r.id is None] == [10, 20]
    assert [r.id for r in permissive if r.id is not None] == [i for i in range(50) if i not in (10, 20)]

    dropped = load(spark, options, mode="DROPMALFORMED").select("offset").collect()
    assert sorted(r.offset for r in dropped) == [i for i in range(50) if i not in (10, 20)]

    # the unknown id alone, past the magic byte: the error names the id
    with pytest.raises(Exception, match=f"{topic}\\[0\\] offset 20: the value names schema id 1000000"):
        load(spark, options, startingOffsets=json.dumps({topic: {"0": 15}})).collect()


def test_unknown_formats_are_refused_before_any_task(spark: Any, sr_options: Dict[str, str]) -> None:
    with pytest.raises(Exception, match="must be one of binary, avro, json, protobuf, not 'xml'"):
        load(spark, sr_options, subscribe="t", valueFormat="xml").collect()


def test_function_api_writes_and_reads_avro(spark: Any, new_topic: Callable[..., str],
                                            sr_options: Dict[str, str],
                                            from_zero: Callable[[str, int], str]) -> None:
    from confluent_kafka.spark import read, write

    topic = new_topic(2)
    df = spark.range(300).selectExpr("named_struct('id', id, 'day', date_add(date'2024-01-01', cast(id AS int)),"
                                     " 'kv', map('k', cast(id AS string))) AS value")
    assert write(df, topic=topic, options=sr_options, valueFormat="avro") == 300
    # two tasks wrote both partitions at once: read from offset 0 (tansu: see conftest.py)
    got = read(spark, sr_options, subscribe=topic, valueFormat="avro", startingOffsets=from_zero(topic, 2))
    assert got.schema["value"].dataType.simpleString() == "struct<id:bigint,day:date,kv:map<string,string>>"
    assert sorted(got.select("value.*").collect()) == sorted(df.select("value.*").collect())


def test_schema_id_in_headers_is_written_and_read_back(spark: Any, new_topic: Callable[..., str],
                                                       kafka_bootstrap: str, registry: Any,
                                                       sr_options: Dict[str, str],
                                                       from_zero: Callable[[str, int], str]) -> None:
    """The header framing with classic ids (Karapace has no guids): a write puts the id in the
    ``__value_schema_id`` header, the library's deserializer and a Spark read (the dual
    deserializer, without includeHeaders) read it; a guid write is refused before any task."""
    from confluent_kafka import Consumer, TopicPartition

    topic = new_topic(1)
    # ids from 1: an Avro record starting with id 0 would start with byte 0, like the classic framing
    df = spark.range(1, 41).selectExpr("named_struct('id', id, 'name', concat('name', id)) AS value",
                                    "array(named_struct('key', 'h', 'value', cast('v' AS binary))) AS headers")
    writer = df.write.format(FORMAT).options(**sr_options).option("topic", topic).option("valueFormat", "avro")
    with pytest.raises(Exception, match="gives no guid for schema id .* set valueSchemaIdType=id"):
        writer.option("valueSchemaIdSerializer", "header").mode("append").save()
    (writer.option("valueSchemaIdSerializer", "header").option("valueSchemaIdType", "id").mode("append").save())
    schema_id = registry.get_latest_version(f"{topic}-value").schema_id

    c = Consumer({"bootstrap.servers": kafka_bootstrap, "group.id": "spark-tests-check"})
    c.assign([TopicPartition(topic, 0, 0)])
    raw: List[Any] = []
    try:
        while len(raw) < 40:
            raw.extend(c.consume_arrow(100, 1.0, headers=True).to_pyarrow().to_pylist())
    finally:
        c.close()
    deser = AvroDeserializer(registry)
    for r in raw:
        headers = [(h["key"], h["value"]) for h in r["headers"]]
        assert headers == [("h", b"v"), ("__value_schema_id", b"\x00" + schema_id.to_bytes(4, "big"))]
        assert not r["value"].startswith(b"\x00" + schema_id.to_bytes(4, "big"))  # unframed: the record alone
        got = deser(r["value"], SerializationContext(topic, MessageField.VALUE, headers))
        assert got["name"] == f"name{got['id']}"

    # two tasks wrote the partition's first rows at once: from offset 0 (tansu: see conftest.py)
    back = load(spark, sr_options, subscribe=topic, valueFormat="avro", startingOffsets=from_zero(topic, 1))
    assert "headers" not in back.columns
    assert sorted(back.select("value.*").collect()) == sorted(df.select("value.*").collect())
    with pytest.raises(Exception, match=r"offset \d+: the value starts with byte 0x[0-9a-f]{2}, not the Schema"):
        load(spark, sr_options, subscribe=topic, valueFormat="avro", valueSchemaIdDeserializer="prefix").collect()
