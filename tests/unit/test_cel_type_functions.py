"""CEL's decimal, timestamp and variant libraries (rules.cel.decimal_funcs, timestamp_funcs,
variant_funcs, variant_path), the runner's namespaced calls and has(), and the Protobuf binding of
confluent.type.Decimal / google.protobuf.Timestamp / confluent.type.Variant fields."""
from __future__ import annotations

import datetime
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, Dict, Optional

import pytest

pytest.importorskip("celpy")

from celpy.evaluation import CELEvalError  # noqa: E402

from confluent_kafka.schema_registry import Schema  # noqa: E402
from confluent_kafka.schema_registry.confluent.type import variant_utils  # noqa: E402
from confluent_kafka.schema_registry.rules.cel import variant_path  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor, msg_to_cel  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.timestamp_funcs import format_timestamp  # noqa: E402

UTC = datetime.timezone.utc


def ev(expr: str, args: Optional[Dict[str, Any]] = None, kind: str = "AVRO") -> Any:
    return CelExecutor().execute_rule(SimpleNamespace(target=Schema("{}", kind)), expr,  # type: ignore[arg-type]
                                      dict(args or {}))


def same(a: Decimal, b: str) -> bool:
    """Equal including the scale."""
    return a.as_tuple() == Decimal(b).as_tuple()


# -- decimals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("expr,want", [
    ('decimal("1.50")', "1.50"), ("decimal(3)", "3"), ("decimal(2.5)", "2.5"), ('decimal(b"\\x04\\xd2", 2)', "12.34"),
    ('decimal(b"\\xfb\\x2e", 2)', "-12.34"), ('decimal(b"", 3)', "0.000"),
    ('decimals.add(decimal("1.1"), decimal("2.22"))', "3.32"), ('decimals.sub(decimal("1.1"), 3)', "-1.9"),
    ('decimals.mul(decimal("1.10"), 3)', "3.30"), ('decimals.div(decimal("10"), decimal("4"))', "2.5"),
    ('decimals.div(decimal("1"), decimal("3"))', "0." + "3" * 38), ('decimals.div(decimal("2"), decimal("3"))',
                                                                   "0." + "6" * 37 + "7"),
    ('decimals.mod(decimal("-7.5"), decimal("2"))', "-1.5"), ('decimals.sqrt(decimal("9.0"))', "3"),
    ('decimals.sqrt(decimal("1.44"))', "1.2"), ('decimals.sqrt(decimal("0.000"))', "0.0"),
    ('decimals.round(decimal("2.5"))', "3"), ('decimals.round(decimal("-2.5"))', "-3"),
    ('decimals.round(decimal("1.2345"), 2)', "1.23"), ('decimals.round(decimal("1234.5"), -2)', "1.2E+3"),
    ('decimals.trunc(decimal("1.29"), 1)', "1.2"), ('decimals.trunc(decimal("1.2"), 5)', "1.2"),
    ('decimals.floor(decimal("-1.1"))', "-2"), ('decimals.ceil(decimal("-1.1"))', "-1"),
    ('decimals.abs(decimal("-2.50"))', "2.50"), ('decimals.greatest(decimal("1.10"), decimal("1.1"))', "1.10"),
    ('decimals.least(decimal("1"), 2)', "1"),
])
def test_decimal_values(expr: str, want: str) -> None:
    got = ev(expr)
    assert isinstance(got, Decimal) and same(got, want), (expr, got)


@pytest.mark.parametrize("expr", [
    "decimal(null)", "decimal(true)", 'decimal("NaN")', 'decimal("1_0")', 'decimal(" 1")', 'decimal("1e2147483648")',
    'decimal(b"\\x01")', 'decimal(b"\\x01", 1u)', 'decimal(b"\\x01", 2.0)', 'decimals.div(decimal("1"), decimal("0"))',
    'decimals.mod(decimal("1"), decimal("0"))', 'decimals.sqrt(decimal("-1"))', 'decimals.round(decimal("1"), true)',
    'decimals.add(decimal("1e-9000000"), decimal("1e9000000"))', 'decimals.round(decimal("1"), 20000000)',
    'decimals.mod(decimal("1e2000000000"), decimal("3"))', "string([1])", "string(null)", "double(true)",
])
def test_decimal_errors(expr: str) -> None:
    with pytest.raises(CELEvalError):
        ev(expr)


