"""The serializers in confluent_kafka.serialization: wire formats, None handling, bad input."""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, strategies as st

from confluent_kafka import KafkaException
from confluent_kafka.serialization import (
    Deserializer,
    DoubleDeserializer,
    DoubleSerializer,
    IntegerDeserializer,
    IntegerSerializer,
    JsonDeserializer,
    JsonSerializer,
    MessageField,
    SerializationContext,
    SerializationError,
    Serializer,
    StringDeserializer,
    StringSerializer,
)

CTX = SerializationContext("t", MessageField.VALUE)


def test_message_field_values_are_plain_strings() -> None:
    assert (MessageField.NONE, MessageField.KEY, MessageField.VALUE) == ("none", "key", "value")


def test_context_holds_what_it_was_given() -> None:
    ctx = SerializationContext("orders", MessageField.KEY, [("h", b"1")])
    assert (ctx.topic, ctx.field, ctx.headers) == ("orders", "key", [("h", b"1")])
    assert SerializationContext("t", MessageField.VALUE).headers is None
    assert "orders" in repr(ctx)


def test_base_classes_must_be_implemented() -> None:
    with pytest.raises(NotImplementedError):
        Serializer()(1, CTX)
    with pytest.raises(NotImplementedError):
        Deserializer()(b"1", CTX)


def test_serialization_error_is_a_kafka_exception() -> None:
    assert issubclass(SerializationError, KafkaException)


@pytest.mark.parametrize("ser, de", [
    (StringSerializer(), StringDeserializer()),
    (IntegerSerializer(), IntegerDeserializer()),
    (DoubleSerializer(), DoubleDeserializer()),
    (JsonSerializer(), JsonDeserializer()),
])
def test_none_maps_to_none_both_ways(ser: Serializer, de: Deserializer) -> None:
    assert ser(None, CTX) is None
    assert de(None, CTX) is None


def test_integer_wire_format_is_java_compatible_int32_big_endian() -> None:
    s = IntegerSerializer()
    assert s(1, CTX) == b"\x00\x00\x00\x01"
    assert s(-1, CTX) == b"\xff\xff\xff\xff"
    assert s(2**31 - 1) == b"\x7f\xff\xff\xff"
    assert IntegerDeserializer()(b"\x80\x00\x00\x00", CTX) == -(2**31)


@given(st.integers(min_value=-(2**31), max_value=2**31 - 1))
def test_integer_roundtrip(n: int) -> None:
    assert IntegerDeserializer()(IntegerSerializer()(n, CTX), CTX) == n


@pytest.mark.parametrize("bad", [2**31, -(2**31) - 1, "1", 1.5, [1]])
def test_integer_serializer_rejects_what_does_not_fit(bad: Any) -> None:
    with pytest.raises(SerializationError, match="IntegerSerializer"):
        IntegerSerializer()(bad, CTX)


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", b"\x00" * 5])
def test_integer_deserializer_rejects_wrong_length(data: bytes) -> None:
    with pytest.raises(SerializationError, match="4 bytes"):
        IntegerDeserializer()(data, CTX)


def test_double_wire_format_is_ieee754_big_endian() -> None:
    assert DoubleSerializer()(1.5, CTX) == struct.pack(">d", 1.5) == b"\x3f\xf8" + b"\x00" * 6
    assert DoubleSerializer()(2, CTX) == struct.pack(">d", 2.0)
    assert DoubleSerializer()(Decimal("0.5"), CTX) == struct.pack(">d", 0.5)


@given(st.floats(allow_nan=False))
def test_double_roundtrip(x: float) -> None:
    assert DoubleDeserializer()(DoubleSerializer()(x, CTX), CTX) == x


def test_double_nan_survives() -> None:
    out = DoubleDeserializer()(DoubleSerializer()(math.nan, CTX), CTX)
    assert out is not None and math.isnan(out)


