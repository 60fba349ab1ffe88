"""CEL's decimal, timestamp and variant libraries (rules.cel.decimal_funcs, timestamp_funcs,
variant_funcs): ``decimal(...)`` and ``decimals.*``, the ``timestamp(...)`` overloads, ``variant(...)``
and ``variants.*``, the decimal-aware ``string``/``double``/``==``, evaluated by the CEL executor
directly; and the same functions in CONDITION, TRANSFORM and CEL_FIELD rules over Avro decimal,
timestamp and variant fields, JSON numbers, and Protobuf ``confluent.type.Decimal``,
``google.protobuf.Timestamp`` and ``confluent.type.Variant`` fields on the mock:// client. An error
is observed by its type only (the texts are each client's own)."""
from __future__ import annotations

import datetime
import decimal
import json
from base64 import b64decode
from typing import Any, Dict, List, Optional

from observe import data

# -- evaluating expressions -------------------------------------------------------------------------

DECIMAL_EXPRS = [
    'decimal("1.50")', 'string(decimal("1.50"))', 'string(decimal("-0.00"))', 'string(decimal("1e3"))',
    'string(decimal("-1.5e-3"))', "decimal(3)", "decimal(-3)", "decimal(2.5)", "decimal(0.1)", "decimal(true)",
    "decimal(null)", 'decimal("NaN")', 'decimal("Infinity")', 'decimal("1_0")', 'decimal(" 1")', 'decimal("")',
    'decimal("abc")', 'decimal("+1.5")', 'decimal("1e2147483647")', 'decimal("1e2147483648")',
    'decimal(b"\\x04\\xd2", 2)', 'decimal(b"\\xfb\\x2e", 2)', 'decimal(b"", 3)', 'decimal(b"\\x01", -2)',
    'decimal(b"\\x01", 1u)', 'decimal(b"\\x01")', 'decimal(b"\\x01", 2.0)', 'decimal(b"\\x01", true)',
    'decimal(b"\\x01", 3000000000)', "decimal([1])", "decimal({})", "decimal(1, 2, 3)",
    'decimals.add(decimal("1.1"), decimal("2.22"))', 'decimals.add(decimal("1.1"), 2)',
    'decimals.sub(decimal("1.1"), 3)', 'decimals.mul(decimal("1.1"), "2.5")', 'decimals.mul(decimal("1.10"), 3)',
    'decimals.div(decimal("1"), decimal("3"))', 'decimals.div(decimal("10"), decimal("4"))',
    'decimals.div(decimal("2"), decimal("3"))', 'decimals.div(decimal("-2"), decimal("3"))',
    'decimals.div(decimal("1"), decimal("0"))', 'decimals.div(decimal("0"), decimal("3.00"))',
    'decimals.div(decimal("1.00"), decimal("0.5"))', 'decimals.mod(decimal("-7.5"), decimal("2"))',
    'decimals.mod(decimal("7.5"), decimal("-2"))', 'decimals.mod(decimal("1"), decimal("0"))',
    'decimals.greatest(decimal("1.10"), decimal("1.1"))', 'decimals.greatest(decimal("1"), 2)',
    'decimals.least(decimal("1"), 2)', 'decimals.sqrt(decimal("9.0"))', 'decimals.sqrt(decimal("2"))',
    'decimals.sqrt(decimal("0.000"))', 'decimals.sqrt(decimal("-1"))', 'decimals.sqrt(decimal("1.44"))',
    'decimals.sqrt(decimal("100"))', 'decimals.sqrt(decimal("1E+2"))', 'decimals.neg(decimal("2.5"))',
    'string(decimals.neg(decimal("0")))', 'decimals.abs(decimal("-2.50"))', 'decimals.sign(decimal("-0.1"))',
    'decimals.sign(decimal("0.0"))', 'decimals.sign(decimal("3"))', 'decimals.round(decimal("2.5"))',
    'decimals.round(decimal("-2.5"))', 'decimals.round(decimal("1.2345"), 2)', 'decimals.round(decimal("1.5"), 3)',
    'decimals.round(decimal("1234.5"), -2)', 'decimals.round(decimal("1"), true)',
    'decimals.round(decimal("1"), 1u)', 'decimals.round(decimal("1"), 1, 2)', 'decimals.trunc(decimal("1.29"), 1)',
    'decimals.trunc(decimal("1.2"), 5)', 'decimals.trunc(decimal("-1.9"))', 'decimals.trunc(decimal("100"))',
    'decimals.trunc(decimal("1E+2"))', 'decimals.floor(decimal("-1.1"))', 'decimals.floor(decimal("1.9"))',
    'decimals.ceil(decimal("-1.1"))', 'decimals.ceil(decimal("1.1"))',
    'decimals.eq(decimal("1.0"), decimal("1.00"))', 'decimals.eq(decimal("1.0"), 1)',
    'decimals.lt(decimal("1"), 2)', 'decimals.le(decimal("2"), "2.0")', 'decimals.gt(decimal("1"), 2.5)',
    'decimals.ge(decimal("1"), decimal("1"))', 'decimals.lt(decimal("1"), "x")', 'decimals.lt(decimal("1"), null)',
    'decimal("1.0") == decimal("1.00")', 'decimal("1.0") != decimal("1.00")', 'decimal("1") == 1',
    'decimal("1") != "1"', '[decimal("1.0")] == [decimal("1")]', 'decimal("1.0") in [decimal("1"), decimal("2")]',
    'decimal("3") in [decimal("1"), decimal("2")]', '{"a": decimal("1.0")} == {"a": decimal("1")}',
    '[1, 2] == [1, 2]', '1 in [1, 2]', '"a" != "b"', 'd == decimal("12.34")', 'd != decimal("12.34")',
    "string(d)", "double(d)", 'double(decimal("1e400"))', "double(true)", 'double("2.5")', "double(3)",
    'double(b"1")', "string(true)", "string(false)", "string(1)", "string(1u)", "string(2.5)", 'string(b"ab")',
    "string([1])", "string({})", "string(null)", 'string("s")', 'string(duration("90s"))', "decimals.abs(d)",
    'decimals.add(decimal("1e-9000000"), decimal("1e9000000"))', 'decimals.round(decimal("1"), 20000000)',
    'decimals.mod(decimal("1e2000000000"), decimal("3"))', 'decimals.round(decimal(b"", 2147483647))',
    'decimals.mul(decimal("1e2000000000"), decimal("1e100000000"))',
]

