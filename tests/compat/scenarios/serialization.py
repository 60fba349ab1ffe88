"""confluent_kafka.serialization: MessageField, SerializationContext, the base classes and
builders, and every String/Integer/Double (de)serializer on every sort of input and codec."""
from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from observe import data, outcome

from confluent_kafka import KafkaException
from confluent_kafka import serialization as S


def _field(x: Any) -> Any:
    """A value that may be a MessageField, seen through its type as well as its value."""
    return {"type": type(x).__name__, "repr": repr(x), "str": str(x), "value": data(x)}


def scenario_message_field() -> Any:
    F = S.MessageField
    return {
        "members": [[m.name, m.value, _field(m)] for m in F],
        "len": len(F),
        "names": list(F.__members__),
        "call": [outcome(lambda v=v: _field(F(v))) for v in ("key", "value", "none", "KEY", "Key", 1, None)],
        "getitem": [outcome(lambda v=v: _field(F[v])) for v in ("KEY", "VALUE", "key")],
        "eq_str": [F.KEY == "key", "key" == F.KEY, F.VALUE == "value", F.KEY != "value", F.NONE == "none"],
        "hash_as_str": hash(F.KEY) == hash("key"),
        "dict_key": {F.KEY: 1}.get("key"),
        "in_tuple": "value" in (F.VALUE,),
        "isinstance_str": isinstance(F.KEY, str),
        "format": [f"{F.KEY}", "{}".format(F.VALUE), "%s" % F.NONE, f"{F.KEY!r}", f"{F.KEY:>6}"],
        "str_methods": [F.KEY.upper(), F.VALUE + "!", F.KEY.startswith("k"), len(F.VALUE)],
        "json": json.dumps({"f": F.KEY}),
        "sorted": [m.value for m in sorted([F.VALUE, F.KEY, F.NONE])],
        "identity": [F("key") is F.KEY, F.KEY.value is not None],
        "type_of_value": type(F.KEY.value).__name__,
        "set_attr": outcome(setattr, F, "KEY", "other"),
        "classname": [F.__name__, F.__qualname__],
    }


def scenario_serialization_context() -> Any:
    C = S.SerializationContext
    made = []
    for args, kwargs in [(("t", S.MessageField.KEY), {}), (("t", "value", [("h", b"1")]), {}),
                         ((), {"topic": "t", "field": S.MessageField.VALUE, "headers": {"a": "b"}}),
                         (("t",), {}), ((), {}), (("t", "key", None, 5), {}), (("t", "key"), {"extra": 1}),
                         ((None, None), {})]:
        def make(args: Any = args, kwargs: Any = kwargs) -> Any:
            ctx = C(*args, **kwargs)
            return {"topic": ctx.topic, "field": _field(ctx.field), "headers": data(ctx.headers),
                    "vars": sorted(vars(ctx))}
        made.append(outcome(make))
    ctx = C("t", S.MessageField.KEY)
    ctx.field = S.MessageField.VALUE
    ctx.schema_id = 7  # serdes stash their own state on the context
    ctx.topic = "other"
    return {"made": made, "after_set": [ctx.topic, _field(ctx.field), ctx.schema_id, sorted(vars(ctx))],
            "has_dict": hasattr(ctx, "__dict__"), "repr_prefix": repr(ctx).split(" object at ")[0]}


def scenario_base_classes() -> Any:
    class Half(S.Serializer):
        pass

    class HalfD(S.Deserializer):
        pass

    out: dict[str, Any] = {}
    for name, cls in [("Serializer", S.Serializer), ("Deserializer", S.Deserializer), ("Half", Half),
                      ("HalfD", HalfD)]:
        obj = cls()
        out[name] = {
            "call": outcome(obj, b"x"),
            "call_ctx": outcome(obj, b"x", S.SerializationContext("t", S.MessageField.KEY)),
            "close": outcome(obj.close),
            "resolver": outcome(obj.set_cluster_id_resolver, lambda: "id"),
            "resolver_none": outcome(obj.set_cluster_id_resolver, None),
            "set_attr": outcome(setattr, obj, "extra", 1),
            "slots": data(getattr(cls, "__slots__", "none")),
        }
    for name, cls in [("SerializerBuilder", S.SerializerBuilder), ("DeserializerBuilder", S.DeserializerBuilder)]:
        obj = cls()
        out[name] = {"build": outcome(obj.build, {}, True), "build_value": outcome(obj.build, {"a": 1}, False),
                     "set_attr": outcome(setattr, obj, "extra", 1)}
    for name in ("StringSerializer", "StringDeserializer", "IntegerSerializer", "IntegerDeserializer",
                 "DoubleSerializer", "DoubleDeserializer"):
        obj = getattr(S, name)()
        out[name] = {"set_attr": outcome(setattr, obj, "extra", 1), "vars": outcome(lambda o=obj: sorted(vars(o))),
                     "close": outcome(obj.close), "resolver": outcome(obj.set_cluster_id_resolver, lambda: "id"),
                     "is_serializer": isinstance(obj, S.Serializer), "is_deserializer": isinstance(obj, S.Deserializer)}
    return out


def scenario_serialization_error() -> Any:
    E = S.SerializationError
    return {
        "is_kafka_exception": issubclass(E, KafkaException),
        "made": [outcome(lambda a=a: (str(E(*a)), repr(E(*a)), data(E(*a).args))) for a in [("boom",), (), (1, 2)]],
        "raised": outcome(lambda: (_ for _ in ()).throw(E("x"))),
        "mro": [c.__name__ for c in E.__mro__],
    }


