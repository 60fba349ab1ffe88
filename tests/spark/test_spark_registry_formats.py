"""Schema Registry framed JSON and Protobuf through the data source, on local[2] against tansu +
Karapace: records written by the package's own serializers read into typed columns (batch and
streaming), struct columns written back with a schema registered on the fly and read again,
and a record that does not decode failing the read with its offset."""

from __future__ import annotations

import datetime
import json
from typing import Any, Callable, Dict, List

import pytest

pytest.importorskip("jsonschema", reason="the json extra is not installed")
pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")

from order_proto import types as order_types  # noqa: E402

from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

FORMAT = "confluent_kafka"
UTC = datetime.timezone.utc
T0 = datetime.datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

USER = {"type": "object", "title": "User", "properties": {
    "id": {"type": "integer"}, "name": {"type": ["string", "null"]},
    "joined": {"type": "string", "format": "date-time"}, "tags": {"type": "array", "items": {"type": "string"}},
    "address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}}}},
    "required": ["id"]}


@pytest.fixture
def registry(registry_url: str) -> Any:
    client = SchemaRegistryClient({"url": registry_url})
    yield client
    client.close()


@pytest.fixture
def sr_options(kafka_options: Dict[str, str], registry_url: str) -> Dict[str, str]:
    return {**kafka_options, "schema.registry.url": registry_url}


def produce(bootstrap: str, topic: str, serialize: Callable[[Any, Any], bytes], records: List[Any],
            partitions: int, raw: Dict[int, bytes] = {}) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    ctx = SerializationContext(topic, MessageField.VALUE)
    for i, rec in enumerate(records):
        p.produce(topic, raw.get(i) or serialize(rec, ctx), partition=i % partitions)
    assert p.flush(30) == 0


def user(i: int) -> Dict[str, Any]:
    return {"id": i, "name": None if i % 4 == 0 else f"u{i}", "joined": (T0 + datetime.timedelta(seconds=i)).isoformat(),
            "tags": [f"t{j}" for j in range(i % 3)], "address": {"city": f"c{i % 7}", "zip": 1000 + i}}


def collect_stream(spark: Any, options: Dict[str, str], checkpoint: str, columns: List[str]) -> List[Any]:
    batches: Dict[int, List[Any]] = {}

    def keep(df: Any, batch_id: int) -> None:
        got = df.select(*columns).collect()
        if got:
            batches[batch_id] = got

    stream = spark.readStream.format(FORMAT).options(**options).load()
    query = (stream.writeStream.foreachBatch(keep).trigger(availableNow=True)
             .option("checkpointLocation", checkpoint).start())
    try:
        assert query.awaitTermination(180)
    finally:
        query.stop()
    assert query.exception() is None
    assert len(batches) >= 2  # maxOffsetsPerTrigger cut the run
    return [r for b in sorted(batches) for r in batches[b]]


def test_json_read_batch_and_streaming_write_back(spark: Any, new_topic: Callable[..., str], kafka_bootstrap: str,
                                                  registry: Any, sr_options: Dict[str, str], tmp_path: Any,
                                                  read_topic: Callable[..., List[Dict[str, Any]]],
                                                  from_zero: Callable[[str, int], str]) -> None:
    topic = new_topic(2)
    ser = JSONSerializer(json.dumps(USER), registry)
    produce(kafka_bootstrap, topic, ser, [user(i) for i in range(400)], 2)
    df = spark.read.format(FORMAT).options(**sr_options, subscribe=topic, valueFormat="json").load()
    # (the fields come in the order of the registry's text, which Karapace sorts)
    assert {f.name: f.dataType.simpleString() for f in df.schema["value"].dataType.fields} == {
        "id": "bigint", "name": "string", "joined": "timestamp", "tags": "array<string>",
        "address": "struct<city:string,zip:bigint>"}
    rows = df.select("value.*").orderBy("id").collect()
    assert len(rows) == 400
    for i, r in enumerate(rows):
        want = user(i)
        assert (r.id, r.name, r.tags, r.address.city, r.address.zip) == (
            i, want["name"], want["tags"], want["address"]["city"], want["address"]["zip"])
        assert r.joined.replace(tzinfo=UTC) == T0 + datetime.timedelta(seconds=i)

    streamed = collect_stream(spark, {**sr_options, "subscribe": topic, "startingOffsets": "earliest",
                                      "maxOffsetsPerTrigger": "250", "valueFormat": "json"},
                              str(tmp_path / "cp"), ["value.id", "value.address.zip"])
    assert sorted((r.id, r.zip) for r in streamed) == [(i, 1000 + i) for i in range(400)]

    # written back as JSON with a schema derived from the struct and registered now
    out = new_topic(2, "-out")
    df.select("value").write.format(FORMAT).options(**sr_options, topic=out, valueFormat="json").mode("append").save()
    registered = registry.get_latest_version(f"{out}-value")
    assert registered.schema.schema_type == "JSON"
    raw = read_topic(out, 2, 400)
    plain = JSONDeserializer(None, schema_registry_client=registry)
    first = plain(raw[0]["value"], SerializationContext(out, MessageField.VALUE))
    assert set(first) == {"id", "name", "joined", "tags", "address"}
    # the two tasks of the write-back wrote both partitions at once: from offset 0 (tansu: see
    # conftest.py)
    back = spark.read.format(FORMAT).options(**sr_options, subscribe=out, valueFormat="json",
                                             startingOffsets=from_zero(out, 2)).load()
    assert back.schema["value"] == df.schema["value"]
    assert sorted(back.select("value.*").collect()) == sorted(df.select("value.*").collect())

    # a record that is not framed JSON: the read fails naming it (the modes: tests/unit)
    bad = new_topic(1, "-bad")
    produce(kafka_bootstrap, bad, ser, [user(i) for i in range(20)], 1, raw={7: b'{"id": 7}'})
    options = {**sr_options, "subscribe": bad, "valueFormat": "json", "valueSubject": f"{topic}-value"}
    with pytest.raises(Exception, match=f"{bad}\\[0\\] offset 7: the value starts with byte 0x7b"):
        spark.read.format(FORMAT).options(**options).load().collect()


def order(i: int) -> Any:
    m = order_types()["Order"](id=i, amount=i / 4, status=i % 2, tags=["a"] * (i % 3), big=2**63 + i)
    if i % 5:
        m.customer = f"c{i}"
    m.placed.FromDatetime(T0 + datetime.timedelta(milliseconds=i))
    for j in range(i % 3):
        m.lines.add(sku=f"s{j}", qty=j)
    m.attrs["n"] = str(i)
    if i % 2:
        m.note.value = "hi"
    return m


def test_protobuf_read_batch_and_streaming_write_back(spark: Any, new_topic: Callable[..., str],
                                                      kafka_bootstrap: str, registry: Any,
                                                      sr_options: Dict[str, str], tmp_path: Any,
                                                      read_topic: Callable[..., List[Dict[str, Any]]],
                                                      from_zero: Callable[[str, int], str]) -> None:
    topic = new_topic(2)
    ser = ProtobufSerializer(order_types()["Order"], registry, {"use.deprecated.format": False})
    produce(kafka_bootstrap, topic, ser, [order(i) for i in range(400)], 2)
    df = spark.read.format(FORMAT).options(**sr_options, subscribe=topic, valueFormat="protobuf").load()
    assert df.schema["value"].dataType.simpleString() == (
        "struct<id:bigint,customer:string,amount:double,placed:timestamp,status:string,"
        "lines:array<struct<sku:string,qty:int>>,attrs:map<string,string>,tags:array<string>,note:string,"
        "big:decimal(20,0)>")
    rows = df.select("value.*").orderBy("id").collect()
    assert len(rows) == 400
    for i, r in enumerate(rows):
        assert (r.id, r.customer, r.amount, r.status, r.note, int(r.big)) == (
            i, None if i % 5 == 0 else f"c{i}", i / 4, "PAID" if i % 2 else "NEW", "hi" if i % 2 else None, 2**63 + i)
        assert [(x.sku, x.qty) for x in r.lines] == [(f"s{j}", j) for j in range(i % 3)]
        assert r.attrs == {"n": str(i)} and r.placed.replace(tzinfo=UTC) == T0 + datetime.timedelta(milliseconds=i)

    streamed = collect_stream(spark, {**sr_options, "subscribe": topic, "startingOffsets": "earliest",
                                      "maxOffsetsPerTrigger": "250", "valueFormat": "protobuf"},
                              str(tmp_path / "cp"), ["value.id", "value.status"])
    assert sorted(r.id for r in streamed) == list(range(400))

    # written back with the registered schema of the source topic: the serializer's very bytes
    out = new_topic(2, "-out")
    schema_id = registry.get_latest_version(f"{topic}-value").schema_id
    df.select("value").write.format(FORMAT).options(**sr_options, topic=out, valueFormat="protobuf",
                                                    valueSchemaId=str(schema_id)).mode("append").save()
    source = sorted(bytes(r["value"]) for r in read_topic(topic, 2, 400))
    assert sorted(bytes(r["value"]) for r in read_topic(out, 2, 400)) == source

    # a struct of another shape: a schema derived from it is registered, and reads back
    derived = new_topic(1, "-derived")
    shaped = df.selectExpr("named_struct('id', value.id, 'when', value.placed, 'skus', transform(value.lines, "
                           "x -> x.sku), 'attrs', value.attrs) AS value")
    shaped.write.format(FORMAT).options(**sr_options, topic=derived, valueFormat="protobuf").mode("append").save()
    assert registry.get_latest_version(f"{derived}-value").schema.schema_type == "PROTOBUF"
    # written by two tasks at once: from offset 0 (tansu: see conftest.py)
    back = spark.read.format(FORMAT).options(**sr_options, subscribe=derived, valueFormat="protobuf",
                                             startingOffsets=from_zero(derived, 1)).load()
    assert back.schema["value"].dataType.simpleString() == \
        "struct<id:bigint,when:timestamp,skus:array<string>,attrs:map<string,string>>"
    assert sorted(back.select("value.*").collect()) == sorted(shaped.select("value.*").collect())
