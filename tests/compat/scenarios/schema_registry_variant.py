"""The Variant codec (confluent.type.variant_utils): JSON parsing, the streaming builder, reading
(types, getters, navigation), JSON rendering and errors; the Avro variant logical type and the
Protobuf Variant helpers; and rules.cel.protobuf_result_writer, which makes a CEL result map a
Protobuf message again. Encodings made by one side are read by the other (dump_/crossed_)."""
from __future__ import annotations

import decimal
import json
import uuid
from typing import Any, Dict, List

from observe import data, outcome

DOCS = [
    '{"b":1,"a":[1,2.5,"x",null,true,false,{"z":{}}],"c":12345678901234567890123,"d":-129,"e":70000,'
    '"f":3000000000}',
    "[]", "{}", '"' + "x" * 100 + '"', "1e300", "-0.0", "[" + ",".join(str(i) for i in range(300)) + "]",
    json.dumps({("k%03d" % i): i for i in range(40)}), '"\\u00e9\\ud83d\\ude00"', "0.1", "123456789012",
]
GETTERS = ["get_boolean", "get_byte", "get_short", "get_int", "get_long", "get_float", "get_double", "get_decimal",
           "get_binary", "get_uuid", "get_string"]


def _vu() -> Any:
    from confluent_kafka.schema_registry.confluent.type import variant_utils

    return variant_utils


def _built() -> Any:
    b = _vu().VariantBuilder()
    b.start_object()
    for name, fn, arg in [("by", "append_byte", 5), ("sh", "append_short", -300), ("in", "append_int", 1 << 20),
                          ("lo", "append_long", 1 << 40), ("fl", "append_float", 0.1), ("do", "append_double", 1.5),
                          ("de", "append_decimal", decimal.Decimal("-12.340")), ("st", "append_string", "hi"),
                          ("bi", "append_binary", b"\x00\x01"), ("uu", "append_uuid", uuid.UUID(int=12345)),
                          ("da", "append_date", 19000), ("ti", "append_time", 3723000001),
                          ("ts", "append_timestamp_tz", 1700000000123456), ("tn", "append_timestamp_ntz", -1),
                          ("ns", "append_timestamp_nanos_tz", 1700000000123456789),
                          ("nn", "append_timestamp_nanos_ntz", 5), ("bo", "append_boolean", True)]:
        b.append_key(name)
        getattr(b, fn)(arg)
    b.append_key("nu")
    b.append_null()
    b.append_key("ar")
    b.start_array()
    b.append_decimal(12345, 2)
    b.append_decimal(b"\xff\x00", 1)
    b.append_float(float("nan"))
    b.append_double(float("-inf"))
    b.end_array()
    b.end_object()
    return b.build()


def scenario_parse_json() -> Any:
    out = []
    for doc in DOCS:
        v = _vu().parse_json(doc)
        out.append({"value": data(v.value), "metadata": data(v.metadata), "json": v.to_json(),
                    "type": v.get_type().value})
    return out


def scenario_builder_and_getters() -> Any:
    v = _built()
    rows: List[Any] = []
    for i in range(v.num_object_fields()):
        key, child = v.get_field_at_index(i)
        row = [key, child.get_type().value]
        for getter in GETTERS:
            row.append(outcome(lambda g=getter: str(getattr(child, g)())))
        rows.append(row)
    return {"value": data(v.value), "metadata": data(v.metadata), "json": v.to_json(), "fields": rows}


def scenario_navigation() -> Any:
    vu = _vu()
    v = vu.parse_json(DOCS[0])
    a = v.get_field_by_key("a")
    big = vu.parse_json(DOCS[7])
    return {
        "field": a.to_json(), "standalone": data(a.standalone_value_bytes()), "pos": a.pos,
        "element": a.get_element_at_index(1).get_double(), "past end": a.get_element_at_index(9),
        "negative": a.get_element_at_index(-1), "count": [v.num_object_fields(), a.num_array_elements()],
        "binary search": [big.get_field_by_key("k033").get_int(), big.get_field_by_key("nope"),
                          big.get_field_at_index(2)[0]],
        "eq": [a == vu.parse_json('[1,2.5,"x",null,true,false,{"z":{}}]'), v == vu.parse_json(DOCS[0]),
               v == a, v == "x", hash(v) == hash(vu.parse_json(DOCS[0]))],
        "not object": outcome(a.get_field_by_key, "x"), "not array": outcome(v.get_element_at_index, 0),
        "field index past end": outcome(lambda: v.get_field_at_index(99)),
        "from_bytes": vu.to_json_string(vu.from_bytes(v.value, v.metadata)),
        "types": sorted(t.value for t in vu.VariantType),
        "error class": [issubclass(vu.VariantError, ValueError)],
    }


