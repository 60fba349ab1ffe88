"""The serializers in confluent_kafka.serialization: wire formats, None handling, bad input."""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from typing import Any, Dict, List, Optional, Tuple, Union, get_args, get_origin

import pytest
from hypothesis import given, strategies as st

from confluent_kafka import KafkaException
from confluent_kafka.serialization import (
    Deserializer,
    DeserializerBuilder,
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
    SerializerBuilder,
    StringDeserializer,
    StringSerializer,
)

CTX = SerializationContext("t", MessageField.VALUE)


def test_message_field_is_a_str_enum() -> None:
    assert (MessageField.NONE, MessageField.KEY, MessageField.VALUE) == ("none", "key", "value")
    assert list(MessageField) == [MessageField.NONE, MessageField.KEY, MessageField.VALUE]
    assert MessageField("key") is MessageField.KEY and MessageField["VALUE"] is MessageField.VALUE
    assert isinstance(MessageField.KEY, str) and MessageField.KEY.value == "key"
    assert str(MessageField.KEY) == f"{MessageField.KEY}" == "key"
    assert repr(MessageField.VALUE) == "<MessageField.VALUE: 'value'>"
    assert {MessageField.KEY: 1}["key"] == 1
    with pytest.raises(ValueError):
        MessageField("KEY")


def test_context_holds_what_it_was_given_and_takes_more() -> None:
    ctx = SerializationContext("orders", MessageField.KEY, [("h", b"1")])
    assert (ctx.topic, ctx.field, ctx.headers) == ("orders", "key", [("h", b"1")])
    assert SerializationContext("t", MessageField.VALUE).headers is None
    ctx.schema_id = 5  # type: ignore[attr-defined]  # serdes keep their own state on it
    assert vars(ctx) == {"topic": "orders", "field": MessageField.KEY, "headers": [("h", b"1")], "schema_id": 5}
    with pytest.raises(TypeError):
        SerializationContext("t")  # type: ignore[call-arg]


def test_base_classes_must_be_implemented() -> None:
    with pytest.raises(NotImplementedError):
        Serializer()(1, CTX)
    with pytest.raises(NotImplementedError):
        Deserializer()(b"1", CTX)
    with pytest.raises(NotImplementedError):
        SerializerBuilder().build({}, True)
    with pytest.raises(NotImplementedError):
        DeserializerBuilder().build({}, False)


def test_base_lifecycle_hooks_do_nothing() -> None:
    for serde in (Serializer(), Deserializer(), StringSerializer(), IntegerDeserializer()):
        assert serde.close() is None
        assert serde.set_cluster_id_resolver(lambda: "cluster") is None


def test_builtin_serdes_take_attributes_the_bases_do_not() -> None:
    s = IntegerSerializer()
    s.note = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        Serializer().note = 1  # type: ignore[attr-defined]


def test_serialization_error_is_a_kafka_exception() -> None:
    assert issubclass(SerializationError, KafkaException)


def test_headers_type_is_upstreams_alias() -> None:
    from confluent_kafka import _types
    from confluent_kafka.serialization import HeadersType

    assert HeadersType is _types.HeadersType
    # Upstream's alias, written out: compared as a value and by its text in this interpreter
    # (3.14 prints typing.Union as "X | Y", so a fixed text would depend on the version), which
    # also checks the order of the members.
    value = Optional[Union[str, bytes]]
    upstreams = Union[Dict[str, value], List[Tuple[str, value]]]
    assert HeadersType == upstreams
    assert repr(HeadersType) == repr(upstreams)
    assert get_origin(HeadersType) is Union
    assert get_args(HeadersType) == (Dict[str, value], List[Tuple[str, value]])
    assert get_args(get_args(HeadersType)[0]) == (str, Union[str, bytes, None])
    assert get_args(Union[str, bytes, None]) == (str, bytes, type(None))


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


@pytest.mark.parametrize("bad, text", [
    (2**31, "'i' format requires -2147483648 <= number <= 2147483647"),
    (-(2**31) - 1, "'i' format requires -2147483648 <= number <= 2147483647"),
    ("1", "required argument is not an integer"),
    (1.5, "required argument is not an integer"),
    ([1], "required argument is not an integer"),
])
def test_integer_serializer_rejects_what_does_not_fit(bad: Any, text: str) -> None:
    with pytest.raises(SerializationError) as ei:
        IntegerSerializer()(bad, CTX)
    assert str(ei.value) == text  # struct's own words, as upstream


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02", b"\x00" * 5])
def test_integer_deserializer_rejects_wrong_length(data: bytes) -> None:
    with pytest.raises(SerializationError, match="unpack requires a buffer of 4 bytes"):
        IntegerDeserializer()(data, CTX)


def test_number_deserializers_leave_a_wrong_type_to_struct() -> None:
    with pytest.raises(TypeError, match="a bytes-like object is required, not 'str'"):
        IntegerDeserializer()("text", CTX)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        DoubleDeserializer()(5, CTX)  # type: ignore[arg-type]


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
    with pytest.raises(SerializationError, match="required argument is not a float"):
        DoubleSerializer()("1.0", CTX)
    with pytest.raises(SerializationError, match="unpack requires a buffer of 8 bytes"):
        DoubleDeserializer()(b"\x00" * 7, CTX)


@given(st.text())
def test_string_roundtrip_utf8(text: str) -> None:
    data = StringSerializer()(text, CTX)
    assert data == text.encode("utf-8")
    assert StringDeserializer()(data, CTX) == text


def test_string_codec_is_honoured() -> None:
    assert StringSerializer("latin-1")("é", CTX) == b"\xe9"
    assert StringDeserializer("utf_16")(StringSerializer("utf_16")("hi", CTX), CTX) == "hi"


def test_string_codec_errors_are_serialization_errors() -> None:
    with pytest.raises(SerializationError) as ei:
        StringSerializer("ascii")("é", CTX)
    assert str(ei.value) == "'ascii' codec can't encode character '\\xe9' in position 0: ordinal not in range(128)"
    with pytest.raises(SerializationError, match="'utf-8' codec can't decode byte 0xff"):
        StringDeserializer()(b"\xff\xfe\xfd", CTX)


def test_string_wrong_types_raise_what_python_raises() -> None:
    with pytest.raises(AttributeError, match="'bytes' object has no attribute 'encode'"):
        StringSerializer()(b"bytes", CTX)  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="'int' object has no attribute 'encode'"):
        StringSerializer()(5, CTX)  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="'str' object has no attribute 'decode'"):
        StringDeserializer()("text", CTX)  # type: ignore[arg-type]


def test_unknown_codec_fails_on_first_use() -> None:
    s, d = StringSerializer("no-such-codec"), StringDeserializer("no-such-codec")
    assert s.codec == d.codec == "no-such-codec"
    with pytest.raises(LookupError, match="unknown encoding: no-such-codec"):
        s("x", CTX)
    with pytest.raises(LookupError):
        d(b"x", CTX)
    assert s(None, CTX) is None  # None never reaches the codec


def test_deserializers_accept_bytearray() -> None:
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