def test_decimal_comparisons_and_equality() -> None:
    assert ev('decimals.eq(decimal("1.0"), decimal("1.00"))') is True
    assert ev('decimals.lt(decimal("1"), 2) && decimals.le(decimal("2"), "2.0") && !decimals.gt(decimal("1"), 2.5)')
    assert ev('decimal("1.0") == decimal("1.00")') is True
    assert ev('decimal("1") == 1') is False  # a decimal never equals a non-decimal
    assert ev('[decimal("1.0")] == [decimal("1")]') is True
    assert ev('decimal("1.0") in [decimal("1"), decimal("2")]') is True
    assert ev('{"a": decimal("1.0")} == {"a": decimal("1")}') is True
    assert ev("[1, 2] == [1, 2] && 1 in [1, 2] && 'a' != 'b'") is True
    assert ev("decimals.sign(decimal('-0.1')) == -1 && decimals.sign(decimal('0.0')) == 0")


def test_string_and_double() -> None:
    assert ev('string(decimal("1e3"))') == "1000"
    assert ev('string(decimal("-0.00"))') == "0.00"
    assert ev('string(decimals.neg(decimal("0")))') == "0"
    assert ev("string(true)") == "true"
    assert ev("string(2.5)") == "2.5"
    assert ev('string(b"ab")') == "ab"
    assert ev("double(d)", {"d": Decimal("12.340")}) == 12.34
    assert ev('double("2.5")') == 2.5


# -- timestamps -------------------------------------------------------------------------------------


def test_timestamp_overloads() -> None:
    assert ev("timestamp(1700000000)") == datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=UTC)
    assert ev("timestamp(1700000000123, 3)").microsecond == 123000
    assert ev("timestamp(1700000000123456, 6)").microsecond == 123456
    assert ev("timestamp(1700000000123456789, 9)").microsecond == 123456
    assert ev("timestamp(-1, 9)") == datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    assert ev('string(timestamp("2023-11-14T22:13:20.123Z"))') == "2023-11-14T22:13:20.123Z"
    assert ev('string(timestamp("2023-11-14T23:13:20.123456+01:00"))') == "2023-11-14T22:13:20.123456Z"
    for bad in ("timestamp(1, 4)", "timestamp(1u)", "timestamp(true)", "timestamp(null)", "timestamp(1.5, 3)",
                "timestamp(99999999999999999)"):
        with pytest.raises(CELEvalError):
            ev(bad)
    with pytest.raises(CELEvalError):
        ev("timestamp(t)", {"t": datetime.datetime(2020, 1, 1)})  # naive: no instant


def test_format_timestamp() -> None:
    assert format_timestamp(datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2020-01-02T03:04:05Z"
    assert format_timestamp(datetime.datetime(5, 1, 2, 3, 4, 5, 10, tzinfo=UTC)) == "0005-01-02T03:04:05.000010Z"


# -- variants ---------------------------------------------------------------------------------------

DOC = variant_utils.parse_json('{"a": [1, 2.5, "x", null, true, {"b": 2}], "b c": {"d": 12345678901}, "n": null}')


def test_variant_navigation() -> None:
    args = {"v": DOC}
    assert ev('variants.toJson(variants.path(v, "$.a[5].b"))', args) == "2"
    assert ev("variants.as(variants.path(v, \"$['b c'].d\"), 'int')", args) == 12345678901
    assert ev('variants.path(v, "$.zz") == null', args) is True
    assert ev('variants.as(variants.path(v, "$.a[1]"), "double")', args) == 2.5
    assert ev('variants.isNull(variants.field(v, "n")) && !variants.isNull(variants.field(v, "zz"))', args)
    assert ev('variants.index(variants.field(v, "a"), 9) == null', args) is True
    assert ev("variants.type(v)", args) == "object"
    assert ev('variants.tryAs(variants.field(v, "a"), "int") == null', args) is True
    assert ev('variants.tryParseJson("{bad") == null') is True
    assert ev('variants.as(variants.parseJson("123456789012345678901234567890"), "decimal")') == \
        Decimal("123456789012345678901234567890")
    for bad in ('variants.as(v, "int")', 'variants.as(v, "object")', 'variants.path(v, "a")', 'variants.index("x", 1)',
                'variant("x")', 'variants.parseJson("{bad")', 'variant(b"\\x0c", b"")'):
        with pytest.raises(CELEvalError):
            ev(bad, args)


def test_variant_timestamps_floor_nanos() -> None:
    builder = variant_utils.VariantBuilder()
    builder.append_timestamp_nanos_tz(-1)
    got = ev("variants.as(x, 'timestamp')", {"x": builder.build()})
    assert got == datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)