def scenario_errors() -> Any:
    vu = _vu()

    def builder(*calls: Any) -> Any:
        b = vu.VariantBuilder()
        for name, *args in calls:
            getattr(b, name)(*args)
        return data(b.build().value)

    return {
        "no metadata": outcome(vu.Variant, b"", b""),
        "bad version": outcome(vu.Variant, b"\x00", b"\x02"),
        "empty value": outcome(lambda: vu.Variant(b"", b"\x01\x00\x00").get_type()),
        "unknown type": outcome(lambda: vu.Variant(bytes([63 << 2]), b"\x01\x00\x00").get_type()),
        "truncated": outcome(lambda: vu.Variant(b"\x0c", b"\x01\x00\x00").get_byte()),
        "bad key id": outcome(lambda: vu.Variant(b"\x02\x01\x05\x00\x00", b"\x01\x00\x00").get_field_at_index(0)),
        "empty build": outcome(builder),
        "byte range": outcome(builder, ("append_byte", 300)),
        "not json": outcome(vu.parse_json, "{"),
        "decimal no scale": outcome(builder, ("append_decimal", 1)),
        "decimal bytes no scale": outcome(builder, ("append_decimal", b"\x01")),
        "decimal extra scale": outcome(builder, ("append_decimal", decimal.Decimal(1), 2)),
        "decimal negative scale": outcome(builder, ("append_decimal", 5, -1)),
        "decimal too precise": outcome(builder, ("append_decimal", decimal.Decimal("1e-50"))),
        "decimal not finite": outcome(builder, ("append_decimal", decimal.Decimal("nan"))),
        "decimal bad type": outcome(builder, ("append_decimal", "1", 1)),
        "key outside": outcome(builder, ("append_key", "x")),
        "key twice": outcome(builder, ("start_object",), ("append_key", "x"), ("append_key", "y")),
        "value without key": outcome(builder, ("start_object",), ("append_null",)),
        "dangling key": outcome(builder, ("start_object",), ("append_key", "x"), ("end_object",)),
        "end array": outcome(builder, ("end_array",)),
        "end object": outcome(builder, ("start_array",), ("end_object",)),
        "open": outcome(builder, ("start_array",)),
        "two roots": outcome(builder, ("append_null",), ("append_null",)),
        "uuid": outcome(builder, ("append_uuid", b"12")),
        "wrong getter": outcome(lambda: vu.parse_json("1").get_string()),
        "time past a day": outcome(lambda: _one("append_time", 86400000000).to_json()),
        "date out of range": outcome(lambda: _one("append_date", 3000000).to_json()),
        "size limit": outcome(lambda: vu.VariantBuilder(4).append_string("abcdef")),
        "unsupported json value": outcome(lambda: vu.VariantBuilder()._write_json(object())
                                          if hasattr(vu.VariantBuilder, "_write_json")
                                          else vu.VariantBuilder()._process_parsed_json(object())),
    }


def _one(method: str, arg: Any) -> Any:
    b = _vu().VariantBuilder()
    getattr(b, method)(arg)
    return b.build()


def scenario_json_rendering() -> Any:
    cases = [("append_double", x) for x in (0.0, -0.0, 1.0, 1e16, 1e22, 0.1, 1 / 3, 5e-324)]
    cases += [("append_float", x) for x in (0.1, 3.4e38, -2.5, 16777217.0, 1e-45)]
    cases += [("append_timestamp_tz", x) for x in (0, -1, 1500, 1_000_000, -62135596800000000)]
    cases += [("append_timestamp_nanos_ntz", x) for x in (1, 1000, -1_000_000_001)]
    cases += [("append_time", x) for x in (0, 1, 86399999999)]
    cases += [("append_date", x) for x in (0, -1, -719162, 2932896)]
    cases += [("append_decimal", decimal.Decimal(x)) for x in ("1E+3", "-0.00", "12345678901234567890.5")]
    return [[name, str(arg), outcome(lambda n=name, a=arg: _one(n, a).to_json())] for name, arg in cases]


