"""Schema Registry JSON and Protobuf in confluent_kafka.spark without Spark running or a broker:
the JSON Schema / Protobuf -> Spark type mappings, schemas derived from Spark types, and batch
decoding / encoding against the in-process mock:// registry (records written by the package's
own JSONSerializer / ProtobufSerializer)."""

from __future__ import annotations

import datetime
import decimal
import json
import os
from typing import Any, Dict, List, Optional

import pytest

from optional import needs_numpy

pytest.importorskip("pyspark", reason="pyspark is in the test extra")
pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")
pytest.importorskip("jsonschema", reason="the json extra is not installed")

import pyarrow as pa  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

from order_proto import types as order_types  # noqa: E402

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402
from confluent_kafka.spark._avro_codec import MalformedRecordError  # noqa: E402
from confluent_kafka.spark._avro_types import spark_arrow_type  # noqa: E402
from confluent_kafka.spark._codecs import BatchDecoder, BatchEncoder, check_writable, spark_type  # noqa: E402
from confluent_kafka.spark._json_codec import json_lines, spark_to_json_schema  # noqa: E402
from confluent_kafka.spark._options import ReadOptions, WriteOptions  # noqa: E402
from confluent_kafka.spark._protobuf_codec import batch_bytes  # noqa: E402
from confluent_kafka.spark._registry import ResolvedSchema, parse_registry_options, resolve_read, resolve_write  # noqa: E402

URL = "mock://spark-formats-tests"
BS = {"kafka.bootstrap.servers": "127.0.0.1:9"}
REG = {"schema.registry.url": URL}
UTC = datetime.timezone.utc

ORDER_JSON = {"type": "object", "properties": {
    "id": {"type": "integer"}, "name": {"type": ["string", "null"]},
    "when": {"type": "string", "format": "date-time"}, "day": {"type": "string", "format": "date"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "sub": {"$ref": "#/definitions/Sub"}, "qty": {"type": "integer", "connect.type": "int32"}},
    "required": ["id"], "definitions": {"Sub": {"type": "object", "properties": {"x": {"type": "number"}}}}}


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    from confluent_kafka.spark import _registry

    client = SchemaRegistryClient.new_client({"url": URL})
    monkeypatch.setattr(_registry, "_clients", {(os.getpid(), (("url", URL),)): client})
    yield client
    for subject in client.get_subjects():
        client.delete_subject(subject, permanent=True)


def kafka_batch(values: List[Optional[bytes]]) -> Any:
    n = len(values)
    return pa.RecordBatch.from_pydict({
        "key": pa.array([None] * n, pa.binary()), "value": pa.array(values, pa.binary()),
        "topic": ["orders"] * n, "partition": pa.array([2] * n, pa.int32()),
        "offset": pa.array(range(100, 100 + n), pa.int64())})


def read_options(fmt: str, mode: str = "FAILFAST", **more: str) -> Any:
    return parse_registry_options({"valueformat": fmt, "schema.registry.url": URL, "mode": mode,
                                   **{k.lower(): v for k, v in more.items()}}, read=True)


CTX = SerializationContext("orders", MessageField.VALUE)


# -- options ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    ({"valueFormat": "json"}, "valueFormat=json needs the option 'schema.registry.url'"),
    ({"keyFormat": "protobuf"}, "keyFormat=protobuf needs the option 'schema.registry.url'"),
    ({"valueFormat": "json", **REG, "valueAvroSchema": '"string"'}, "'valueAvroSchema' is for valueFormat=avro"),
    ({"valueFormat": "avro", **REG, "valueProtobufMessage": "x.Y"}, "is for valueFormat=protobuf, not avro"),
    ({"valueProtobufMessage": "x.Y"}, "'valueProtobufMessage' needs valueFormat=protobuf"),
    ({"valueFormat": "json", **REG, "valueJsonSchema": "{}"}, "'valueJsonSchema' is for writes"),
])
def test_bad_format_read_options(options: Dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse({**BS, "subscribe": "t", **options}, streaming=False)


def test_format_options_parse() -> None:
    o = ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "JSON", "keyFormat": "protobuf",
                           "keyProtobufMessage": "shop.Order", **REG}, streaming=False)
    assert o.registry is not None and o.registry.value is not None and o.registry.key is not None
    assert (o.registry.value.format, o.registry.key.format, o.registry.key.protobuf_message) == \
        ("json", "protobuf", "shop.Order")
    w = WriteOptions.parse({**BS, "topic": "t", "valueFormat": "json", "valueJsonSchema": '{"type": "object"}', **REG})
    assert w.registry is not None and w.registry.value is not None
    assert w.registry.value.json_schema == '{"type": "object"}'
    with pytest.raises(ValueError, match="'valueJsonSchema' is not JSON"):
        WriteOptions.parse({**BS, "topic": "t", "valueFormat": "json", "valueJsonSchema": "{no", **REG})


