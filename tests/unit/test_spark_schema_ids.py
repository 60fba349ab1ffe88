"""The schema guid framings in confluent_kafka.spark, without Spark running or a broker: records
whose schema is named by a guid (magic byte 1 in the value) or by a ``__value_schema_id`` /
``__key_schema_id`` header (id or guid), written by the package's own serializers and read by
the data source's batch decoders, and the data source's writes read back by the package's own
deserializers, all on the in-process mock:// registry (which has guids; Karapace has none)."""

from __future__ import annotations

import json
import os
import uuid
from typing import Any, Dict, List, Optional, Tuple

import pytest

from optional import needs_numpy

pytest.importorskip("pyspark", reason="pyspark is in the test extra")
pytest.importorskip("fastavro", reason="the avro extra is not installed")
pytest.importorskip("google.protobuf", reason="the protobuf extra is not installed")
pytest.importorskip("jsonschema", reason="the json extra is not installed")

import pyarrow as pa  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

from order_proto import types as order_types  # noqa: E402

from confluent_kafka.schema_registry import SchemaRegistryClient, header_schema_id_serializer  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402
from confluent_kafka.spark._avro_codec import MalformedRecordError  # noqa: E402
from confluent_kafka.spark._codecs import BatchDecoder, BatchEncoder  # noqa: E402
from confluent_kafka.spark._framing import add_headers  # noqa: E402
from confluent_kafka.spark._options import ReadOptions, WriteOptions  # noqa: E402
from confluent_kafka.spark._registry import parse_registry_options, resolve_read, resolve_write  # noqa: E402

URL = "mock://spark-schema-ids-tests"
BS = {"kafka.bootstrap.servers": "127.0.0.1:9"}
REG = {"schema.registry.url": URL}
TOPIC = "orders"
USER = {"type": "record", "name": "User", "fields": [{"name": "id", "type": "long"},
                                                      {"name": "name", "type": ["null", "string"]}]}
USER_JSON = {"type": "object", "title": "User", "properties": {"id": {"type": "integer"},
                                                                "name": {"type": ["string", "null"]}}}
HeaderList = List[Tuple[str, bytes]]


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    from confluent_kafka.spark import _registry

    client = SchemaRegistryClient.new_client({"url": URL})
    monkeypatch.setattr(_registry, "_clients", {(os.getpid(), (("url", URL),)): client})
    yield client
    for subject in client.get_subjects():
        client.delete_subject(subject, permanent=True)


def options(fmt: str, read: bool = True, mode: str = "FAILFAST", **more: str) -> Any:
    o = {"valueformat": fmt, **{k.lower(): v for k, v in REG.items()}, **{k.lower(): v for k, v in more.items()}}
    if read:
        o["mode"] = mode
    return parse_registry_options(o, read=read)


def kafka_batch(values: List[Optional[bytes]], headers: Optional[List[Optional[HeaderList]]]) -> Any:
    n = len(values)
    columns: Dict[str, Any] = {
        "key": pa.array([None] * n, pa.binary()), "value": pa.array(values, pa.binary()),
        "topic": [TOPIC] * n, "partition": pa.array([0] * n, pa.int32()),
        "offset": pa.array(range(n), pa.int64())}
    if headers is not None:
        entry = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])
        columns["headers"] = pa.array([None if h is None else [{"key": k, "value": v} for k, v in h] for h in headers],
                                      pa.list_(pa.field("element", entry)))
    return pa.RecordBatch.from_pydict(columns)


def serializers(fmt: str, registry: Any) -> Tuple[Any, Any, Any]:
    """``(classic serializer, header guid serializer, a record maker)`` of ``fmt``."""
    header = {"schema.id.serializer": header_schema_id_serializer}
    if fmt == "avro":
        text = json.dumps(USER)
        return (AvroSerializer(registry, text), AvroSerializer(registry, text, conf=header),
                lambda i: {"id": i, "name": f"n{i}"})
    if fmt == "json":
        text = json.dumps(USER_JSON)
        return (JSONSerializer(text, registry), JSONSerializer(text, registry, conf=header),
                lambda i: {"id": i, "name": f"n{i}"})
    cls = order_types()["Order"]
    return (ProtobufSerializer(cls, registry, {"use.deprecated.format": False}),
            ProtobufSerializer(cls, registry, {"use.deprecated.format": False, **header}),
            lambda i: cls(id=i, customer=f"n{i}"))