TIMESTAMP_EXPRS = [
    'string(timestamp("2023-11-14T22:13:20.123Z"))', 'string(timestamp("2023-11-14T22:13:20.123456Z"))',
    'string(timestamp("2023-11-14T22:13:20Z"))', 'string(timestamp("2023-11-14T23:13:20+01:00"))',
    "timestamp(1700000000)", "timestamp(-1)", "timestamp(0)", "timestamp(1700000000123, 3)",
    "timestamp(1700000000123456, 6)", "timestamp(1700000000123456789, 9)", "timestamp(-1, 9)", "timestamp(-1, 3)",
    "timestamp(1700000000, 0)", "timestamp(1, 4)", "timestamp(1u)", "timestamp(true)", "timestamp(null)",
    "timestamp(1.5, 3)", "timestamp(1, 3u)", "timestamp(1.5)", 'timestamp("2023-01-01T00:00:00Z")',
    'timestamp("nope")', "timestamp(99999999999999999)", "timestamp(99999999999999999, 3)",
    "timestamp(1700000000) < timestamp(1700000001)", "string(timestamp(1700000000123, 3))",
    "string(timestamp(1700000000123456789, 9))", "timestamp(1700000000123, 3).getMilliseconds()",
    "timestamp(ts)", "string(ts)", "timestamp(ts) == ts", "timestamp(1700000000) - timestamp(1699999999)",
    "timestamp(1700000000) + duration('1s') == timestamp(1700000001)",
]