# -- JSON -------------------------------------------------------------------------------------------

def json_resolved(schema: Any, refs: Any = ()) -> ResolvedSchema:
    return ResolvedSchema("value", 1, json.dumps(schema), format="json", references=refs)


@pytest.mark.parametrize("schema, spark", [
    (ORDER_JSON, "struct<id:bigint,name:string,when:timestamp,day:date,tags:array<string>,sub:struct<x:double>,"
                 "qty:int>"),
    ({"type": "string"}, "string"),
    ({"oneOf": [{"type": "null"}, {"type": "integer", "connect.type": "int16"}]}, "smallint"),
    ({"type": ["integer", "number"]}, "double"),
    ({"type": "object", "additionalProperties": {"type": "boolean"}}, "map<string,boolean>"),
    ({"type": "object"}, "string"),  # free-form: the JSON text
    ({"enum": ["a", "b"]}, "string"),
    ({"type": "string", "contentEncoding": "base64"}, "binary"),
    ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, "string"),
    ({"$ref": "other.json#/definitions/T"}, "float"),
    ({"type": "object", "properties": {"me": {"$ref": "#"}}}, "struct<me:string>"),  # recursion: JSON text
])
def test_json_schema_to_spark(schema: Any, spark: str) -> None:
    refs = (("other.json", json.dumps({"definitions": {"T": {"type": "number", "connect.type": "float32"}}})),)
    assert spark_type(json_resolved(schema, refs)).simpleString() == spark


def test_spark_to_json_schema_reads_back_as_the_same_type() -> None:
    dtype = T.StructType([
        T.StructField("id", T.LongType(), False), T.StructField("n", T.IntegerType()),
        T.StructField("s", T.ShortType()), T.StructField("f", T.FloatType()), T.StructField("b", T.BinaryType()),
        T.StructField("when", T.TimestampType()), T.StructField("day", T.DateType()),
        T.StructField("kv", T.MapType(T.StringType(), T.ArrayType(T.StringType()))),
        T.StructField("sub", T.StructType([T.StructField("ok", T.BooleanType())]))])
    schema = spark_to_json_schema(dtype)
    assert schema["required"] == ["id"] and schema["additionalProperties"] is False
    assert schema["properties"]["n"] == {"oneOf": [{"type": "null"}, {"type": "integer", "connect.type": "int32"}]}
    back = spark_type(json_resolved(schema))
    assert back.simpleString() == dtype.simpleString()