def test_variant_path_parse() -> None:
    assert variant_path.parse("$.a[0]['k\\'q']") == (("field", "a"), ("index", 0), ("field", "k'q"))
    for bad in ("", "a", "$[-1]", "$[0", "$.1", "$['a\\x']", "$[3000000000]", "$x"):
        with pytest.raises(ValueError):
            variant_path.parse(bad)


# -- the runner and the Protobuf binding -----------------------------------------------------------


def test_namespaced_calls_leave_methods_alone() -> None:
    assert ev("'abc'.startsWith('a') && [1, 2].all(x, x > 0) && timestamp(0).getFullYear() == 1970") is True
    with pytest.raises(CELEvalError):
        ev("nosuch.fn(1)")


def _payment_class() -> Any:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2

    from confluent_kafka.schema_registry.confluent.type import decimal_pb2, variant_pb2

    F = descriptor_pb2.FieldDescriptorProto
    pool = descriptor_pool.DescriptorPool()
    for module in (timestamp_pb2, decimal_pb2, variant_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    f = descriptor_pb2.FileDescriptorProto(name="t/pay.proto", package="t", syntax="proto3", dependency=[
        "google/protobuf/timestamp.proto", decimal_pb2.DESCRIPTOR.name, variant_pb2.DESCRIPTOR.name])
    msg = f.message_type.add(name="Pay")
    for name, number, type_name in [("amount", 1, ".confluent.type.Decimal"), ("at", 2, ".google.protobuf.Timestamp"),
                                    ("doc", 3, ".confluent.type.Variant")]:
        msg.field.add(name=name, number=number, type=F.TYPE_MESSAGE, type_name=type_name, label=F.LABEL_OPTIONAL)
    pool.AddSerializedFile(f.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("t.Pay"))


def test_protobuf_binding() -> None:
    cls = _payment_class()
    p = cls()
    p.amount.value, p.amount.scale, p.amount.precision = (1234).to_bytes(2, "big"), 3, 4
    p.at.FromDatetime(datetime.datetime(2023, 11, 14, 22, 13, 20, 123000))
    v = variant_utils.parse_json('{"a": 1}')
    p.doc.value, p.doc.metadata = v.value, v.metadata
    args = {"message": msg_to_cel(p)}
    assert ev('message.amount == decimal("1.234") && message.amount.scale == 3', args, "PROTOBUF") is True
    assert ev("string(message.amount)", args, "PROTOBUF") == "1.234"
    assert ev('variants.as(variants.field(message.doc, "a"), "int")', args, "PROTOBUF") == 1
    assert ev("string(message.at)", args, "PROTOBUF") == "2023-11-14T22:13:20.123Z"
    assert ev("has(message.amount) && has(message.at) && has(message.doc)", args, "PROTOBUF") is True
    empty = {"message": msg_to_cel(cls())}
    assert ev("has(message.amount) || has(message.at) || has(message.doc)", empty, "PROTOBUF") is False
    assert ev('message.amount == decimal("0") && message.at == timestamp(0)', empty, "PROTOBUF") is True
    assert ev("variants.type(message.doc) == null && !(message.doc == null)", empty, "PROTOBUF") is True


def test_in_has_is_true_only_inside_has() -> None:
    from confluent_kafka.schema_registry.rules.cel import cel_field_presence, extra_func

    from celpy import celtypes

    seen = []
    extra_func.EXTRA_FUNCS["probeHas"] = lambda: seen.append(cel_field_presence.in_has()) or celtypes.MapType(
        {celtypes.StringType("k"): celtypes.IntType(1)})
    try:
        assert ev("has(probeHas().k) && size(probeHas()) == 1") is True
    finally:
        del extra_func.EXTRA_FUNCS["probeHas"]
    assert seen[-1] is False and len(seen) >= 2 and all(seen[:-1]) and cel_field_presence.in_has() is False