def scenario_avro_variant() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.serialization import SerializationContext

    schema = json.dumps({"type": "record", "name": "R", "fields": [
        {"name": "v", "type": {"type": "record", "name": "V", "logicalType": "variant", "fields": [
            {"name": "metadata", "type": "bytes"}, {"name": "value", "type": "bytes"}]}}]})
    sr = SchemaRegistryClient.new_client({"url": "mock://variant"})
    ctx = SerializationContext("t", "value")
    ser = AvroSerializer(sr, schema, conf={"subject.name.strategy.type": "TOPIC"})
    vu = _vu()
    navigated = vu.parse_json('{"a":[1,2]}').get_field_by_key("a")
    payload = ser({"v": navigated}, ctx)
    read = AvroDeserializer(sr)(payload, ctx)
    return {
        "payload": data(payload),
        "read": [type(read["v"]).__name__, read["v"].to_json()],
        "as record": outcome(ser, {"v": {"metadata": navigated.metadata, "value": navigated.standalone_value_bytes()}},
                             ctx),
    }


def scenario_protobuf_variant_helpers() -> Any:
    from confluent_kafka.schema_registry.protobuf import protobuf_to_variant, variant_to_protobuf

    vu = _vu()
    message = variant_to_protobuf(vu.parse_json('{"a":[1,2]}').get_field_by_key("a"))
    return {
        "message": [type(message).DESCRIPTOR.full_name, data(message.value), data(message.metadata)],
        "back": protobuf_to_variant(message).to_json(),
        "empty": outcome(lambda: protobuf_to_variant(type(message)())),
    }


def dump_encodings() -> Any:
    return {"docs": [[data(v.value), data(v.metadata)] for v in map(_vu().parse_json, DOCS)],
            "built": [data(_built().value), data(_built().metadata)]}


def crossed_encodings(given: Any) -> Any:
    """Both sides' encodings, read and rendered here."""
    import base64

    vu = _vu()

    def read(pair: Any) -> Any:
        value, metadata = (base64.b64decode(p["bytes"]) for p in pair)
        return outcome(lambda: vu.Variant(value, metadata).to_json())

    return {side: {"docs": [read(p) for p in dumped["docs"]], "built": read(dumped["built"])}
            for side, dumped in given.items()}


# -- rules.cel.protobuf_result_writer -------------------------------------------------------------

_TYPES: Dict[str, Any] = {}