VARIANT_DOC = '{"a": [1, 2.5, "x", null, true, {"b": 2}], "b c": {"d": 12345678901}, "n": null, "s": "str"}'
VARIANT_EXPRS = [
    "variant(null) == null", 'variant("x")', "variant(1)", "variants.toJson(v)",
    'variants.toJson(variants.parseJson("{\\"b\\": 1, \\"a\\": [1, 2.5]}"))', 'variants.parseJson("{bad")',
    'variants.tryParseJson("{bad") == null', "variants.tryParseJson(1)", "variants.parseJson(1)",
    'variants.type(variants.parseJson("{}"))', 'variants.type(variants.parseJson("[]"))',
    'variants.type(variants.parseJson("1"))', 'variants.type(variants.parseJson("1.5"))',
    'variants.type(variants.parseJson("\\"s\\""))', 'variants.type(variants.parseJson("true"))',
    'variants.type(variants.parseJson("null"))', 'variants.type(variants.parseJson("123456789012345678901234567890"))',
    "variants.type(null) == null", "variants.type(1)", 'variants.isNull(variants.field(v, "n"))', "variants.isNull(null)",
    "variants.isNull(1)", 'variants.isNull(variants.field(v, "s"))', 'variants.isNull(variants.field(v, "zz"))',
    'variants.toJson(variants.path(v, "$.a[5].b"))', 'variants.path(v, "$.x") == null',
    'variants.toJson(variants.path(v, "$[\\"b c\\"].d"))', "variants.toJson(variants.path(v, \"$['b c']\"))",
    'variants.path(v, "a")', 'variants.path(v, "$[-1]")', 'variants.path(v, "$.a[0")', 'variants.path(v, "$.1")',
    'variants.path(v, "$.a[99]") == null', 'variants.path(v, "$.s.t") == null', "variants.path(v, 1)",
    'variants.toJson(variants.path(v, "$"))', "variants.path(v, \"$['a\\\\x']\")", 'variants.path(v, "")',
    'variants.path(v, "$.a[3000000000]")', 'variants.path(null, "$") == null', 'variants.path("x", "$")',
    'variants.toJson(variants.field(v, "s"))', 'variants.field(v, "zz") == null',
    'variants.field(variants.field(v, "a"), "b") == null', "variants.field(v, 1)",
    'variants.toJson(variants.index(variants.field(v, "a"), 1))', 'variants.index(variants.field(v, "a"), 50) == null',
    'variants.index(variants.field(v, "a"), -1) == null', 'variants.index(variants.field(v, "a"), 1u)',
    "variants.index(v, 0) == null", 'variants.index("x", 1)', 'variants.as(variants.field(v, "s"), "string")',
    'variants.as(variants.path(v, "$.a[0]"), "int")', 'variants.as(variants.path(v, "$.a[1]"), "double")',
    'variants.as(variants.path(v, "$.a[4]"), "boolean")', 'string(variants.as(variants.path(v, "$[\'b c\'].d"), "int"))',
    'string(variants.as(variants.parseJson("123456789012345678901234567890"), "decimal"))',
    'variants.as(variants.field(v, "s"), "int")', 'variants.tryAs(variants.field(v, "s"), "int") == null',
    'variants.as(v, "object")', 'variants.tryAs(v, "array")', 'variants.as(v, "foo")', 'variants.tryAs(v, "foo") == null',
    "variants.as(v, 1)", "variants.tryAs(v, 1)", 'variants.as(null, "int") == null', 'variants.as(v, "timestamp")',
    'variants.as(v, "bytes")', "variants.toJson(null) == null", 'variants.toJson("x")',
    'variants.as(variant(b"\\x0c\\x05", b"\\x01\\x00\\x00"), "int")', 'variant(b"\\x0c\\x05", b"")',
    'variants.as(variant({"value": b"\\x0c\\x05", "metadata": b"\\x01\\x00\\x00"}), "int")',
    'variant({"value": b"\\x0c\\x05"})', 'variant({"x": 1})', "variant(b\"\\x0c\")", "variant(1, 2, 3)",
    "variants.as(variant(vb, vm), 'timestamp')", "string(variants.as(variant(vb, vm), 'timestamp'))",
    "variants.toJson(variant(vb, vm))", "variants.type(variant(vb, vm))",
    "variants.isNull(variants.parseJson('null'))",
]


