"""The Variant codec (confluent.type.variant_utils) against the Parquet Variant encoding: exact
bytes for small values, round trips through JSON and the builder, navigation, and errors; the
Avro variant logical type and the Protobuf helpers."""

from __future__ import annotations

import decimal
import json
import uuid

import pytest

from confluent_kafka.schema_registry.confluent.type.variant_utils import (
    Variant,
    VariantBuilder,
    VariantError,
    VariantType,
    parse_json,
)


def test_exact_encodings() -> None:
    # header byte: basic type in the low 2 bits (0 primitive, 1 short string, 2 object, 3 array)
    assert parse_json("null").value == b"\x00"
    assert parse_json("true").value == b"\x04" and parse_json("false").value == b"\x08"
    assert parse_json("5").value == b"\x0c\x05"  # int8: type 3
    assert parse_json("300").value == b"\x10\x2c\x01"  # int16, little-endian
    assert parse_json('"hi"').value == b"\x09hi"  # short string: length 2 in the upper bits
    obj = parse_json('{"b":1,"a":2}')
    assert obj.metadata == b"\x01\x02\x00\x01\x02ba"  # version 1, 2 keys, offsets, keys in first-seen order
    # object: 2 fields sorted by key (a is id 1, b id 0), offsets into the data written in document order
    assert obj.value == b"\x02\x02\x01\x00\x02\x00\x04\x0c\x01\x0c\x02"
    assert parse_json("[1]").value == b"\x03\x01\x00\x02\x0c\x01"


def test_json_round_trip_and_number_widths() -> None:
    doc = '{"n":null,"t":true,"i":[1,-129,70000,3000000000,12345678901234567890123],"d":2.5,"s":"é"}'
    v = parse_json(doc)
    assert json.loads(v.to_json()) == json.loads(doc)
    widths = [v.get_field_by_key("i").get_element_at_index(k).get_type() for k in range(5)]
    assert widths == [VariantType.BYTE, VariantType.SHORT, VariantType.INT, VariantType.LONG, VariantType.DECIMAL16]
    assert parse_json("0.1").get_type() == VariantType.DOUBLE


def test_builder_types_and_rendering() -> None:
    b = VariantBuilder()
    b.start_array()
    b.append_decimal(decimal.Decimal("-1.50"))
    b.append_uuid(uuid.UUID(int=1))
    b.append_date(0)
    b.append_timestamp_tz(1_500)
    b.append_timestamp_nanos_ntz(1)
    b.append_time(1)
    b.append_binary(b"\x00\xff")
    b.append_float(0.1)
    b.append_double(float("nan"))
    b.end_array()
    assert b.build().to_json() == ('[-1.50,"00000000-0000-0000-0000-000000000001","1970-01-01",'
                                   '"1970-01-01T00:00:00.001500Z","1970-01-01T00:00:00.000000001",'
                                   '"00:00:00.000001","AP8=",0.1,NaN]')


def test_navigation_shares_bytes_and_compares_by_encoding() -> None:
    v = parse_json('{"a":{"b":[1,2]},"c":"x"}')
    inner = v.get_field_by_key("a").get_field_by_key("b")
    assert inner.pos > 0 and inner.value is not None
    assert inner.to_json() == "[1,2]"
    # Equality is over the encoding (metadata and the bytes from pos on), as upstream's.
    assert inner != parse_json("[1,2]")  # other metadata, and the parent's trailing bytes
    same = Variant(v.value, v.metadata, inner.pos)
    assert inner == same and hash(inner) == hash(same)
    assert inner.standalone_value_bytes() == v.value[inner.pos:]
    assert v.get_field_by_key("zz") is None and inner.get_element_at_index(2) is None
    many = parse_json(json.dumps({f"k{i:02d}": i for i in range(50)}))  # binary search past 32 fields
    assert many.get_field_by_key("k37").get_int() == 37 and many.get_field_at_index(0)[0] == "k00"


@pytest.mark.parametrize("make,text", [
    (lambda: Variant(b"\x00", b""), "index out of bounds"),
    (lambda: Variant(b"\x00", b"\x03"), "unsupported variant metadata version: 3"),
    (lambda: parse_json("1").get_string(), "variant is not a string"),
    (lambda: parse_json("1000").get_byte(), "variant is not a byte-width integer"),
    (lambda: VariantBuilder().build(), "cannot build an empty variant"),
    (lambda: VariantBuilder().append_key("k"), "outside of an object"),
    (lambda: VariantBuilder().append_short(1 << 20), "out of range for a 2-byte width"),
    (lambda: VariantBuilder().append_decimal(decimal.Decimal("1e-40")), "maximum precision"),
])
def test_errors(make, text: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(VariantError, match=text):
        make()


def test_avro_and_protobuf_carry_variants() -> None:
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.schema_registry.protobuf import protobuf_to_variant, variant_to_protobuf
    from confluent_kafka.serialization import MessageField, SerializationContext

    schema = json.dumps({"type": "record", "name": "R", "fields": [{"name": "v", "type": {
        "type": "record", "name": "V", "logicalType": "variant",
        "fields": [{"name": "metadata", "type": "bytes"}, {"name": "value", "type": "bytes"}]}}]})
    sr = SchemaRegistryClient.new_client({"url": "mock://variant-unit"})
    ctx = SerializationContext("t", MessageField.VALUE)
    part = parse_json('{"a":[1,{"b":2}]}').get_field_by_key("a")
    record = AvroDeserializer(sr)(AvroSerializer(sr, schema, conf={"subject.name.strategy.type": "TOPIC"})(
        {"v": part}, ctx), ctx)
    assert isinstance(record["v"], Variant) and record["v"] == part and record["v"].pos == 0
    message = variant_to_protobuf(part)
    assert message.value == part.standalone_value_bytes() and protobuf_to_variant(message) == part