@needs_numpy
def test_json_lines_frames_each_payload_and_flattens_line_breaks() -> None:
    import numpy as np

    values = [b"\x00\x00\x00\x00\x01{\n\"a\": 1}", b"\x00\x00\x00\x00\x01[]", b"\x00\x00\x00\x00\x01"]
    data = np.frombuffer(b"".join(values), np.uint8)
    lengths = np.array([len(v) for v in values], np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    assert json_lines(data, starts, lengths) == b'{"v":{ "a": 1}}\n{"v":[]}\n{"v":}\n'


@needs_numpy
def test_object_lines_turns_each_framing_into_a_line_break() -> None:
    import numpy as np

    from confluent_kafka.spark._json_codec import object_lines

    values = [b"\x00\x00\x00\x0a\x01{\n\"a\": 1}", b"\x00\x00\x00\x00\x0d{}"]
    data = np.frombuffer(b"--" + b"".join(values), np.uint8)  # (an array slice starts later)
    lengths = np.array([len(v) for v in values], np.int64)
    starts = np.array([2, 2 + len(values[0])], np.int64)
    assert object_lines(data, starts, lengths) == b'    \n{ "a": 1}    \n{}'


@needs_numpy
def test_json_objects_with_line_breaks_decode_on_the_fast_path(registry: Any) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}, "s": {"type": "string"}}}
    header = b"\x00" + registry.register_schema("orders-value", Schema(json.dumps(schema), "JSON")).to_bytes(4, "big")
    values = [header + b'{\n  "a": 1,\r\n  "s": "x\\ny"\n}', header + b'{"s": null}']
    resolved = resolve_read(read_options("json"), ["orders"])
    decoder = BatchDecoder(read_options("json"), resolved)
    assert decoder(kafka_batch(values)).column("value").to_pylist() == [{"a": 1, "s": "x\ny"}, {"a": None, "s": None}]


@needs_numpy
def test_json_batch_decodes_and_names_bad_records(registry: Any) -> None:
    ser = JSONSerializer(json.dumps(ORDER_JSON), registry)
    good = [ser({"id": i, "name": None if i % 3 == 0 else f"n{i}", "when": "2024-05-01T12:00:00.5Z",
                 "day": "2024-05-02", "tags": ["a"] * (i % 3), "sub": {"x": i / 2}, "qty": i}, CTX)
            for i in range(200)]
    resolved = resolve_read(read_options("json"), ["orders"])
    assert resolved["value"].format == "json"
    out = BatchDecoder(read_options("json"), resolved)(kafka_batch(good + [None]))
    rows = out.column("value").to_pylist()
    assert rows[-1] is None and len(rows) == 201
    assert rows[4] == {"id": 4, "name": "n4", "when": datetime.datetime(2024, 5, 1, 12, 0, 0, 500000, tzinfo=UTC),
                       "day": datetime.date(2024, 5, 2), "tags": ["a"], "sub": {"x": 2.0}, "qty": 4}
    assert out.schema.field("value").type == spark_arrow_type(spark_type(resolved["value"]))

    header = good[0][:5]
    bad = [good[0], header + b'{"id": "seven"}', b'{"id": 1}', header + b"{nope", good[1]]
    with pytest.raises(MalformedRecordError, match=r"orders\[2\] offset 101: the value does not fit the column's "
                                                   r"type: id is \"seven\", not a long"):
        BatchDecoder(read_options("json"), resolved)(kafka_batch(bad))
    permissive = BatchDecoder(read_options("json", "PERMISSIVE"), resolved)(kafka_batch(bad))
    assert [r is None for r in permissive.column("value").to_pylist()] == [False, True, True, True, False]
    dropped = BatchDecoder(read_options("json", "DROPMALFORMED"), resolved)(kafka_batch(bad))
    assert dropped.column("offset").to_pylist() == [100, 104]
    with pytest.raises(MalformedRecordError, match="offset 100: the value names schema id 1000000, which the "
                                                   "Schema Registry does not hold"):
        BatchDecoder(read_options("json"), resolved)(kafka_batch([b"\x00\x00\x0f\x42\x40{}"]))


@needs_numpy
def test_json_decodes_maps_and_free_form_values_per_record(registry: Any) -> None:
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}},
                                               "any": {}, "raw": {"type": "string", "contentEncoding": "base64"}}}
    ser = JSONSerializer(json.dumps(schema), registry)
    values = [ser({"m": {"a": 1}, "any": {"x": [1, 2]}, "raw": "eHk="}, CTX), ser({"any": "text"}, CTX)]
    resolved = resolve_read(read_options("json"), ["orders"])
    rows = BatchDecoder(read_options("json"), resolved)(kafka_batch(values)).column("value").to_pylist()
    assert rows == [{"m": [("a", 1)], "any": '{"x":[1,2]}', "raw": b"xy"}, {"m": None, "any": "text", "raw": None}]