def ids_of(value: Optional[Dict[str, Any]], fmt: str) -> Optional[Tuple[int, str]]:
    if value is None:
        return None
    return (value["id"], value["customer" if fmt == "protobuf" else "name"])


@needs_numpy
@pytest.mark.parametrize("fmt", ["avro", "json", "protobuf"])
def test_reads_every_way_a_record_names_its_schema(registry: Any, fmt: str) -> None:
    classic, by_header, make = serializers(fmt, registry)
    values: List[Optional[bytes]] = []
    headers: List[Optional[HeaderList]] = []
    for i in range(8):
        ctx = SerializationContext(TOPIC, MessageField.VALUE, [])
        if i % 4 == 0:  # the classic framing: magic byte 0 and the id
            values.append(classic(make(i), ctx))
        elif i % 4 == 1:  # the guid in a header, the value unframed
            values.append(by_header(make(i), ctx))
        elif i % 4 == 2:  # magic byte 1 and the guid before the value
            framed = classic(make(i), ctx)
            guid = registry.get_latest_version(f"{TOPIC}-value").guid
            values.append(b"\x01" + uuid.UUID(guid).bytes + framed[5:])
        else:  # the classic id in a header (what the dual deserializer also reads), the value unframed
            framed = classic(make(i), ctx)
            ctx.headers.append(("__value_schema_id", framed[:6 if fmt == "protobuf" else 5]))
            values.append(framed[6 if fmt == "protobuf" else 5:])
        headers.append([("other", b"x")] + list(ctx.headers))
    values.append(None)
    headers.append(None)
    resolved = resolve_read(options(fmt), [TOPIC])
    out = BatchDecoder(options(fmt), resolved, keep_headers=False)(kafka_batch(values, headers))
    assert "headers" not in out.schema.names  # read only to find schema ids
    assert [ids_of(v, fmt) for v in out.column("value").to_pylist()] == \
        [(i, f"n{i}") for i in range(8)] + [None]
    kept = BatchDecoder(options(fmt), resolved, keep_headers=True)(kafka_batch(values, headers))
    assert kept.column("headers").to_pylist()[1][1]["key"] == "__value_schema_id"
    # SchemaIdDeserializer=prefix: headers are not looked at, unframed values are malformed
    prefix_only = options(fmt, mode="PERMISSIVE", valueSchemaIdDeserializer="prefix")
    column, why = BatchDecoder(prefix_only, resolved).columns["value"].decode(pa.array(values, pa.binary()))
    assert [v is None for v in column.to_pylist()] == [False, True, False, True] * 2 + [True]
    assert 1 in why and 8 not in why


@needs_numpy
def test_guid_the_registry_does_not_hold_and_bad_headers_are_malformed(registry: Any) -> None:
    classic, _, make = serializers("avro", registry)
    good = classic(make(1), SerializationContext(TOPIC, MessageField.VALUE))
    unknown = b"\x01" + uuid.uuid4().bytes + good[5:]
    known = b"\x01" + uuid.UUID(registry.get_latest_version(f"{TOPIC}-value").guid).bytes + good[5:]
    values = [good, unknown, good[5:], good[5:], b"\x01" + good[1:9], known, unknown, known]
    headers: List[Optional[HeaderList]] = [[], [], [("__value_schema_id", b"\x07abcd")],
                                           [("__value_schema_id", b"\x01ab")], [], [], [], []]
    resolved = resolve_read(options("avro"), [TOPIC])
    with pytest.raises(MalformedRecordError, match=r"orders\[0\] offset 1: the value names schema guid .* which "
                                                   r"the Schema Registry does not hold"):
        BatchDecoder(options("avro"), resolved)(kafka_batch(values, headers))
    decoder = BatchDecoder(options("avro", mode="PERMISSIVE"), resolved)
    column, why = decoder.columns["value"].decode(pa.array(values, pa.binary()),
                                                  kafka_batch(values, headers).column("headers"))
    assert sorted(why) == [1, 2, 3, 4, 6]  # two guids in one batch: each row keeps its own
    assert [v and v["id"] for v in column.to_pylist()] == [1, None, None, None, None, 1, None, 1]
    assert why[2] == ("has a __value_schema_id header of 5 byte(s) that names no schema (it must be 0x00 and a "
                      "4-byte schema id, or 0x01 and a 16-byte schema guid)")
    assert why[3].startswith("has a __value_schema_id header of 3 byte(s)")
    assert why[4] == "is 9 byte(s) long, shorter than the 17-byte Schema Registry framing"
    # a key header does not name the value's schema
    _, why = decoder.columns["value"].decode(pa.array([good[5:]], pa.binary()),
                                             kafka_batch([good[5:]], [[("__key_schema_id", good[:5])]]).column("headers"))
    assert why[0].startswith("starts with byte 0x02, not the Schema Registry framing")