def test_double_rejects_text_and_short_input() -> None:
    with pytest.raises(SerializationError):
        DoubleSerializer()("1.0", CTX)
    with pytest.raises(SerializationError, match="8 bytes"):
        DoubleDeserializer()(b"\x00" * 7, CTX)


@given(st.text())
def test_string_roundtrip_utf8(text: str) -> None:
    data = StringSerializer()(text, CTX)
    assert data == text.encode("utf-8")
    assert StringDeserializer()(data, CTX) == text


def test_string_codec_is_honoured() -> None:
    assert StringSerializer("latin-1")("é", CTX) == b"\xe9"
    assert StringDeserializer("utf_16")(StringSerializer("utf_16")("hi", CTX), CTX) == "hi"


def test_string_errors_are_serialization_errors() -> None:
    with pytest.raises(SerializationError, match="ascii"):
        StringSerializer("ascii")("é", CTX)
    with pytest.raises(SerializationError, match="expects a str"):
        StringSerializer()(b"bytes", CTX)
    with pytest.raises(SerializationError, match="utf_8"):
        StringDeserializer()(b"\xff\xfe\xfd", CTX)
    with pytest.raises(SerializationError, match="expects bytes"):
        StringDeserializer()("text", CTX)  # type: ignore[arg-type]


def test_unknown_codec_fails_at_construction() -> None:
    with pytest.raises(LookupError):
        StringSerializer("no-such-codec")
    with pytest.raises(LookupError):
        StringDeserializer("no-such-codec")


def test_deserializers_accept_bytearray_and_memoryview() -> None:
    assert StringDeserializer()(bytearray(b"ab"), CTX) == "ab"  # type: ignore[arg-type]
    assert IntegerDeserializer()(memoryview(b"\x00\x00\x00\x07"), CTX) == 7  # type: ignore[arg-type]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    max_leaves=20,
)


@given(json_values)
def test_json_roundtrip(obj: Any) -> None:
    data = JsonSerializer()(obj, CTX)
    if obj is None:
        assert data is None  # a null message, not the JSON text "null"
    else:
        assert data is not None
        assert JsonDeserializer()(data, CTX) == obj


def test_json_output_is_compact_utf8() -> None:
    assert JsonSerializer()({"a": [1, 2], "é": "ü"}, CTX) == '{"a":[1,2],"é":"ü"}'.encode("utf-8")
    assert JsonSerializer(sort_keys=True)({"b": 1, "a": 2}, CTX) == b'{"a":2,"b":1}'


def test_json_default_and_object_hook() -> None:
    data = JsonSerializer(default=lambda o: {"__set__": sorted(o)})({"s": {3, 1}}, CTX)
    assert data == b'{"s":{"__set__":[1,3]}}'

    def hook(d: Any) -> Any:
        return set(d["__set__"]) if "__set__" in d else d

    assert JsonDeserializer(object_hook=hook)(data, CTX) == {"s": {1, 3}}
    assert JsonDeserializer(parse_float=Decimal)(b"[0.1]", CTX) == [Decimal("0.1")]


def test_json_errors_are_serialization_errors() -> None:
    with pytest.raises(SerializationError, match="cannot serialize"):
        JsonSerializer()(object(), CTX)
    with pytest.raises(SerializationError, match="cannot serialize"):
        JsonSerializer()(math.nan, CTX)  # not valid JSON unless allow_nan
    assert JsonSerializer(allow_nan=True)(math.inf, CTX) == b"Infinity"
    loop: list = []
    loop.append(loop)
    with pytest.raises(SerializationError):
        JsonSerializer()(loop, CTX)
    with pytest.raises(SerializationError, match="not valid UTF-8 JSON"):
        JsonDeserializer()(b"{nope", CTX)
    with pytest.raises(SerializationError, match="not valid UTF-8 JSON"):
        JsonDeserializer()(b'"\xff"', CTX)


def test_serializers_work_without_a_context() -> None:
    assert StringSerializer()("x") == b"x"
    assert IntegerDeserializer()(b"\x00\x00\x00\x02") == 2