def scenario_headers_type() -> Any:
    import confluent_kafka._types as T

    return {"serialization": repr(S.HeadersType), "types": repr(T.HeadersType),
            "same": S.HeadersType == T.HeadersType,
            "aliases": {n: repr(getattr(T, n, None)) for n in ("DeliveryCallback", "RebalanceCallback",
                                                                "Serializer", "Deserializer")}}


SERIALIZER_INPUTS = [
    0, 1, -1, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**63, True, False,
    1.5, -0.0, math.inf, -math.inf, math.nan, 1e308, 3.0,
    "", "x", "é", "日本", "\ud800", "a\x00b",
    b"", b"x", bytearray(b"ab"), None, [1], (1,), {"a": 1}, object(), Decimal("1.5"), Fraction(1, 2),
    complex(1, 2),
]

DESERIALIZER_INPUTS = [
    b"", b"\x01", b"\x00\x00\x00\x01", b"\xff\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00" * 5, b"\x00" * 7,
    b"\x3f\xf8\x00\x00\x00\x00\x00\x00", b"\x7f\xf8\x00\x00\x00\x00\x00\x00", b"\x00" * 8, b"\x00" * 9,
    b"hello", "\u00e9".encode(), b"\xff\xfe", b"\xc3", bytearray(b"\x00\x00\x00\x02"),
    memoryview(b"\x00\x00\x00\x03"), bytearray(b"\x3f\xf0\x00\x00\x00\x00\x00\x00"), "text", 5, 1.5, None, [1],
]


def _label(x: Any) -> str:
    if isinstance(x, memoryview):
        return f"memoryview({bytes(x)!r})"
    if type(x) is object:
        return "object()"
    return repr(x)


def _each(fn: Any, inputs: list[Any]) -> Any:
    return [[_label(x), outcome(fn, x, None)] for x in inputs]


for _name in ("IntegerSerializer", "DoubleSerializer", "StringSerializer"):
    globals()[f"scenario_{_name}_inputs"] = lambda n=_name: _each(getattr(S, n)(), SERIALIZER_INPUTS)
for _name in ("IntegerDeserializer", "DoubleDeserializer", "StringDeserializer"):
    globals()[f"scenario_{_name}_inputs"] = lambda n=_name: _each(getattr(S, n)(), DESERIALIZER_INPUTS)


def scenario_roundtrips() -> Any:
    ctx = S.SerializationContext("t", S.MessageField.VALUE)
    out = []
    for ser, de, values in [
        (S.IntegerSerializer(), S.IntegerDeserializer(), [0, 1, -1, 2**31 - 1, -(2**31), 123456789]),
        (S.DoubleSerializer(), S.DoubleDeserializer(), [0.0, -0.0, 1.5, 1e-300, 1e300, math.inf, 2]),
        (S.StringSerializer(), S.StringDeserializer(), ["", "x", "é", "日本語", "a\x00b"]),
        (S.StringSerializer("utf_16"), S.StringDeserializer("utf_16"), ["", "x", "é"]),
    ]:
        for v in values:
            out.append(outcome(lambda v=v, ser=ser, de=de: de(ser(v, ctx), ctx)))
            out.append(outcome(lambda v=v, ser=ser: ser(v)))  # without a context
    return out


CODECS = ["utf_8", "utf-8", "UTF8", "latin-1", "ascii", "utf_16", "utf_16_be", "utf_32", "cp1252", "idna",
          "rot13", "base64", "nope", "", None, 5, b"utf8"]


def scenario_string_codecs() -> Any:
    out: dict[str, Any] = {}
    for codec in CODECS:
        key = repr(codec)
        made = outcome(S.StringSerializer, codec)
        made_d = outcome(S.StringDeserializer, codec)
        entry: dict[str, Any] = {"made": made, "made_d": made_d}
        if "ok" in made:
            ser = S.StringSerializer(codec)  # type: ignore[arg-type]
            entry["codec_attr"] = data(ser.codec)
            entry["encode"] = [outcome(ser, v) for v in ("x", "é", "日本", "", "\ud800", None)]
        if "ok" in made_d:
            de = S.StringDeserializer(codec)  # type: ignore[arg-type]
            entry["decode"] = [outcome(de, v) for v in (b"x", b"\xe9", b"\xff\xfe", b"", b"\x00\x00", None)]
        out[key] = entry
    ser = S.StringSerializer()
    ser.codec = "ascii"  # the codec is read on every call
    out["changed"] = [outcome(ser, "x"), outcome(ser, "é")]
    out["keyword"] = outcome(lambda: S.StringSerializer(codec="latin-1")("é"))
    out["keyword_d"] = outcome(lambda: S.StringDeserializer(codec="latin-1")(b"\xe9"))
    out["extra_arg"] = outcome(S.StringSerializer, "utf_8", "strict")
    return out


def scenario_call_arity() -> Any:
    out = {}
    for name in ("IntegerSerializer", "DoubleSerializer", "StringSerializer", "IntegerDeserializer",
                 "DoubleDeserializer", "StringDeserializer"):
        obj = getattr(S, name)()
        out[name] = [outcome(obj), outcome(obj, None, None, None), outcome(lambda o=obj: o(obj=None)),
                     outcome(lambda o=obj: o(None, ctx=None)), outcome(obj, None, 5)]
    return out


def scenario_module_all() -> Any:
    upstream_names = ["Deserializer", "DeserializerBuilder", "IntegerDeserializer", "IntegerSerializer",
                      "DoubleDeserializer", "DoubleSerializer", "StringDeserializer", "StringSerializer",
                      "MessageField", "SerializationContext", "SerializationError", "Serializer",
                      "SerializerBuilder"]
    return {"in_all": [n in S.__all__ for n in upstream_names],
            "star": sorted(n for n in upstream_names if n in vars(S))}