def _view(value: Any) -> Any:
    """A CEL result as comparable data: decimals with their scale, timestamps in ISO form,
    variants as their JSON."""
    if isinstance(value, bool):
        return value
    if isinstance(value, decimal.Decimal):
        return {"decimal": str(value)}
    if isinstance(value, datetime.datetime):
        return {"timestamp": value.isoformat()}
    if isinstance(value, datetime.timedelta):
        return {"duration": value.total_seconds()}
    if type(value).__name__ == "Variant":
        return {"variant": value.to_json()}
    if isinstance(value, dict):
        return {str(k): _view(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_view(v) for v in value]
    if isinstance(value, (int, float, str, bytes)) or value is None:
        return [type(value).__name__, data(value)]
    return type(value).__name__


def _evaluate(exprs: List[str], args: Dict[str, Any]) -> Any:
    from types import SimpleNamespace

    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor

    executor = CelExecutor()
    ctx = SimpleNamespace(target=Schema("{}", "AVRO"))
    out = {}
    for expr in exprs:
        try:
            out[expr] = {"ok": _view(executor.execute_rule(ctx, expr, dict(args)))}  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 - the exception is the observation
            out[expr] = {"raises": type(exc).__name__}
    return out


def scenario_cel_decimal_functions() -> Any:
    return _evaluate(DECIMAL_EXPRS, {"d": decimal.Decimal("12.340")})


def scenario_cel_timestamp_functions() -> Any:
    from celpy import celtypes

    ts = celtypes.TimestampType(datetime.datetime(2024, 2, 29, 12, 0, 0, 5000, tzinfo=datetime.timezone.utc))
    return _evaluate(TIMESTAMP_EXPRS, {"ts": ts})


def scenario_cel_variant_functions() -> Any:
    from celpy import celtypes

    from confluent_kafka.schema_registry.confluent.type import variant_utils

    builder = variant_utils.VariantBuilder()
    builder.append_timestamp_nanos_tz(1700000000123456789)
    stamp = builder.build()
    return _evaluate(VARIANT_EXPRS, {"v": variant_utils.parse_json(VARIANT_DOC),
                                     "vb": celtypes.BytesType(stamp.value), "vm": celtypes.BytesType(stamp.metadata)})


# -- in rules, through the serdes ---------------------------------------------------------------------


def _sr(name: str) -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://" + name})


def _ctx(topic: str) -> Any:
    from confluent_kafka.serialization import MessageField, SerializationContext

    return SerializationContext(topic, MessageField.VALUE)


def _rule(name: str, kind: str, mode: str, type_: str, expr: str, tags: Optional[List[str]] = None) -> Any:
    from confluent_kafka.schema_registry import Rule, RuleKind, RuleMode

    return Rule(name, None, RuleKind(kind), RuleMode(mode), type_, tags, None, expr, None, None, None)


def _schema(text: str, kind: str, rules: List[Any], references: Any = None) -> Any:
    from confluent_kafka.schema_registry import RuleSet, Schema

    return Schema(text, kind, references or [], None, RuleSet(None, rules))


def _registry() -> Any:
    from confluent_kafka.schema_registry.rule_registry import RuleRegistry
    from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor
    from confluent_kafka.schema_registry.rules.cel.cel_field_executor import CelFieldExecutor

    reg = RuleRegistry()
    reg.register_executor(CelExecutor())
    reg.register_executor(CelFieldExecutor())
    return reg


def _attempt(fn: Any) -> Any:
    try:
        return {"ok": _view(fn())}
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        cause = exc.__cause__
        return {"raises": type(exc).__name__, "cause": None if cause is None else type(cause).__name__}


AVRO_ORDER = json.dumps({"type": "record", "name": "Order", "namespace": "ex", "fields": [
    {"name": "id", "type": "string"},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2},
     "confluent:tags": ["MONEY"]},
    {"name": "fixed", "type": {"type": "fixed", "name": "F5", "size": 5, "logicalType": "decimal", "precision": 9,
                               "scale": 3}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "at_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "doc", "type": {"type": "record", "name": "V", "logicalType": "variant", "fields": [
        {"name": "metadata", "type": "bytes"}, {"name": "value", "type": "bytes"}]}}]})

