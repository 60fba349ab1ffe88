"""Schema Registry Avro in confluent_kafka.spark without Spark running or a broker: the Avro ->
Spark type mapping (and back), the registry options, and batch decoding / encoding against the
in-process mock:// registry."""

from __future__ import annotations

import datetime
import decimal
import json
from typing import Any, Dict, List, Optional

import pytest

from optional import needs_numpy

pytest.importorskip("pyspark", reason="pyspark is in the test extra")
pytest.importorskip("fastavro", reason="the avro extra is not installed")

import pyarrow as pa  # noqa: E402
from pyspark.sql import types as T  # noqa: E402
from pyspark.sql.pandas.types import to_arrow_schema  # noqa: E402

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402
from confluent_kafka.spark._avro_codec import (  # noqa: E402
    BatchDecoder,
    BatchEncoder,
    MalformedRecordError,
    check_writable,
)
from confluent_kafka.spark._avro_types import (  # noqa: E402
    AvroSchemaError,
    avro_nullable,
    avro_to_spark,
    read_plan,
    spark_to_avro,
    strip_logical_types,
)
from confluent_kafka.spark._options import ReadOptions, WriteOptions  # noqa: E402
from confluent_kafka.spark._registry import (  # noqa: E402
    RegistryOptions,
    ResolvedSchema,
    parse_registry_options,
    self_contained,
)
from confluent_kafka.spark._schema import read_schema  # noqa: E402
from confluent_kafka.spark._writer import check_schema  # noqa: E402

BS = {"kafka.bootstrap.servers": "127.0.0.1:9"}


def spark(schema: Any) -> str:
    return avro_to_spark(schema).simpleString()


def field(name: str, type_: Any, **more: Any) -> Dict[str, Any]:
    return {"name": name, "type": type_, **more}


def record(name: str, *fields: Dict[str, Any], **more: Any) -> Dict[str, Any]:
    return {"type": "record", "name": name, "fields": list(fields), **more}


# -- Avro -> Spark ---------------------------------------------------------------------------------