def write_options(fmt: str, **more: str) -> Any:
    return WriteOptions.parse({**BS, "topic": TOPIC, "valueFormat": fmt, **REG, **more})


SPARK_TYPE = T.StructType([T.StructField("id", T.LongType(), False), T.StructField("name", T.StringType())])


def deserializer(fmt: str, registry: Any) -> Any:
    if fmt == "avro":
        return AvroDeserializer(registry)
    if fmt == "json":
        return JSONDeserializer(None, schema_registry_client=registry)
    return ProtobufDeserializer(order_types()["Order"], {"use.deprecated.format": False})


@needs_numpy
@pytest.mark.parametrize("fmt", ["avro", "json", "protobuf"])
@pytest.mark.parametrize("how", [{}, {"valueSchemaIdType": "guid"}, {"valueSchemaIdSerializer": "header"},
                                 {"valueSchemaIdSerializer": "header", "valueSchemaIdType": "id"}])
def test_writes_are_read_by_the_librarys_dual_deserializer(registry: Any, fmt: str, how: Dict[str, str]) -> None:
    spark_type = SPARK_TYPE
    if fmt == "protobuf":
        spark_type = T.StructType([T.StructField("id", T.LongType(), False), T.StructField("customer", T.StringType())])
    opts = write_options(fmt, **how).with_schemas({"value": spark_type})
    resolved = opts.schemas["value"]
    assert resolved.guid is not None  # mock:// registries give guids
    names = [f.name for f in spark_type.fields]
    # (names long enough: the library's deserializers want 6 bytes or more even with a header)
    column = pa.array([{names[0]: i, names[1]: f"name{i}"} for i in range(3)] + [None],
                      pa.struct([pa.field(names[0], pa.int64()), pa.field(names[1], pa.string())]))
    user_headers = pa.array([[{"key": "h", "value": b"v"}], None, [], []],
                            pa.list_(pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])))
    batch = pa.RecordBatch.from_pydict({"value": column, "headers": user_headers})
    out = BatchEncoder(opts.schemas, opts.column_types, opts.registry)(batch)
    values, headers = out.column("value").to_pylist(), out.column("headers").to_pylist()
    header = how.get("valueSchemaIdSerializer") == "header"
    guid = how.get("valueSchemaIdType", "guid" if header else "id") == "guid"
    named = (b"\x01" + uuid.UUID(resolved.guid).bytes) if guid else b"\x00" + resolved.schema_id.to_bytes(4, "big")
    assert values[3] is None
    for i in range(3):
        hdrs = [(h["key"], h["value"]) for h in headers[i] or []]
        assert hdrs[:len(hdrs) - header] == ([("h", b"v")] if i == 0 else [])  # the row's own come first
        if header:
            assert hdrs[-1][0] == "__value_schema_id" and hdrs[-1][1].startswith(named)
            assert not values[i].startswith(named)
        else:
            assert values[i].startswith(named) and not any(k == "__value_schema_id" for k, _ in hdrs)
        ctx = SerializationContext(TOPIC, MessageField.VALUE, hdrs)
        got = deserializer(fmt, registry)(values[i], ctx)
        got = {"id": got.id, "customer": got.customer} if fmt == "protobuf" else got
        assert (got["id"], got[names[1]]) == (i, f"name{i}")
    assert not any(h["key"] == "__value_schema_id" for h in headers[3] or [])  # a null value names no schema