def test_json_write_registers_a_derived_schema_and_round_trips(registry: Any) -> None:
    dtype = T.StructType([T.StructField("id", T.LongType(), False), T.StructField("when", T.TimestampType()),
                          T.StructField("b", T.BinaryType()), T.StructField("price", T.DecimalType(10, 2)),
                          T.StructField("m", T.MapType(T.StringType(), T.IntegerType()))])
    options = parse_registry_options({"valueformat": "json", "schema.registry.url": URL}, read=False)
    written = resolve_write(options, "out", {"value": dtype})
    check_writable(written["value"], dtype)
    column = pa.array([{"id": 1, "when": datetime.datetime(2024, 1, 1, tzinfo=UTC), "b": b"xy",
                        "price": decimal.Decimal("1.25"), "m": [("k", 1)]}, None], spark_arrow_type(dtype))
    encoded = BatchEncoder(written, {"value": dtype})(pa.RecordBatch.from_pydict({"value": column})).column(0)
    first = encoded[0].as_py()
    assert first[:5] == b"\x00" + written["value"].schema_id.to_bytes(4, "big") and encoded[1].as_py() is None
    assert json.loads(first[5:]) == {"id": 1, "when": "2024-01-01T00:00:00.000000Z", "b": "eHk=", "price": 1.25,
                                     "m": {"k": 1}}
    # the ordinary deserializer reads it, validating against the registered schema
    out_ctx = SerializationContext("out", MessageField.VALUE)
    assert JSONDeserializer(None, schema_registry_client=registry)(first, out_ctx)["id"] == 1
    registered = registry.get_latest_version("out-value")
    assert registered.schema.schema_type == "JSON"


def test_json_write_converts_nested_values_the_same_way(registry: Any) -> None:
    """Timestamps, dates and decimals are converted by Arrow through structs and in Python
    inside arrays and maps: the text is the same either way."""
    stamp = datetime.datetime(2024, 1, 1, 0, 0, 0, 1500, tzinfo=UTC)
    dtype = T.StructType([
        T.StructField("t", T.TimestampType()), T.StructField("d", T.DateType()),
        T.StructField("sub", T.StructType([T.StructField("t", T.TimestampType())])),
        T.StructField("ts", T.ArrayType(T.TimestampType())), T.StructField("ds", T.ArrayType(T.DateType())),
        T.StructField("m", T.MapType(T.StringType(), T.DecimalType(5, 2)))])
    options = parse_registry_options({"valueformat": "json", "schema.registry.url": URL}, read=False)
    written = resolve_write(options, "nested", {"value": dtype})
    row = {"t": stamp, "d": datetime.date(2024, 2, 3), "sub": {"t": stamp}, "ts": [stamp, None],
           "ds": [datetime.date(2024, 2, 3)], "m": [("k", decimal.Decimal("1.50"))]}
    column = pa.array([row, {"t": None, "d": None, "sub": None, "ts": None, "ds": None, "m": None}],
                      spark_arrow_type(dtype))
    encoded = BatchEncoder(written, {"value": dtype})(pa.RecordBatch.from_pydict({"value": column})).column(0)
    text = "2024-01-01T00:00:00.001500Z"
    assert json.loads(encoded[0].as_py()[5:]) == {"t": text, "d": "2024-02-03", "sub": {"t": text},
                                                  "ts": [text, None], "ds": ["2024-02-03"], "m": {"k": 1.5}}
    assert json.loads(encoded[1].as_py()[5:]) == dict.fromkeys(["t", "d", "sub", "ts", "ds", "m"])