def _msg() -> Any:
    if _TYPES:
        return _TYPES["M"]
    from google.protobuf import (descriptor_pb2, descriptor_pool, duration_pb2, message_factory, timestamp_pb2,
                                 wrappers_pb2)

    from confluent_kafka.schema_registry.confluent.type import decimal_pb2, variant_pb2

    F = descriptor_pb2.FieldDescriptorProto
    f = descriptor_pb2.FileDescriptorProto(name="pw/m.proto", package="pw", syntax="proto3", dependency=[
        "google/protobuf/timestamp.proto", "google/protobuf/duration.proto", "google/protobuf/wrappers.proto",
        "confluent/type/decimal.proto", "confluent/type/variant.proto"])
    inner = f.message_type.add(name="Inner")
    inner.field.add(name="x", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    m = f.message_type.add(name="M")
    for name, number, kind, type_name, label in [
            ("total_amount", 1, F.TYPE_INT64, "", F.LABEL_OPTIONAL), ("name", 2, F.TYPE_STRING, "", F.LABEL_OPTIONAL),
            ("flag", 3, F.TYPE_BOOL, "", F.LABEL_OPTIONAL), ("ratio", 4, F.TYPE_FLOAT, "", F.LABEL_OPTIONAL),
            ("raw", 5, F.TYPE_BYTES, "", F.LABEL_OPTIONAL), ("u", 6, F.TYPE_UINT32, "", F.LABEL_OPTIONAL),
            ("list", 7, F.TYPE_INT32, "", F.LABEL_REPEATED),
            ("inner", 8, F.TYPE_MESSAGE, ".pw.Inner", F.LABEL_OPTIONAL),
            ("inners", 9, F.TYPE_MESSAGE, ".pw.Inner", F.LABEL_REPEATED),
            ("when", 10, F.TYPE_MESSAGE, ".google.protobuf.Timestamp", F.LABEL_OPTIONAL),
            ("span", 11, F.TYPE_MESSAGE, ".google.protobuf.Duration", F.LABEL_OPTIONAL),
            ("wrapped", 12, F.TYPE_MESSAGE, ".google.protobuf.StringValue", F.LABEL_OPTIONAL),
            ("amount", 13, F.TYPE_MESSAGE, ".confluent.type.Decimal", F.LABEL_OPTIONAL),
            ("var", 14, F.TYPE_MESSAGE, ".confluent.type.Variant", F.LABEL_OPTIONAL),
            ("a", 15, F.TYPE_STRING, "", F.LABEL_OPTIONAL), ("b", 16, F.TYPE_STRING, "", F.LABEL_OPTIONAL),
            ("d", 18, F.TYPE_DOUBLE, "", F.LABEL_OPTIONAL)]:
        field = m.field.add(name=name, number=number, type=kind, label=label)
        if type_name:
            field.type_name = type_name
        if name in ("a", "b"):
            field.oneof_index = 0
    m.oneof_decl.add(name="choice")
    entry = m.nested_type.add(name="TagsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    m.field.add(name="tags", number=17, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED, type_name=".pw.M.TagsEntry")
    pool = descriptor_pool.DescriptorPool()
    for dep in (timestamp_pb2, duration_pb2, wrappers_pb2, decimal_pb2, variant_pb2):
        pool.AddSerializedFile(dep.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(f.SerializeToString())
    _TYPES["M"] = message_factory.GetMessageClass(pool.FindMessageTypeByName("pw.M"))
    return _TYPES["M"]


def scenario_protobuf_result_writer() -> Any:
    import datetime

    from celpy import celtypes

    from confluent_kafka.schema_registry.rules.cel import cel_executor
    from confluent_kafka.schema_registry.rules.cel.protobuf_result_writer import convert

    M = _msg()
    msg = M(name="old", total_amount=3)
    variant = _vu().parse_json('{"k":[1]}').get_field_by_key("k")

    def run(result: Any) -> Any:
        try:
            out = convert(result, msg)
        except Exception as exc:  # noqa: BLE001
            return {"raises": type(exc).__name__, "str": str(exc)}
        if hasattr(out, "ListFields"):
            return {"type": type(out).DESCRIPTOR.full_name, "fields": sorted(
                [fd.name, str(value)] for fd, value in out.ListFields())}
        return {"unchanged": data(out)}

    return {
        "module": cel_executor.protobuf_result_writer.__name__,
        "not a map": run(5), "not a message": outcome(lambda: data(convert({"a": 1}, {"a": 0}))),
        "replace": run({"name": "new"}),
        "json name": run({"totalAmount": 7}),
        "null clears": run({"name": None, "total_amount": celtypes.IntType(2)}),
        "unknown key": run({"nope": 1, "name": "x"}),
        "twice": run({"total_amount": 1, "totalAmount": 2}),
        "oneof twice": run({"a": "1", "b": "2"}),
        "oneof null": run({"a": "1", "b": None}),
        "cel types": run({"name": celtypes.StringType("s"), "flag": celtypes.BoolType(True),
                          "ratio": celtypes.DoubleType(0.5), "raw": celtypes.BytesType(b"r"),
                          "u": celtypes.UintType(4), "list": celtypes.ListType([celtypes.IntType(1)])}),
        "fraction to int": run({"total_amount": 1.5}), "integral float": run({"total_amount": 2.0}),
        "bool to int": run({"total_amount": True}), "cel bool to int": run({"total_amount": celtypes.BoolType(True)}),
        "int to string": run({"name": 1}), "string to bytes": run({"raw": "x"}), "int to bool": run({"flag": 0}),
        "bool to float": run({"ratio": True}), "float overflow": run({"ratio": 1e39}), "double overflow": run(
            {"d": decimal.Decimal("1e400")}), "infinity": run({"d": float("inf")}),
        "uint negative": run({"u": -1}), "decimal to int": run({"total_amount": decimal.Decimal("4.0")}),
        "decimal fraction": run({"total_amount": decimal.Decimal("4.5")}),
        "map": run({"tags": {"a": 1}}), "map not map": run({"tags": [1]}), "map null": run({"tags": {"a": None}}),
        "list not list": run({"list": "abc"}), "list null": run({"list": [1, None]}),
        "nested": run({"inner": {"x": 3}, "inners": [{"x": 1}, {"x": 2}]}),
        "nested message": run({"inner": msg.inner}),
        "timestamp": run({"when": datetime.datetime(2020, 1, 2, 3, 4, 5, 6000, tzinfo=datetime.timezone.utc)}),
        "naive timestamp": run({"when": datetime.datetime(1970, 1, 1, 0, 0, 1)}),
        "duration": run({"span": datetime.timedelta(seconds=-3.5)}),
        "wrapper": run({"wrapped": "w"}), "wrapper wrong": run({"wrapped": 5}),
        "decimal": run({"amount": decimal.Decimal("-12.50")}), "decimal nan": run({"amount": decimal.Decimal("nan")}),
        "variant": run({"var": variant}), "wrong for message": run({"inner": 5}),
    }