AVRO_RULES = {
    "decimal compare": ("CONDITION", "CEL", 'decimals.gt(message.amount, decimal("10"))', None),
    "decimal equality": ("CONDITION", "CEL", 'message.amount == decimal("12.340")', None),
    "decimal string": ("CONDITION", "CEL", 'string(message.amount) == "12.34"', None),
    "fixed decimal": ("CONDITION", "CEL", 'decimals.eq(message.fixed, decimal("1.5"))', None),
    "decimal double": ("CONDITION", "CEL", "double(message.amount) > 12.0", None),
    "timestamp compare": ("CONDITION", "CEL", "message.at > timestamp(1700000000)", None),
    "timestamp epoch": ("CONDITION", "CEL", "message.at == timestamp(1700000000123, 3)", None),
    "timestamp string": ("CONDITION", "CEL", 'string(message.at_us) == "2023-11-14T22:13:20.123456Z"', None),
    "variant path": ("CONDITION", "CEL", 'variants.as(variants.path(message.doc, "$.a[0]"), "int") == 1', None),
    "variant type": ("CONDITION", "CEL", 'variants.type(message.doc) == "object"', None),
    "variant via map": ("CONDITION", "CEL", 'variants.toJson(variant(message.doc)) == "{\\"a\\":[1,2]}"', None),
    "failing decimal": ("CONDITION", "CEL", 'decimals.div(message.amount, decimal("0")) == decimal("1")', None),
    "transform": ("TRANSFORM", "CEL",
                  "{'id': message.id, 'amount': decimals.round(decimals.mul(message.amount, decimal('1.1')), 2), "
                  "'fixed': decimals.add(message.fixed, decimal('0.001')), 'at': timestamp(1700000001, 0), "
                  "'at_us': message.at_us, 'doc': message.doc}", None),
    "field decimal": ("CONDITION", "CEL_FIELD", 'decimals.lt(value, decimal("100"))', ["MONEY"]),
    "field transform": ("TRANSFORM", "CEL_FIELD", 'decimals.round(decimals.div(value, decimal("3")), 2)',
                        ["MONEY"]),
    "guarded": ("TRANSFORM", "CEL", "decimals.gt(message.amount, decimal('1000')) ; message", None),
}


def _order(amount: str = "12.34") -> Dict[str, Any]:
    from confluent_kafka.schema_registry.confluent.type import variant_utils

    utc = datetime.timezone.utc
    return {"id": "o1", "amount": decimal.Decimal(amount), "fixed": decimal.Decimal("1.500"),
            "at": datetime.datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=utc),
            "at_us": datetime.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=utc),
            "doc": variant_utils.parse_json('{"a": [1, 2]}')}


def scenario_cel_types_avro_rules() -> Any:
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer

    sr = _sr("cel-types-avro")
    reg = _registry()
    out = {}
    for i, (label, (kind, type_, expr, tags)) in enumerate(AVRO_RULES.items()):
        topic = f"a{i}"
        sr.register_schema(f"{topic}-value", _schema(AVRO_ORDER, "AVRO", [_rule("r", kind, "WRITE", type_, expr, tags)]))
        ser = AvroSerializer(sr, None, conf={"auto.register.schemas": False, "use.latest.version": True},
                             rule_registry=reg)
        de = AvroDeserializer(sr, rule_registry=reg)
        written = _attempt(lambda: ser(_order(), _ctx(topic)))
        result: Dict[str, Any] = {"written": {k: v for k, v in written.items() if k != "ok"} or "ok"}
        if "ok" in written:
            result["read"] = _attempt(lambda: de(ser(_order(), _ctx(topic)), _ctx(topic)))
        result["other"] = _attempt(lambda: ser(_order("5.00"), _ctx(topic)) is not None)
        out[label] = result
    return out