def test_json_check_writable_names_the_field(registry: Any) -> None:
    resolved = json_resolved({"type": "object", "properties": {"id": {"type": "integer"},
                                                               "name": {"type": "string"}},
                              "required": ["id"], "additionalProperties": False})
    for dtype, message in [
        (T.StructType([T.StructField("name", T.StringType())]), "the column has no field 'id', which the JSON"),
        (T.StructType([T.StructField("id", T.StringType())]), "value.id: the column is string, the JSON schema has long"),
        (T.StructType([T.StructField("id", T.LongType()), T.StructField("x", T.LongType())]),
         "value.x: the JSON schema's object has no property 'x'"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_writable(resolved, dtype)
    check_writable(resolved, T.StructType([T.StructField("id", T.IntegerType())]))


# -- Protobuf ---------------------------------------------------------------------------------------

def order(i: int) -> Any:
    m = order_types()["Order"](id=i, amount=i / 4, status=i % 2, tags=["a"] * (i % 3), big=2**64 - 1 - i)
    if i % 5:
        m.customer = f"c{i}"
    m.placed.seconds = 1700000000 + i
    m.placed.nanos = 123000
    for j in range(i % 3):
        m.lines.add(sku=f"s{j}", qty=j)
    m.attrs["n"] = str(i)
    if i % 2:
        m.note.value = "hi"
    return m


ORDER_SPARK = ("struct<id:bigint,customer:string,amount:double,placed:timestamp,status:string,"
               "lines:array<struct<sku:string,qty:int>>,attrs:map<string,string>,tags:array<string>,note:string,"
               "big:decimal(20,0)>")


@needs_numpy
def test_batch_bytes_is_a_repeated_field_of_the_payloads() -> None:
    import numpy as np

    payloads = [b"", b"x" * 200, b"abc"]
    data = np.frombuffer(b"".join(payloads), np.uint8)
    lengths = np.array([len(p) for p in payloads], np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    assert batch_bytes(data, starts, lengths) == b"\x0a\x00" + b"\x0a\xc8\x01" + b"x" * 200 + b"\x0a\x03abc"


@needs_numpy
def test_protobuf_batch_decodes_every_kind_of_field(registry: Any) -> None:
    ser = ProtobufSerializer(order_types()["Order"], registry, {"use.deprecated.format": False})
    values = [ser(order(i), CTX) for i in range(300)] + [None]
    resolved = resolve_read(read_options("protobuf"), ["orders"])
    assert resolved["value"].message == "shop.Order"
    assert spark_type(resolved["value"]).simpleString() == ORDER_SPARK
    rows = BatchDecoder(read_options("protobuf"), resolved)(kafka_batch(values)).column("value").to_pylist()
    assert rows[-1] is None
    assert rows[5] == {"id": 5, "customer": None, "amount": 1.25,
                       "placed": datetime.datetime(2023, 11, 14, 22, 13, 25, 123, tzinfo=UTC), "status": "PAID",
                       "lines": [{"sku": "s0", "qty": 0}, {"sku": "s1", "qty": 1}], "attrs": [("n", "5")],
                       "tags": ["a", "a"], "note": "hi", "big": decimal.Decimal(2**64 - 6)}
    assert rows[0]["note"] is None and rows[0]["status"] == "NEW" and rows[0]["lines"] == []


@needs_numpy
def test_protobuf_bad_records_and_other_message_types(registry: Any) -> None:
    ser = ProtobufSerializer(order_types()["Order"], registry, {"use.deprecated.format": False})
    good = ser(order(1), CTX)
    resolved = resolve_read(read_options("protobuf"), ["orders"])
    # another schema whose message at the record's indexes has another name
    other = Schema(__import__("base64").b64encode(order_file_with_other()).decode(), "PROTOBUF")
    other_id = registry.register_schema("elsewhere", other)
    misplaced = b"\x00" + other_id.to_bytes(4, "big") + b"\x00" + good[6:]
    bad = [good, good[:5] + b"\x00\xff\xff", b"\x01" + good[1:], misplaced, good[:5] + b"\x7f", good]
    with pytest.raises(MalformedRecordError, match=r"offset 101: the value does not decode as shop.Order"):
        BatchDecoder(read_options("protobuf"), resolved)(kafka_batch(bad))
    permissive = BatchDecoder(read_options("protobuf", "PERMISSIVE"), resolved)
    column, why = permissive.columns["value"].decode(pa.array(bad, pa.binary()))
    assert [r is None for r in column.to_pylist()] == [False, True, True, True, True, False]
    assert why[2].startswith("names schema guid ") and "does not hold" in why[2]  # magic byte 1: a guid
    assert why[3] == (f"was written as other.Thing (schema id {other_id}, message indexes [0]), not as the read's "
                      f"shop.Order (the option valueProtobufMessage picks the message type)")
    assert why[4].startswith("has no valid Protobuf message indexes")


def order_file_with_other() -> bytes:
    from google.protobuf import descriptor_pb2

    f = descriptor_pb2.FileDescriptorProto(name="other.proto", package="other", syntax="proto3")
    f.message_type.add(name="Thing").field.add(name="id", number=1, type=3, label=1)
    return f.SerializeToString()


@needs_numpy
def test_protobuf_write_round_trips_bytes_and_derives_schemas(registry: Any) -> None:
    ser = ProtobufSerializer(order_types()["Order"], registry, {"use.deprecated.format": False})
    values = [ser(order(i), CTX) for i in range(20)]
    resolved = resolve_read(read_options("protobuf"), ["orders"])
    column = BatchDecoder(read_options("protobuf"), resolved)(kafka_batch(values)).column("value")
    dtype = spark_type(resolved["value"])
    check_writable(resolved["value"], dtype)
    again = BatchEncoder(resolved, {"value": dtype})(pa.RecordBatch.from_pydict({"value": column})).column(0)
    assert again.to_pylist() == values  # the very bytes the serializer wrote

    derived = T.StructType([T.StructField("id", T.LongType(), False), T.StructField("name", T.StringType()),
                            T.StructField("when", T.TimestampType()), T.StructField("tags", T.ArrayType(T.StringType())),
                            T.StructField("m", T.MapType(T.StringType(), T.IntegerType())),
                            T.StructField("sub", T.StructType([T.StructField("x", T.DoubleType())]))])
    options = parse_registry_options({"valueformat": "protobuf", "schema.registry.url": URL,
                                      "valueprotobufmessage": "shop.Line"}, read=False)
    written = resolve_write(options, "out", {"value": derived})
    assert written["value"].message == "shop.Line"
    assert spark_type(written["value"]).simpleString() == derived.simpleString()
    row = {"id": 1, "name": None, "when": datetime.datetime(2024, 1, 1, tzinfo=UTC), "tags": ["x"],
           "m": [("k", 1)], "sub": {"x": 1.5}}
    encoded = BatchEncoder(written, {"value": derived})(
        pa.RecordBatch.from_pydict({"value": pa.array([row, None], spark_arrow_type(derived))})).column(0)
    back = BatchDecoder(read_options("protobuf"), written).columns["value"].decode(encoded)[0].to_pylist()
    assert back == [row, None]
    registered = registry.get_latest_version("out-value", fmt="serialized")
    assert registered.schema.schema_type == "PROTOBUF"
    # the ordinary deserializer reads it with a class of the registered message type
    from google.protobuf import message_factory

    from confluent_kafka.spark._protobuf_codec import descriptor

    cls = message_factory.GetMessageClass(descriptor(written["value"]))
    msg = ProtobufDeserializer(cls, {"use.deprecated.format": False})(encoded[0].as_py(), CTX)
    assert (msg.id, msg.HasField("name"), msg.when.seconds, list(msg.tags), dict(msg.m), msg.sub.x) == \
        (1, False, 1704067200, ["x"], {"k": 1}, 1.5)


@pytest.mark.parametrize("dtype, message", [
    (T.StructType([T.StructField("nick", T.StringType())]), "value.nick: the message shop.Order has no field 'nick'"),
    (T.StructType([T.StructField("id", T.StringType())]), "value.id: the column is string, the Protobuf schema has a "
                                                          "bigint there"),
    (T.StructType([T.StructField("tags", T.StringType())]), "value.tags: the column is string, the Protobuf field is "
                                                            "repeated"),
    (T.StructType([T.StructField("status", T.IntegerType())]), "the enum shop.Status"),
])
def test_protobuf_check_writable_names_the_field(registry: Any, dtype: Any, message: str) -> None:
    ProtobufSerializer(order_types()["Order"], registry, {"use.deprecated.format": False})(order(1), CTX)
    resolved = resolve_read(read_options("protobuf"), ["orders"])
    with pytest.raises(ValueError, match=message):
        check_writable(resolved["value"], dtype)


def test_protobuf_refuses_types_without_a_form(registry: Any) -> None:
    options = parse_registry_options({"valueformat": "protobuf", "schema.registry.url": URL}, read=False)
    with pytest.raises(ValueError, match="value.d: the Spark type date has no Protobuf form"):
        resolve_write(options, "out", {"value": T.StructType([T.StructField("d", T.DateType())])})
    with pytest.raises(ValueError, match="a protobuf column must be a struct"):
        resolve_write(options, "out", {"value": T.StringType()})


def test_protobuf_schemas_missing_synthetic_oneofs_and_map_entries_are_repaired() -> None:
    """Karapace's ``serialized`` form of ``.proto`` text drops both; the columns stay the same."""
    import base64

    from order_proto import order_file

    from confluent_kafka.spark._protobuf_codec import read_plan

    stripped = order_file()
    order_msg = stripped.message_type[0]
    for f in order_msg.field:
        f.ClearField("oneof_index")
    del order_msg.oneof_decl[:]
    order_msg.nested_type[1].ClearField("options")
    text = base64.b64encode(stripped.SerializeToString()).decode()
    resolved = ResolvedSchema("value", 1, text, format="protobuf", message="shop.Order")
    assert read_plan(resolved).spark_type.simpleString() == ORDER_SPARK


# -- subject name strategies ------------------------------------------------------------------------

STRUCT = T.StructType([T.StructField("id", T.LongType(), False)])


@pytest.mark.parametrize("fmt, more, subject", [
    ("avro", {}, "out-value"),
    ("avro", {"valueSubjectNameStrategy": "record"}, "topLevelRecord"),
    ("avro", {"valueSubjectNameStrategy": "TopicRecordNameStrategy"}, "out-topLevelRecord"),
    ("avro", {"valueSubjectNameStrategy": "record", "valueAvroSchema": json.dumps({
        "type": "record", "name": "Rec", "namespace": "ns", "fields": [{"name": "id", "type": "long"}]})}, "ns.Rec"),
    ("json", {"valueSubjectNameStrategy": "record"}, "topLevelRecord"),
    ("json", {"valueSubjectNameStrategy": "topic_record", "valueJsonSchema": json.dumps({
        "title": "Thing", "type": "object", "properties": {"id": {"type": "integer"}}})}, "out-Thing"),
    ("protobuf", {"valueSubjectNameStrategy": "record", "valueProtobufMessage": "shop.Line"}, "shop.Line"),
    ("protobuf", {"valueSubjectNameStrategy": "topic_record"}, "out-topLevelRecord"),
])
def test_writes_register_under_the_strategy_subject(registry: Any, fmt: str, more: Dict[str, str],
                                                    subject: str) -> None:
    options = parse_registry_options({"valueformat": fmt, "schema.registry.url": URL,
                                      **{k.lower(): v for k, v in more.items()}}, read=False)
    written = resolve_write(options, "out", {"value": STRUCT})
    assert written["value"].subject == subject
    assert registry.get_latest_version(subject).schema_id == written["value"].schema_id


def test_strategies_refused_where_the_record_is_unknown(registry: Any) -> None:
    with pytest.raises(ValueError, match="option 'valueSubjectNameStrategy' must be topic, record or topic_record"):
        ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "avro", "valueSubjectNameStrategy": "daily", **REG},
                          streaming=False)
    with pytest.raises(ValueError, match="'keySubjectNameStrategy' needs keyFormat="):
        ReadOptions.parse({**BS, "subscribe": "t", "keySubjectNameStrategy": "record"}, streaming=False)
    options = read_options("json", valueSubjectNameStrategy="record")
    with pytest.raises(ValueError, match="set the option 'valueSubject' \\(or 'valueSchemaId'\\): with "
                                         "valueSubjectNameStrategy=record the subject names the record"):
        resolve_read(options, ["orders"])
    JSONSerializer(json.dumps(ORDER_JSON), registry)({"id": 1}, CTX)
    by_subject = read_options("json", valueSubjectNameStrategy="record", valueSubject="orders-value")
    assert resolve_read(by_subject, ["orders"])["value"].subject == "orders-value"