@needs_numpy
def test_add_headers_appends_in_order_after_the_rows_own() -> None:
    entry = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])
    own = pa.array([[{"key": "a", "value": b"1"}, {"key": "b", "value": None}], None, []],
                   pa.list_(pa.field("element", entry))).slice(0)
    out = add_headers(own, [("k", b"K", pa.array([True, False, True])), ("v", b"V", pa.array([True, True, None]))], 3)
    assert out.to_pylist() == [
        [{"key": "a", "value": b"1"}, {"key": "b", "value": None}, {"key": "k", "value": b"K"},
         {"key": "v", "value": b"V"}],
        [{"key": "v", "value": b"V"}], [{"key": "k", "value": b"K"}]]
    assert add_headers(None, [("v", b"V", pa.array([False, True]))], 2).to_pylist() == [[], [{"key": "v",
                                                                                             "value": b"V"}]]


@pytest.mark.parametrize("options_given, message", [
    ({"valueSchemaIdDeserializer": "header"}, "'valueSchemaIdDeserializer' must be dual or prefix"),
    ({"valueSchemaIdSerializer": "header"}, "'valueSchemaIdSerializer' is for writes"),
    ({"valueSchemaIdType": "guid"}, "'valueSchemaIdType' is for writes"),
    ({"keySchemaIdDeserializer": "dual"}, "'keySchemaIdDeserializer' needs keyFormat="),
])
def test_read_option_errors(options_given: Dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "avro", **REG, **options_given}, streaming=False)


def test_option_values_and_library_names() -> None:
    read = ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "avro", **REG,
                              "valueSchemaIdDeserializer": "prefix_schema_id_deserializer"}, streaming=False)
    assert read.registry is not None and read.registry.value is not None
    assert read.registry.value.id_deserializer == "prefix" and not read.registry.reads_headers()
    assert ReadOptions.parse({**BS, "subscribe": "t", "valueFormat": "avro", **REG},
                             streaming=False).registry.reads_headers()  # type: ignore[union-attr]
    w = write_options("avro", valueSchemaIdSerializer="header_schema_id_serializer").registry.value
    assert (w.id_serializer, w.use_guid) == ("header", True)
    w = write_options("avro", valueSchemaIdType="GUID").registry.value
    assert (w.id_serializer, w.use_guid) == ("prefix", True)
    with pytest.raises(ValueError, match="'valueSchemaIdDeserializer' is for reads"):
        write_options("avro", valueSchemaIdDeserializer="dual")
    with pytest.raises(ValueError, match="'valueSchemaIdType' must be id or guid"):
        write_options("avro", valueSchemaIdType="uuid")


def test_a_guid_write_needs_a_registry_with_guids(registry: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from confluent_kafka.schema_registry import RegisteredSchema, Schema

    schema_id = registry.register_schema(f"{TOPIC}-value", Schema(json.dumps(USER), "AVRO"))
    opts = write_options("avro", valueSchemaId=str(schema_id), valueSchemaIdType="guid")
    got = resolve_write(opts.registry, TOPIC, {"value": SPARK_TYPE})["value"]
    assert got.guid == registry.get_latest_version(f"{TOPIC}-value").guid  # found by its versions
    original = type(registry).get_version

    def without_guid(self: Any, *args: Any, **kwargs: Any) -> Any:
        got = original(self, *args, **kwargs)
        return RegisteredSchema(schema_id=got.schema_id, guid=None, schema=got.schema, subject=got.subject,
                                version=got.version)

    monkeypatch.setattr(type(registry), "get_version", without_guid)
    with pytest.raises(ValueError, match=r"gives no guid for schema id \d+ .* set valueSchemaIdType=id"):
        resolve_write(opts.registry, TOPIC, {"value": SPARK_TYPE})