JSON_ORDER = json.dumps({"title": "Order", "type": "object", "properties": {
    "id": {"type": "string"}, "price": {"type": "number", "confluent:tags": ["MONEY"]},
    "qty": {"type": "integer"}, "total": {"type": "string"}, "at": {"type": "string"}}})

JSON_RULES = {
    "decimal of number": ("CONDITION", "CEL", 'decimals.ge(decimal(message.price), decimal("1.5"))', None),
    "decimal of int": ("CONDITION", "CEL", 'decimal(message.qty) == decimal("3.0")', None),
    "timestamp of text": ("CONDITION", "CEL", "timestamp(message.at) < timestamp(1800000000)", None),
    "transform": ("TRANSFORM", "CEL",
                  "{'id': message.id, 'price': message.price, 'qty': message.qty, "
                  "'total': string(decimals.mul(decimal(message.price), message.qty)), "
                  "'at': string(timestamp(message.at))}", None),
    "field": ("TRANSFORM", "CEL_FIELD", "double(decimals.round(decimal(value), 0))", ["MONEY"]),
    "failing": ("CONDITION", "CEL", 'decimal(message.id) == decimal("1")', None),
}


def scenario_cel_types_json_rules() -> Any:
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer

    sr = _sr("cel-types-json")
    reg = _registry()
    out = {}
    doc = {"id": "o1", "price": 2.25, "qty": 3, "total": "", "at": "2023-11-14T22:13:20.5Z"}
    for i, (label, (kind, type_, expr, tags)) in enumerate(JSON_RULES.items()):
        topic = f"j{i}"
        sr.register_schema(f"{topic}-value", _schema(JSON_ORDER, "JSON", [_rule("r", kind, "WRITE", type_, expr, tags)]))
        ser = JSONSerializer(None, sr, conf={"auto.register.schemas": False, "use.latest.version": True},
                             rule_registry=reg)
        de = JSONDeserializer(None, schema_registry_client=sr, rule_registry=reg)
        out[label] = _attempt(lambda: de(ser(dict(doc), _ctx(topic)), _ctx(topic)))
    return out


# -- Protobuf: confluent.type.Decimal, google.protobuf.Timestamp, confluent.type.Variant fields ----

_PB: Dict[str, Any] = {}