@pytest.mark.parametrize("avro, want", [
    ("boolean", "boolean"),
    ("int", "int"),
    ("long", "bigint"),
    ("float", "float"),
    ("double", "double"),
    ("bytes", "binary"),
    ("string", "string"),
    ("null", "void"),
    ({"type": "string", "logicalType": "uuid"}, "string"),
    ({"type": "enum", "name": "E", "symbols": ["A", "B"]}, "string"),
    ({"type": "fixed", "name": "F", "size": 16}, "binary"),
    ({"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}, "decimal(10,2)"),
    ({"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 0},
     "decimal(18,0)"),
    ({"type": "int", "logicalType": "date"}, "date"),
    ({"type": "int", "logicalType": "time-millis"}, "int"),
    ({"type": "long", "logicalType": "time-micros"}, "bigint"),
    ({"type": "long", "logicalType": "timestamp-millis"}, "timestamp"),
    ({"type": "long", "logicalType": "timestamp-micros"}, "timestamp"),
    ({"type": "long", "logicalType": "local-timestamp-millis"}, "timestamp_ntz"),
    ({"type": "long", "logicalType": "local-timestamp-micros"}, "timestamp_ntz"),
    ({"type": "array", "items": "string"}, "array<string>"),
    ({"type": "map", "values": {"type": "array", "items": "long"}}, "map<string,array<bigint>>"),
    (["null", "string"], "string"),
    (["string", "null"], "string"),
    (["null"], "void"),
    (["int", "long"], "bigint"),
    (["null", "long", "int"], "bigint"),
    (["float", "double"], "double"),
    (["int", "string"], "struct<member0:int,member1:string>"),
    (["null", "int", "string", {"type": "array", "items": "int"}],
     "struct<member0:int,member1:string,member2:array<int>>"),
    (["int", "float"], "struct<member0:int,member1:float>"),
    ({"type": ["null", "double"]}, "double"),
])
def test_avro_types_map_to_the_spark_types_from_avro_gives(avro: Any, want: str) -> None:
    assert spark(avro) == want


def test_nullability_follows_unions_with_null() -> None:
    schema = record("R", field("a", "int"), field("b", ["null", "int"]), field("c", {"type": "array",
                    "items": ["null", "string"]}), field("d", {"type": "map", "values": "string"}),
                    field("e", ["int", "string"]))
    st = avro_to_spark(schema)
    assert [(f.name, f.nullable) for f in st.fields] == [("a", False), ("b", True), ("c", False), ("d", False),
                                                         ("e", False)]
    assert st["c"].dataType.containsNull is True
    assert st["d"].dataType.valueContainsNull is False
    assert all(f.nullable for f in st["e"].dataType.fields)  # union members are always nullable
    assert avro_nullable(["null", "int"]) and avro_nullable("null") and not avro_nullable(schema)


def test_nested_records_named_types_and_namespaces() -> None:
    inner = {"type": "record", "name": "Inner", "namespace": "a.b", "fields": [field("x", "int")]}
    color = {"type": "enum", "name": "Color", "symbols": ["RED"]}
    schema = record("Outer", field("first", inner), field("again", "a.b.Inner"), field("short", ["null", "Inner"]),
                    field("c", color), field("c2", "Color"), field("deep", record("Deep", field("in", "Inner"))),
                    namespace="a.b")
    assert spark(schema) == ("struct<first:struct<x:int>,again:struct<x:int>,short:struct<x:int>,c:string,"
                             "c2:string,deep:struct<in:struct<x:int>>>")
    assert spark(json.dumps(schema)) == spark(schema)  # text works too


def test_record_unions_of_named_types_become_member_structs() -> None:
    a = record("A", field("x", "int"))
    b = record("B", field("y", "string"))
    assert spark(["null", a, b]) == "struct<member0:struct<x:int>,member1:struct<y:string>>"
    e = {"type": "enum", "name": "E", "symbols": ["Q"]}
    f = {"type": "fixed", "name": "F", "size": 2}
    assert spark([e, f, "int"]) == "struct<member0:string,member1:binary,member2:int>"


@pytest.mark.parametrize("avro, message", [
    (["int", "long", "string"], "cannot be told apart"),
    (["float", "double", "int"], "cannot be told apart"),
    (["string", {"type": "enum", "name": "E", "symbols": ["A"]}], "cannot be told apart"),
    ([{"type": "map", "values": "int"}, record("R", field("x", "int"))], "cannot be told apart"),
    (["bytes", {"type": "fixed", "name": "F", "size": 1}], "cannot be told apart"),
    (record("Node", field("v", "int"), field("next", ["null", "Node"])), "contains itself"),
    ({"type": "bytes", "logicalType": "decimal", "precision": 39, "scale": 0}, "wider than Spark's 38"),
    ({"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 5}, "not valid"),
    (record("R", field("x", "Missing")), "not defined before its use"),
    ({"type": "whatever"}, "not defined before its use"),
    ([], "empty union"),
])
def test_schemas_without_a_spark_type_are_refused_naming_the_field(avro: Any, message: str) -> None:
    with pytest.raises(AvroSchemaError, match=message):
        avro_to_spark(avro)


ALL_TYPES = record(
    "All",
    field("b", "boolean"), field("i", "int"), field("l", "long"), field("f", "float"), field("d", "double"),
    field("s", "string"), field("by", "bytes"),
    field("e", {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}),
    field("fx", {"type": "fixed", "name": "F4", "size": 4}),
    field("dec", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}),
    field("fdec", {"type": "fixed", "name": "FD", "size": 8, "logicalType": "decimal", "precision": 12, "scale": 3}),
    field("date", {"type": "int", "logicalType": "date"}),
    field("tsm", {"type": "long", "logicalType": "timestamp-millis"}),
    field("tsu", {"type": "long", "logicalType": "timestamp-micros"}),
    field("ltm", {"type": "long", "logicalType": "local-timestamp-millis"}),
    field("ltu", {"type": "long", "logicalType": "local-timestamp-micros"}),
    field("u", {"type": "string", "logicalType": "uuid"}),
    field("tm", {"type": "int", "logicalType": "time-millis"}),
    field("arr", {"type": "array", "items": ["null", "string"]}),
    field("m", {"type": "map", "values": {"type": "long", "logicalType": "timestamp-millis"}}),
    field("nested", ["null", record("Inner", field("x", "int"), field("c", "Color"))], default=None),
    field("il", ["int", "long"]),
    field("cu", ["null", "int", "string", {"type": "array", "items": "int"}]),
    field("two", ["Inner", record("Other", field("y", "string"))]),
    namespace="ex",
)


def test_arrow_types_are_those_spark_expects() -> None:
    plan = read_plan(ALL_TYPES)
    want = to_arrow_schema(T.StructType([T.StructField("value", plan.spark_type, True)]), timezone="UTC")
    assert pa.schema([pa.field("value", plan.arrow_type, True)]).equals(want)
    # millisecond timestamps are built at their unit, then cast
    assert plan.raw_type.field("tsm").type == pa.timestamp("ms", tz="UTC")
    assert plan.raw_type.field("ltm").type == pa.timestamp("ms")
    assert plan.raw_type.field("m").type.item_type == pa.timestamp("ms", tz="UTC")
    assert plan.raw_type.field("tsu").type == pa.timestamp("us", tz="UTC")
    assert plan.convert is not None  # the member-struct unions


def test_strip_logical_types_keeps_decimals_and_everything_else() -> None:
    stripped = strip_logical_types(ALL_TYPES)
    text = json.dumps(stripped)
    for gone in ("timestamp-millis", "timestamp-micros", "local-timestamp", "uuid", "time-millis", '"logicalType": "date"'):
        assert gone not in text
    assert text.count('"decimal"') == 2
    assert spark(stripped).count("timestamp") == 0  # ints now
    assert avro_to_spark(stripped)["dec"].dataType == T.DecimalType(10, 2)


# -- Spark -> Avro ---------------------------------------------------------------------------------

def test_spark_types_map_back_to_avro_like_to_avro() -> None:
    st = T.StructType([
        T.StructField("id", T.LongType(), False),
        T.StructField("name", T.StringType(), True),
        T.StructField("small", T.ShortType(), False),
        T.StructField("when", T.TimestampType(), True),
        T.StructField("local", T.TimestampNTZType(), True),
        T.StructField("day", T.DateType(), True),
        T.StructField("price", T.DecimalType(9, 3), True),
        T.StructField("blob", T.BinaryType(), True),
        T.StructField("tags", T.ArrayType(T.StringType(), True), True),
        T.StructField("attrs", T.MapType(T.StringType(), T.DoubleType(), False), True),
        T.StructField("inner", T.StructType([T.StructField("ok", T.BooleanType(), False)]), True),
    ])
    avro = spark_to_avro(st)
    assert avro["name"] == "topLevelRecord" and "namespace" not in avro
    fields = {f["name"]: f for f in avro["fields"]}
    assert fields["id"] == {"name": "id", "type": "long"}
    assert fields["name"] == {"name": "name", "type": ["null", "string"], "default": None}
    assert fields["small"]["type"] == "int"
    assert fields["when"]["type"][1] == {"type": "long", "logicalType": "timestamp-micros"}
    assert fields["local"]["type"][1]["logicalType"] == "local-timestamp-micros"
    assert fields["price"]["type"][1] == {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 3}
    assert fields["tags"]["type"][1] == {"type": "array", "items": ["null", "string"]}
    assert fields["attrs"]["type"][1] == {"type": "map", "values": "double"}
    assert fields["inner"]["type"][1]["namespace"] == "topLevelRecord"
    # and back: the same Spark type (short widens to int, as in Spark)
    back = avro_to_spark(avro)
    assert back["small"].dataType == T.IntegerType()
    assert [f.name for f in back.fields] == [f.name for f in st.fields]
    assert all(back[f.name].nullable == f.nullable for f in st.fields)
    assert back["attrs"].dataType == st["attrs"].dataType and back["inner"].dataType == st["inner"].dataType


@pytest.mark.parametrize("dtype, message", [
    (T.MapType(T.IntegerType(), T.StringType()), "Avro maps need strings"),
    (T.StructType([T.StructField("bad-name", T.IntegerType())]), "not an Avro name"),
    (T.DayTimeIntervalType(), "has no Avro form"),
])
def test_spark_types_without_avro_form_are_refused(dtype: Any, message: str) -> None:
    with pytest.raises(AvroSchemaError, match=message):
        spark_to_avro(dtype)


# -- options ---------------------------------------------------------------------------------------

REG = {"schema.registry.url": "http://127.0.0.1:1"}


def test_registry_options_parse_with_spark_like_names() -> None:
    o = ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "AVRO", "keyFormat": "avro",
                           "keySubject": "keys", "valueSchemaVersion": "3", **REG,
                           "schema.registry.basic.auth.user.info": "u:p", "schema.registry.timeout": "5",
                           "mode": "permissive"}, streaming=False)
    r = o.registry
    assert r is not None and r.mode == "PERMISSIVE"
    assert r.client_conf() == {"url": "http://127.0.0.1:1", "basic.auth.user.info": "u:p", "timeout": 5}
    assert r.value is not None and r.value.version == 3 and r.value.subject is None
    assert r.key is not None and r.key.subject == "keys" and r.key.version is None
    assert "schema.registry.url" not in str(o.conf)  # not handed to librdkafka
    plain = ReadOptions.parse({**BS, "subscribe": "t"}, streaming=False)
    assert plain.registry is None and plain.with_schemas() is plain
    w = WriteOptions.parse({**BS, "topic": "t", "valueFormat": "avro", "valueSchemaId": "7", **REG})
    assert w.registry is not None and w.registry.value is not None and w.registry.value.schema_id == 7
    assert w.encoded_columns() == ("value",)


@pytest.mark.parametrize("options, message", [
    ({"valueFormat": "xml", **REG}, "must be one of binary, avro, json, protobuf"),
    ({"valueFormat": "avro"}, "needs the option 'schema.registry.url'"),
    ({"schema.registry.url": "http://x"}, "needs valueFormat=avro or keyFormat=avro \\(or json, or protobuf\\)"),
    ({"valueSubject": "s"}, "'valueSubject' needs valueFormat=avro, json or protobuf"),
    ({"valueFormat": "avro", **REG, "valueSchemaId": "0"}, "at least 1"),
    ({"valueFormat": "avro", **REG, "valueSchemaId": "x"}, "must be an integer"),
    ({"valueFormat": "avro", **REG, "valueSchemaId": "1", "valueSchemaVersion": "2"}, "set one"),
    ({"valueFormat": "avro", **REG, "valueAvroSchema": '"string"'}, "is for writes"),
    ({"valueFormat": "avro", **REG, "mode": "lenient"}, "must be one of FAILFAST, PERMISSIVE, DROPMALFORMED"),
    ({"valueFormat": "avro", **REG, "schema.registry.max.retries": "many"}, "must be a number"),
])
def test_bad_registry_read_options(options: Dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse({**BS, "subscribe": "t", **options}, streaming=False)


@pytest.mark.parametrize("options, message", [
    ({"valueFormat": "avro", **REG, "mode": "PERMISSIVE"}, "'mode' is for reads"),
    ({"valueFormat": "avro", **REG, "valueAvroSchema": "{no"}, "is not JSON"),
    ({"valueFormat": "avro", **REG, "valueAvroSchema": '"string"', "valueSchemaId": "3"}, "cannot be combined"),
])
def test_bad_registry_write_options(options: Dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WriteOptions.parse({**BS, "topic": "t", **options})


def test_avro_columns_may_have_any_type_only_when_encoded() -> None:
    fields = [("value", "struct<a:int>"), ("key", "string")]
    check_schema(fields, "t", ("value",))
    with pytest.raises(ValueError, match="column 'value' has type struct<a:int>"):
        check_schema(fields, "t")


# -- decoding and encoding against mock:// ---------------------------------------------------------

URL = "mock://spark-avro-tests"


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A mock:// registry, also the one the source's planning looks schemas up in."""
    import os

    from confluent_kafka.spark import _registry

    client = SchemaRegistryClient.new_client({"url": URL})
    monkeypatch.setattr(_registry, "_clients", {(os.getpid(), (("url", URL),)): client})
    yield client
    for subject in client.get_subjects():
        client.delete_subject(subject, permanent=True)


def resolve(client: Any, schema_id: int, field_name: str = "value") -> ResolvedSchema:
    return ResolvedSchema(field_name, schema_id, self_contained(client.get_schema(schema_id), client, "test"))


def registry_options(mode: str = "FAILFAST") -> RegistryOptions:
    return RegistryOptions(conf=(("url", URL),), key=None, value=None, mode=mode)


def kafka_batch(values: List[Optional[bytes]], keys: Optional[List[Optional[bytes]]] = None) -> Any:
    n = len(values)
    return pa.RecordBatch.from_pydict({
        "key": pa.array(keys or [None] * n, pa.binary()), "value": pa.array(values, pa.binary()),
        "topic": ["orders"] * n, "partition": pa.array([2] * n, pa.int32()),
        "offset": pa.array(range(100, 100 + n), pa.int64())})


def serialize(client: Any, schema: Any, records: List[Any], topic: str = "orders",
              field_name: MessageField = MessageField.VALUE) -> List[Optional[bytes]]:
    ser = AvroSerializer(client, json.dumps(schema))
    ctx = SerializationContext(topic, field_name)
    return [ser(r, ctx) for r in records]


UTC = datetime.timezone.utc
WHEN = datetime.datetime(2024, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
FULL = {"b": True, "i": -5, "l": 1 << 40, "f": 1.5, "d": 2.25, "s": "hé", "by": b"\x00\x01", "e": "GREEN",
        "fx": b"abcd", "dec": decimal.Decimal("123.45"), "fdec": decimal.Decimal("-1.250"),
        "date": datetime.date(2024, 2, 29), "tsm": WHEN, "tsu": WHEN.replace(microsecond=678901),
        "ltm": datetime.datetime(2024, 1, 2, 3, 4, 5, 678000), "ltu": datetime.datetime(1969, 12, 31, 23, 59, 59, 1),
        "u": "00000000-0000-0000-0000-000000000005", "tm": datetime.time(1, 2, 3, 4000), "arr": ["a", None],
        "m": {"k": WHEN}, "nested": {"x": 1, "c": "RED"}, "il": 7, "cu": "str", "two": {"y": "why"}}


@needs_numpy
def test_every_avro_type_decodes_into_its_spark_column(registry: Any) -> None:
    other = dict(FULL, nested=None, cu=[1, 2], two={"x": 3, "c": "GREEN"}, arr=[], il=-(1 << 40), m={})
    data = serialize(registry, ALL_TYPES, [FULL, None, other])
    decoder = BatchDecoder(registry_options(), {"value": resolve(registry, 1)}, registry)
    out = decoder(kafka_batch(data))
    assert out.schema.field("value").type == read_plan(ALL_TYPES).arrow_type
    first, tombstone, second = out.column("value").to_pylist()
    assert tombstone is None
    want = dict(FULL, tm=3723004, m=[("k", WHEN)], cu={"member0": None, "member1": "str", "member2": None},
                two={"member0": None, "member1": {"y": "why"}})
    assert {k: v for k, v in first.items()} == want
    assert second["cu"] == {"member0": None, "member1": None, "member2": [1, 2]}
    assert second["two"] == {"member0": {"x": 3, "c": "GREEN"}, "member1": None}
    assert second["nested"] is None and second["il"] == -(1 << 40) and second["arr"] == [] and second["m"] == []
    # the other columns pass through untouched
    assert out.column("offset").to_pylist() == [100, 101, 102]


V1 = record("User", field("name", "string"), field("age", "int"), namespace="ex")
V2 = record("User", field("name", "string"), field("age", "long"),
            field("email", ["null", "string"], default=None), namespace="ex")


@needs_numpy
def test_older_writer_schemas_are_read_into_the_planned_reader_schema(registry: Any) -> None:
    old = serialize(registry, V1, [{"name": "ann", "age": 30}])
    new = serialize(registry, V2, [{"name": "bob", "age": 1 << 33, "email": "b@x"}])
    assert (old[0] or b"")[1:5] != (new[0] or b"")[1:5]  # two schema ids
    reader_id = registry.get_latest_version("orders-value").schema_id
    decoder = BatchDecoder(registry_options(), {"value": resolve(registry, reader_id)}, registry)
    out = decoder(kafka_batch([old[0], new[0], old[0]]))
    assert out.schema.field("value").type.field("age").type == pa.int64()  # int widened to the reader's long
    assert out.column("value").to_pylist() == [
        {"name": "ann", "age": 30, "email": None},
        {"name": "bob", "age": 1 << 33, "email": "b@x"},
        {"name": "ann", "age": 30, "email": None}]


@needs_numpy
def test_a_writer_schema_the_reader_cannot_resolve_is_malformed(registry: Any) -> None:
    new = serialize(registry, V2, [{"name": "bob", "age": 5, "email": None}])
    v1 = registry.register_schema("old-value", Schema(json.dumps(V1), "AVRO"))
    old_reader = BatchDecoder(registry_options("PERMISSIVE"), {"value": resolve(registry, v1)}, registry)
    assert old_reader(kafka_batch(new)).column("value").to_pylist() == [None]  # long does not narrow to int
    with pytest.raises(MalformedRecordError, match=f"into the reader schema id {v1}"):
        BatchDecoder(registry_options(), {"value": resolve(registry, v1)}, registry)(kafka_batch(new))


BAD = [b"{\"json\": 1}", b"\x00\x00\x00\x03\xe7abc", b"\x00\x00", None]


@needs_numpy
def test_failfast_names_topic_partition_offset_and_why(registry: Any) -> None:
    good = serialize(registry, V1, [{"name": "ann", "age": 30}])
    decoder = BatchDecoder(registry_options(), {"value": resolve(registry, 1)}, registry)
    for position, bad in enumerate(BAD[:3]):
        with pytest.raises(MalformedRecordError) as info:
            decoder(kafka_batch(good + [bad]))
        text = str(info.value)
        assert text.startswith("orders[2] offset 101: the value "), text
        assert "mode to PERMISSIVE" in text and "DROPMALFORMED" in text
        assert isinstance(info.value, SerializationError)
        assert ["starts with byte 0x7b", "schema id 999, which the Schema Registry does not hold",
                "shorter than the 5-byte"][position] in text


@needs_numpy
def test_truncated_payload_is_malformed_and_named(registry: Any) -> None:
    good = serialize(registry, V1, [{"name": "ann", "age": 30}])[0] or b""
    decoder = BatchDecoder(registry_options(), {"value": resolve(registry, 1)}, registry)
    with pytest.raises(MalformedRecordError, match="offset 100: the value does not decode with its writer schema id 1"):
        decoder(kafka_batch([good[:7], good]))


@needs_numpy
def test_permissive_nulls_and_dropmalformed_drops(registry: Any) -> None:
    good = serialize(registry, V1, [{"name": "ann", "age": 30}, {"name": "bob", "age": 31}])
    values = [good[0]] + BAD + [good[1]]
    resolved = {"value": resolve(registry, 1)}
    permissive = BatchDecoder(registry_options("PERMISSIVE"), resolved, registry)(kafka_batch(values))
    assert permissive.column("value").to_pylist() == [{"name": "ann", "age": 30}, None, None, None, None,
                                                      {"name": "bob", "age": 31}]
    dropped = BatchDecoder(registry_options("DROPMALFORMED"), resolved, registry)(kafka_batch(values))
    assert dropped.column("offset").to_pylist() == [100, 104, 105]  # the tombstone (null value) is kept
    assert dropped.column("value").to_pylist() == [{"name": "ann", "age": 30}, None, {"name": "bob", "age": 31}]
    # a slice of a batch (Arrow arrays with an offset) decodes the same
    sliced = BatchDecoder(registry_options("PERMISSIVE"), resolved, registry)(kafka_batch(values).slice(3))
    assert sliced.column("value").to_pylist() == [None, None, {"name": "bob", "age": 31}]
    assert BatchDecoder(registry_options(), resolved, registry)(kafka_batch(good * 3).slice(2, 3)).column(
        "value").to_pylist() == [{"name": "ann", "age": 30}, {"name": "bob", "age": 31}, {"name": "ann", "age": 30}]


@needs_numpy
def test_keys_decode_too_and_a_bad_key_drops_the_row(registry: Any) -> None:
    keys = serialize(registry, "string", ["k1", "k2"], field_name=MessageField.KEY)
    values = serialize(registry, V1, [{"name": "ann", "age": 30}, {"name": "bob", "age": 31}])
    key_id = registry.get_latest_version("orders-key").schema_id
    value_id = registry.get_latest_version("orders-value").schema_id
    resolved = {"key": resolve(registry, key_id, "key"), "value": resolve(registry, value_id)}
    out = BatchDecoder(registry_options(), resolved, registry)(kafka_batch(values, keys))
    assert out.column("key").to_pylist() == ["k1", "k2"]
    assert out.schema.field("key").type == pa.string()
    dropped = BatchDecoder(registry_options("DROPMALFORMED"), resolved, registry)(
        kafka_batch(values, [keys[0], b"plain"]))
    assert dropped.column("key").to_pylist() == ["k1"]
    with pytest.raises(MalformedRecordError, match="offset 101: the key starts with byte 0x70"):
        BatchDecoder(registry_options(), resolved, registry)(kafka_batch(values, [keys[0], b"plain"]))


@needs_numpy
def test_schemas_with_references_decode(registry: Any) -> None:
    from confluent_kafka.schema_registry import SchemaReference

    address = record("Address", field("city", "string"), namespace="ex")
    registry.register_schema("address", Schema(json.dumps(address), "AVRO"))
    person = record("Person", field("name", "string"), field("home", "ex.Address"),
                    field("work", ["null", "ex.Address"], default=None), namespace="ex")
    pid = registry.register_schema("people-value", Schema(json.dumps(person), "AVRO",
                                                          [SchemaReference("ex.Address", "address", 1)]))
    resolved = resolve(registry, pid)
    assert read_schema(False, {"value": resolved})["value"].dataType.simpleString() == \
        "struct<name:string,home:struct<city:string>,work:struct<city:string>>"
    import fastavro

    parsed = fastavro.parse_schema(json.loads(resolved.schema))
    import io

    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, parsed, {"name": "n", "home": {"city": "a"}, "work": {"city": "b"}})
    framed = b"\x00" + pid.to_bytes(4, "big") + buf.getvalue()
    out = BatchDecoder(registry_options(), {"value": resolved}, registry)(kafka_batch([framed]))
    assert out.column("value").to_pylist() == [{"name": "n", "home": {"city": "a"}, "work": {"city": "b"}}]


@needs_numpy
def test_encoding_round_trips_every_type(registry: Any) -> None:
    data = serialize(registry, ALL_TYPES, [FULL, None])
    resolved = {"value": resolve(registry, 1)}
    decoded = BatchDecoder(registry_options(), resolved, registry)(kafka_batch(data))
    spark_type = read_plan(ALL_TYPES).spark_type
    check_writable(resolved["value"], spark_type)
    encoded = BatchEncoder(resolved, {"value": spark_type})(decoded.select(["key", "value"]))
    assert encoded.schema.field("value").type == pa.binary()
    assert encoded.column("value").to_pylist() == data  # byte for byte what the serializer wrote


@needs_numpy
def test_encoding_a_column_with_fewer_fields_uses_defaults_and_checks_fit(registry: Any) -> None:
    sid = registry.register_schema("orders-value", Schema(json.dumps(V2), "AVRO"))
    resolved = ResolvedSchema("value", sid, self_contained(registry.get_schema(sid), registry, "t"))
    st = T.StructType([T.StructField("name", T.StringType(), True), T.StructField("age", T.IntegerType(), True)])
    check_writable(resolved, st)
    column = pa.array([{"name": "ann", "age": 3}, None], pa.struct([("name", pa.string()), ("age", pa.int32())]))
    out = BatchEncoder({"value": resolved}, {"value": st})(pa.RecordBatch.from_arrays([column], ["value"]))
    back = BatchDecoder(registry_options(), {"value": resolved}, registry)(
        kafka_batch(out.column("value").to_pylist()))
    assert back.column("value").to_pylist() == [{"name": "ann", "age": 3, "email": None}, None]
    for bad, message in [
        (T.StructType([T.StructField("nick", T.StringType())]), "has no field 'nick'"),
        (T.StructType([T.StructField("age", T.LongType())]), "no field 'name', which the Avro record"),
        (T.StructType([T.StructField("name", T.BinaryType()), T.StructField("age", T.IntegerType())]),
         r"value.name: the column is binary, the Avro schema has \"string\""),
        (T.StringType(), "the column is string, the Avro schema has record"),
    ]:
        with pytest.raises(ValueError, match=message):
            check_writable(resolved, bad)


def test_encoding_a_value_the_schema_refuses_names_the_row(registry: Any) -> None:
    sid = registry.register_schema("orders-value", Schema(json.dumps(V1), "AVRO"))
    resolved = ResolvedSchema("value", sid, self_contained(registry.get_schema(sid), registry, "t"))
    st = T.StructType([T.StructField("name", T.StringType(), True), T.StructField("age", T.IntegerType(), True)])
    column = pa.array([{"name": "ann", "age": 3}, {"name": None, "age": 4}],
                      pa.struct([("name", pa.string()), ("age", pa.int32())]))
    with pytest.raises(SerializationError, match="the value of row 1 of this batch does not encode with schema id"):
        BatchEncoder({"value": resolved}, {"value": st})(pa.RecordBatch.from_arrays([column], ["value"]))


def test_planning_names_what_the_registry_does_not_hold(registry: Any) -> None:
    from confluent_kafka.spark._registry import resolve_read

    options = parse_registry_options({"valueformat": "avro", "schema.registry.url": URL}, read=True)
    assert options is not None
    with pytest.raises(ValueError, match="the Schema Registry has no subject 'nothing-value'"):
        resolve_read(options, ["nothing"])
    with pytest.raises(ValueError, match="set the option 'valueSubject'"):
        resolve_read(options, ["a", "b"])
    by_id = parse_registry_options({"valueformat": "avro", "schema.registry.url": URL, "valueschemaid": "77"},
                                   read=True)
    assert by_id is not None
    with pytest.raises(ValueError, match="the Schema Registry has no schema id 77"):
        resolve_read(by_id, None)
    registry.register_schema("orders-value", Schema(json.dumps(V1), "AVRO"))
    resolved = resolve_read(options, ["orders"])["value"]
    assert (resolved.subject, resolved.version) == ("orders-value", 1)
    assert avro_to_spark(resolved.schema).simpleString() == "struct<name:string,age:int>"


def test_a_schema_given_to_a_decoding_read_must_be_the_registry_one(registry: Any) -> None:
    from confluent_kafka.spark._source import check_read_schema

    sid = registry.register_schema("orders-value", Schema(json.dumps(V1), "AVRO"))
    options = ReadOptions.parse({**BS, "subscribe": "orders", "valueFormat": "avro", "schema.registry.url": URL},
                                streaming=False).with_schemas()
    assert options.schemas is not None and options.schemas["value"].schema_id == sid
    expected = read_schema(False, options.schemas)
    check_read_schema(options, expected)
    check_read_schema(options, None)
    with pytest.raises(ValueError, match="fixed by the Schema Registry"):
        check_read_schema(options, T.StructType([T.StructField("value", T.BinaryType())]))