def _pb_class() -> Any:
    """ex/celtypes.proto: message Payment {string id = 1; confluent.type.Decimal amount = 2;
    google.protobuf.Timestamp at = 3; confluent.type.Variant doc = 4; repeated confluent.type.Decimal
    parts = 5; confluent.type.Decimal unset = 6}."""
    if _PB:
        return _PB["Payment"]
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2

    from confluent_kafka.schema_registry.confluent.type import decimal_pb2, variant_pb2

    F = descriptor_pb2.FieldDescriptorProto
    pool = descriptor_pool.DescriptorPool()
    for module in (timestamp_pb2, decimal_pb2, variant_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    f = descriptor_pb2.FileDescriptorProto(name="ex/celtypes.proto", package="ex", syntax="proto3",
                                           dependency=["google/protobuf/timestamp.proto", decimal_pb2.DESCRIPTOR.name,
                                                       variant_pb2.DESCRIPTOR.name])
    msg = f.message_type.add(name="Payment")
    for name, number, kind, type_name, repeated in [
            ("id", 1, F.TYPE_STRING, "", False), ("amount", 2, F.TYPE_MESSAGE, ".confluent.type.Decimal", False),
            ("at", 3, F.TYPE_MESSAGE, ".google.protobuf.Timestamp", False),
            ("doc", 4, F.TYPE_MESSAGE, ".confluent.type.Variant", False),
            ("parts", 5, F.TYPE_MESSAGE, ".confluent.type.Decimal", True),
            ("unset", 6, F.TYPE_MESSAGE, ".confluent.type.Decimal", False)]:
        fld = msg.field.add(name=name, number=number, type=kind,
                            label=F.LABEL_REPEATED if repeated else F.LABEL_OPTIONAL)
        if type_name:
            fld.type_name = type_name
    pool.AddSerializedFile(f.SerializeToString())
    _PB["Payment"] = message_factory.GetMessageClass(pool.FindMessageTypeByName("ex.Payment"))
    return _PB["Payment"]


def _payment() -> Any:
    from confluent_kafka.schema_registry.confluent.type import variant_utils
    from confluent_kafka.schema_registry.confluent.type.decimal_utils import to_proto_decimal

    def put(target: Any, value: str) -> None:
        made = to_proto_decimal(decimal.Decimal(value))
        target.value, target.precision, target.scale = made.value, made.precision, made.scale

    p = _pb_class()(id="p1")
    put(p.amount, "12.340")
    p.at.FromDatetime(datetime.datetime(2023, 11, 14, 22, 13, 20, 123000))
    v = variant_utils.parse_json('{"a": [1, 2], "n": null}')
    p.doc.value, p.doc.metadata = v.value, v.metadata
    put(p.parts.add(), "1.5")
    put(p.parts.add(), "-2")
    return p


PB_RULES = {
    "decimal compare": ("CONDITION", 'decimals.gt(message.amount, decimal("10"))'),
    "decimal equality": ("CONDITION", 'message.amount == decimal("12.34")'),
    "decimal string": ("CONDITION", 'string(message.amount) == "12.340"'),
    "decimal double": ("CONDITION", "double(message.amount) == 12.34"),
    "decimal constructor": ("CONDITION", 'decimal(message.amount) == decimal("12.34")'),
    "decimal list": ("CONDITION", 'decimals.add(message.parts[0], message.parts[1]) == decimal("-0.5")'),
    "decimal in list": ("CONDITION", 'decimal("1.50") in message.parts'),
    "timestamp": ("CONDITION", "message.at == timestamp(1700000000123, 3)"),
    "timestamp string": ("CONDITION", 'string(message.at) == "2023-11-14T22:13:20.123Z"'),
    "timestamp constructor": ("CONDITION", "timestamp(message.at) > timestamp(0)"),
    "variant": ("CONDITION", 'variants.as(variants.path(message.doc, "$.a[1]"), "int") == 2'),
    "variant null": ("CONDITION", 'variants.isNull(variants.field(message.doc, "n"))'),
    "variant constructor": ("CONDITION", 'variants.type(variant(message.doc)) == "object"'),
    "failing": ("CONDITION", 'decimals.sqrt(decimals.neg(message.amount)) == decimal("1")'),
    "decimal fields": ("CONDITION", "message.amount.scale == 3 && has(message.amount) && !has(message.unset)"),
    "unset decimal": ("CONDITION", 'message.unset == decimal("0") && string(message.unset) == "0"'),
    "pass through": ("TRANSFORM", "{'id': message.id, 'amount': message.amount, 'at': message.at, "
                                  "'doc': message.doc, 'parts': message.parts}"),
    "transform": ("TRANSFORM", "{'id': message.id, 'amount': decimals.round(decimals.mul(message.amount, "
                               "decimal('2')), 1), 'at': timestamp(1700000001, 0), "
                               "'doc': variants.parseJson('[true]'), 'parts': [decimal('7.25')]}"),
}


def scenario_cel_types_protobuf_rules() -> Any:
    from google.protobuf import json_format

    from confluent_kafka.schema_registry import SchemaReference
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer, _schema_to_str

    cls = _pb_class()
    sr = _sr("cel-types-pb")
    reg = _registry()
    probe = ProtobufSerializer(cls, sr, conf={"use.deprecated.format": False, "skip.known.types": False})
    probe(cls(), _ctx("pb-probe"))  # registers the imports under their file names
    refs = [SchemaReference(name, name, sr.get_latest_version(name).version)
            for name in ("google/protobuf/timestamp.proto", "confluent/type/decimal.proto",
                         "confluent/type/variant.proto")]
    text = _schema_to_str(cls.DESCRIPTOR.file)
    out = {}
    for i, (label, (kind, expr)) in enumerate(PB_RULES.items()):
        topic = f"p{i}"
        sr.register_schema(f"{topic}-value", _schema(text, "PROTOBUF", [_rule("r", kind, "WRITE", "CEL", expr)], refs))
        ser = ProtobufSerializer(cls, sr, conf={"auto.register.schemas": False, "use.latest.version": True,
                                                "use.deprecated.format": False}, rule_registry=reg)
        de = ProtobufDeserializer(cls, {"use.deprecated.format": False}, sr, rule_registry=reg)

        def roundtrip() -> Any:
            msg = de(ser(_payment(), _ctx(topic)), _ctx(topic))
            return json_format.MessageToDict(msg, preserving_proto_field_name=True)

        out[label] = _attempt(roundtrip)
    return out


def scenario_cel_types_field_binding() -> Any:
    """What a rule sees for each typed field: the CEL ``type()`` of the bound value."""
    out = {}
    from types import SimpleNamespace

    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor, msg_to_cel

    executor = CelExecutor()
    ctx = SimpleNamespace(target=Schema("{}", "PROTOBUF"))
    for label, msg in (("set", _payment()), ("unset", _pb_class()(id="x"))):
        bound = msg_to_cel(msg)
        seen = out[label] = {}
        for expr in ["string(message.amount)", "string(message.at)", "variants.toJson(message.doc)",
                     "size(message.parts)", "message.id", "string(message.amount)", "double(message.amount)",
                     "message.unset == null", "message.unset == decimal('0')", "decimals.add(message.unset, 1)",
                     "message.at == null", "message.doc == null", "variants.type(message.doc)",
                     "variants.isNull(message.doc)", "has(message.unset)", "has(message.at)", "has(message.doc)",
                     "has(message.amount)", "has(message.id)", "message.amount.scale", "message.amount.precision",
                     "message.amount == message.amount", "message.amount != decimal('1')",
                     "[message.amount] == [decimal('12.34')]", "decimal(message.amount)", "variant(message.doc)",
                     "message.at == timestamp(0)"]:
            try:
                seen[expr] = {"ok": _view(executor.execute_rule(ctx, expr, {"message": bound}))}  # type: ignore
            except Exception as exc:  # noqa: BLE001 - the exception is the observation
                seen[expr] = {"raises": type(exc).__name__}
    return out


def scenario_cel_types_module_surface() -> Any:
    """The modules' public names, their parameters, and the CEL functions each library registers."""
    import importlib
    import inspect

    out = {}
    for name in ("decimal_funcs", "timestamp_funcs", "variant_funcs", "variant_path", "cel_field_presence",
                 "extra_func"):
        module = importlib.import_module("confluent_kafka.schema_registry.rules.cel." + name)
        public = sorted(n for n, o in vars(module).items() if not n.startswith("_") and (
            (callable(o) and getattr(o, "__module__", None) == module.__name__)
            or (n.isupper() and isinstance(o, dict))))
        out[name] = {n: (sorted(getattr(module, n)) if isinstance(getattr(module, n), dict)
                         else [p.name for p in inspect.signature(getattr(module, n)).parameters.values()]
                         if inspect.isfunction(getattr(module, n)) else "class") for n in public}
    return out


def scenario_cel_types_in_has() -> Any:
    from confluent_kafka.schema_registry.rules.cel.cel_field_presence import in_has

    return {"outside": in_has()}
