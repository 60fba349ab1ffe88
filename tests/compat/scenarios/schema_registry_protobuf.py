"""confluent_kafka.schema_registry.protobuf: the Protobuf serializer and deserializer on the mock://
client (message types built from descriptors at run time, the same on both sides), the helpers and
Confluent's own Protobuf types, compared call by call; bytes made by one side are read by the other."""
from __future__ import annotations

import asyncio
from typing import Any, Dict

from observe import data, outcome
from _registry_common import error_kinds, params

_TYPES: Dict[str, Any] = {}


def _types() -> Dict[str, Any]:
    """ex/common.proto (Address) and ex/user.proto (Other, User with a nested Nick), importing it
    and google/protobuf/timestamp.proto; UserV2 adds a field, in a pool of its own."""
    if _TYPES:
        return _TYPES
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, timestamp_pb2

    F = descriptor_pb2.FieldDescriptorProto

    def field(msg: Any, name: str, number: int, kind: int, type_name: str = "") -> None:
        added = msg.field.add(name=name, number=number, type=kind, label=F.LABEL_OPTIONAL)
        if type_name:
            added.type_name = type_name

    for version in (1, 2):
        pool = descriptor_pool.DescriptorPool()
        pool.AddSerializedFile(timestamp_pb2.DESCRIPTOR.serialized_pb)
        common = descriptor_pb2.FileDescriptorProto(name="ex/common.proto", package="ex", syntax="proto3")
        field(common.message_type.add(name="Address"), "city", 1, F.TYPE_STRING)
        pool.AddSerializedFile(common.SerializeToString())
        f = descriptor_pb2.FileDescriptorProto(name="ex/user.proto", package="ex", syntax="proto3",
                                               dependency=["ex/common.proto", "google/protobuf/timestamp.proto"])
        field(f.message_type.add(name="Other"), "x", 1, F.TYPE_INT32)
        user = f.message_type.add(name="User")
        field(user, "name", 1, F.TYPE_STRING)
        field(user, "age", 2, F.TYPE_INT32)
        field(user, "address", 3, F.TYPE_MESSAGE, ".ex.Address")
        field(user, "born", 4, F.TYPE_MESSAGE, ".google.protobuf.Timestamp")
        if version == 2:
            field(user, "email", 5, F.TYPE_STRING)
        field(user.nested_type.add(name="Nick"), "nick", 1, F.TYPE_STRING)
        pool.AddSerializedFile(f.SerializeToString())
        get = lambda n, p=pool: message_factory.GetMessageClass(p.FindMessageTypeByName(n))  # noqa: E731
        if version == 1:
            _TYPES.update(User=get("ex.User"), Other=get("ex.Other"), Nick=get("ex.User.Nick"))
        else:
            _TYPES["UserV2"] = get("ex.User")
    return _TYPES


def _user(name: str = "ann", age: int = 3) -> Any:
    user = _types()["User"](name=name, age=age)
    user.address.city = "Oslo"
    user.born.seconds = 5
    return user


def _sr() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://compat-protobuf", "max.retries": 0})


def _ctx(field: str = "value", topic: str = "users", headers: Any = None) -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, field, headers)


def _ser(sr: Any, msg_type: Any = None, conf: Any = None) -> Any:
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer

    return ProtobufSerializer(msg_type or _types()["User"], sr, conf)


def _de(sr: Any, msg_type: Any = None, conf: Any = None) -> Any:
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer

    return ProtobufDeserializer(msg_type or _types()["User"], conf, sr)


def _shown(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, a message observed as its type and text form."""
    return outcome(lambda: (lambda m: m if m is None else [type(m).__name__, str(m)])(fn(*args)))


def _refs(sr: Any, subject: str) -> Any:
    schema = sr.get_latest_version(subject).schema
    return [schema.schema_type, schema.schema_str, [(r.name, r.subject, r.version) for r in schema.references]]


def scenario_protobuf_serialize() -> Any:
    from confluent_kafka.schema_registry import (header_schema_id_serializer, record_subject_name_strategy,
                                                 topic_record_subject_name_strategy)

    t = _types()
    sr = _sr()
    out = {
        "user": outcome(_ser(sr), _user(), _ctx()),
        "other (index 0)": outcome(_ser(sr, t["Other"]), t["Other"](x=1), _ctx()),
        "nested (indexes 1, 0)": outcome(_ser(sr, t["Nick"]), t["Nick"](nick="z"), _ctx()),
        "empty": outcome(_ser(sr), t["User"](), _ctx()),
        "none": outcome(_ser(sr), None, _ctx()),
        "key": outcome(_ser(sr), _user(), _ctx("key")),
        "subjects": outcome(lambda: sorted(sr.get_subjects())),
        "registered": outcome(_refs, sr, "users-value"),
        "reference": outcome(_refs, sr, "ex/common.proto"),
        "record strategy": outcome(_ser(sr, conf={"subject.name.strategy": record_subject_name_strategy}),
                                   _user(), _ctx()),
        "topic record strategy": outcome(
            _ser(sr, conf={"subject.name.strategy": topic_record_subject_name_strategy}), _user(), _ctx()),
        "known types registered": outcome(_ser(sr, conf={"skip.known.types": False}), _user(), _ctx("value", "kt")),
        "reference strategy": outcome(_ser(sr, conf={"reference.subject.name.strategy":
                                                     lambda ctx, dep: ctx.topic + "/" + dep.name}),
                                      _user(), _ctx("value", "rs")),
        "normalize": outcome(_ser(sr, conf={"normalize.schemas": True}), _user(), _ctx("value", "norm")),
    }
    out["subjects after"] = outcome(lambda: sorted(sr.get_subjects()))
    out["rs refs"] = outcome(lambda: _refs(sr, "rs-value")[2])
    out["kt refs"] = outcome(lambda: _refs(sr, "kt-value")[2])
    _ser(sr, t["UserV2"])(t["UserV2"](name="v2"), _ctx())
    out["latest"] = outcome(_ser(sr, conf={"auto.register.schemas": False, "use.latest.version": True}),
                            _user(), _ctx())
    out["by id"] = outcome(_ser(sr, conf={"auto.register.schemas": False, "use.schema.id": 2}), _user(), _ctx())
    out["lookup present"] = outcome(_ser(sr, conf={"auto.register.schemas": False}), _user(), _ctx())
    out["lookup missing"] = outcome(_ser(sr, conf={"auto.register.schemas": False}), _user(), _ctx("value", "new"))
    out["metadata missing"] = outcome(_ser(sr, conf={"auto.register.schemas": False,
                                                     "use.latest.with.metadata": {"a": "b"}}), _user(), _ctx())
    headers: list = []
    out["header framing"] = [outcome(_ser(sr, t["Nick"], {"schema.id.serializer": header_schema_id_serializer}),
                                     t["Nick"](nick="h"), _ctx(headers=headers)),
                             [h[0] for h in headers], [len(h[1]) for h in headers], [data(h[1][17:]) for h in headers]]
    return out


def scenario_protobuf_configuration() -> Any:
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer

    sr = _sr()
    confs = {
        "auto register str": {"auto.register.schemas": "yes"},
        "latest and auto": {"use.latest.version": True},
        "schema id str": {"use.schema.id": "1"},
        "metadata list": {"use.latest.with.metadata": []},
        "skip known str": {"skip.known.types": "no"},
        "deprecated": {"use.deprecated.format": True},
        "deprecated str": {"use.deprecated.format": "x"},
        "deprecated off": {"use.deprecated.format": False},
        "reference strategy": {"reference.subject.name.strategy": 3},
        "strategy type": {"subject.name.strategy.type": "TOPIC_RECORD"},
        "id serializer": {"schema.id.serializer": None},
        "validate key": {"validate": True},
        "unknown": {"nope": 1},
    }
    out = {name: outcome(lambda c=conf: type(_ser(sr, conf=c)).__name__) for name, conf in confs.items()}
    out["deserializer deprecated"] = outcome(lambda: _de(sr, conf={"use.deprecated.format": True}))
    out["deserializer deprecated str"] = outcome(lambda: _de(sr, conf={"use.deprecated.format": 0}))
    out["deserializer unknown"] = outcome(lambda: _de(sr, conf={"skip.known.types": True}))
    out["deserializer no client"] = outcome(lambda: type(ProtobufDeserializer(_types()["User"])).__name__)
    out["defaults"] = outcome(lambda: sorted(ProtobufSerializer._default_conf))
    out["deserializer defaults"] = outcome(lambda: sorted(ProtobufDeserializer._default_conf))
    return out


def scenario_protobuf_deserialize() -> Any:
    t = _types()
    sr = _sr()
    good = _ser(sr)(_user(), _ctx())
    nick = _ser(sr, t["Nick"])(t["Nick"](nick="n"), _ctx())
    out = {
        "writer schema": _shown(_de(sr), good, _ctx()),
        "none": _shown(_de(sr), None, _ctx()),
        "later version": _shown(_de(sr, t["UserV2"]), good, _ctx()),
        "no client": _shown(_de(None), good, _ctx()),
        "no ctx": _shown(_de(sr), good, None),
        "nested": _shown(_de(sr, t["Nick"]), nick, _ctx()),
        "record strategy": _shown(_de(sr, conf={"subject.name.strategy.type": "RECORD"}), good, _ctx()),
        "another type, same bytes": _shown(_de(sr, t["Other"]), nick, _ctx()),
    }
    _ser(sr, t["UserV2"])(t["UserV2"](name="v2"), _ctx())
    out["latest"] = _shown(_de(sr, conf={"use.latest.version": True}), good, _ctx())
    return out


def scenario_protobuf_bad_input() -> Any:
    """Where our errors name what failed (deliberate: the text, see deliberate.py)."""
    t = _types()
    sr = _sr()
    good = _ser(sr)(_user(), _ctx())
    de = _de(sr)
    return {
        "wrong message type": outcome(_ser(sr), t["Other"](x=1), _ctx()),
        "no ctx": outcome(_ser(sr), _user(), None),
        "bad magic": outcome(de, b"\x07" + good[1:], _ctx()),
        "short": outcome(de, b"\x00\x00\x01", _ctx()),
        "indexes cut": outcome(de, good[:5] + b"\x04\x02", _ctx()),
        "unknown id": outcome(de, b"\x00\x00\x00\x00\x09" + good[5:], _ctx()),
        "index out of range": outcome(de, good[:5] + b"\x02\x0a" + good[7:], _ctx()),
        "nested out of range": outcome(de, good[:5] + b"\x04\x02\x04" + good[7:], _ctx()),
        "truncated": outcome(de, good[:-3], _ctx()),
        "no client, truncated": outcome(_de(None), good[:-3], _ctx()),
    }


def scenario_protobuf_bad_input_types() -> Any:
    """The same bad input as scenario_protobuf_bad_input: caught by the same handlers as upstream's."""
    t = _types()
    sr = _sr()
    good = _ser(sr)(_user(), _ctx())
    de = _de(sr)
    return {
        "wrong message type": error_kinds(_ser(sr), t["Other"](x=1), _ctx()),
        "bad magic": error_kinds(de, b"\x07" + good[1:], _ctx()),
        "short": error_kinds(de, b"\x00\x00\x01", _ctx()),
        "indexes cut": error_kinds(de, good[:5] + b"\x04\x02", _ctx()),
        "unknown id": error_kinds(de, b"\x00\x00\x00\x00\x09" + good[5:], _ctx()),
        "index out of range": error_kinds(de, good[:5] + b"\x02\x0a" + good[7:], _ctx()),
        "truncated": error_kinds(de, good[:-3], _ctx()),
        "no client, truncated": error_kinds(_de(None), good[:-3], _ctx()),
    }


def scenario_protobuf_helpers() -> Any:
    import base64
    from decimal import Decimal

    from confluent_kafka.schema_registry import protobuf as p
    from confluent_kafka.schema_registry.common import protobuf as cp

    t = _types()
    fd = t["User"].DESCRIPTOR.file
    dec = [cp.decimal_to_protobuf(Decimal(v), s) for v, s in (("1.5", 3), ("-0.25", 2), ("0", 4), ("1E+3", 0),
                                                               ("12345678901234567890.5", 1))]
    return {
        "index arrays": outcome(lambda: [cp._create_index_array(t[n].DESCRIPTOR) for n in ("User", "Other", "Nick")]),
        "schema str": outcome(lambda: cp._schema_to_str(fd) == base64.b64encode(fd.serialized_pb).decode()),
        "proto str": outcome(lambda: cp._proto_to_str(cp._str_to_proto("n", cp._schema_to_str(fd)))),
        "str to proto name": outcome(lambda: cp._str_to_proto("n", cp._schema_to_str(fd)).name),
        "builtin": outcome(lambda: [cp._is_builtin(n) for n in ("confluent/meta.proto", "google/type/date.proto",
                                                                "google/protobuf/any.proto", "ex/user.proto")]),
        "bytes": outcome(cp._bytes, 7),
        "repeated": outcome(lambda: [cp._is_repeated(f) for f in t["User"].DESCRIPTOR.fields]),
        "map field": outcome(lambda: [cp.is_map_field(f) for f in t["User"].DESCRIPTOR.fields]),
        "tags": outcome(lambda: sorted(cp.get_inline_tags(t["User"].DESCRIPTOR.fields[0]))),
        "decimals": outcome(lambda: [(d.value, d.precision, d.scale) for d in dec]),
        "decimals back": outcome(lambda: [str(cp.protobuf_to_decimal(d)) for d in dec]),
        "decimal narrowing": outcome(cp.decimal_to_protobuf, Decimal("1.55"), 1),
        "decimal exact narrowing": outcome(lambda: cp.decimal_to_protobuf(Decimal("1.50"), 1).value),
        "module names": outcome(lambda: sorted(n for n in ("ProtobufSerializer", "ProtobufDeserializer",
                                                           "AsyncProtobufSerializer", "AsyncProtobufDeserializer",
                                                           "decimal_to_protobuf", "protobuf_to_decimal",
                                                           "_create_index_array", "_schema_to_str") if hasattr(p, n))),
        "type": outcome(lambda: cp.PROTOBUF_TYPE),
    }


def scenario_confluent_types() -> Any:
    from decimal import Decimal

    from confluent_kafka.schema_registry.confluent import meta_pb2
    from confluent_kafka.schema_registry.confluent.type import decimal_pb2, decimal_utils, variant_pb2
    from confluent_kafka.schema_registry.confluent.types import decimal_pb2 as legacy

    meta = meta_pb2.Meta(doc="d", tags=["PII"], params={"k": "v"}, rules=[meta_pb2.Rule(name="r", expr="e")])
    exact = [decimal_utils.to_proto_decimal(Decimal(v)) for v in ("1.50", "-0.001", "1E+3", "0", "-128", "255.5")]
    return {
        "descriptors": outcome(lambda: [m.DESCRIPTOR.serialized_pb for m in (meta_pb2, decimal_pb2, variant_pb2,
                                                                             legacy)]),
        "names": outcome(lambda: [m.DESCRIPTOR.name for m in (meta_pb2, decimal_pb2, variant_pb2, legacy)]),
        "meta bytes": outcome(meta.SerializeToString),
        "meta text": outcome(lambda: str(meta)),
        "extension numbers": outcome(lambda: [meta_pb2.FIELD_META_FIELD_NUMBER, meta_pb2.file_meta.number,
                                              meta_pb2.message_meta.full_name, meta_pb2.field_meta.containing_type.full_name]),
        "legacy decimal": outcome(lambda: legacy.Decimal is decimal_pb2.Decimal),
        "variant": outcome(lambda: variant_pb2.Variant(metadata=b"\x01", value=b"\x02").SerializeToString()),
        "to proto": outcome(lambda: [(d.value, d.precision, d.scale) for d in exact]),
        "from proto": outcome(lambda: [str(decimal_utils.from_proto_decimal(d)) for d in exact]),
        "unscaled": outcome(lambda: [decimal_utils.unscaled_to_bytes(n) for n in (0, 1, -1, 127, 128, -128, -129,
                                                                                   2 ** 63, -2 ** 63)]),
        "non finite": outcome(decimal_utils.to_proto_decimal, Decimal("NaN")),
    }


def scenario_async_protobuf() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.protobuf import AsyncProtobufDeserializer, AsyncProtobufSerializer

    async def run() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://compat-protobuf"})
        ser = await AsyncProtobufSerializer(_types()["User"], sr)
        de = await AsyncProtobufDeserializer(_types()["User"], None, sr)
        framed = await ser(_user(), _ctx())
        return {"bytes": data(framed), "back": str(await de(framed, _ctx())), "subjects": sorted(await sr.get_subjects()),
                "type": type(ser).__name__}

    return outcome(lambda: asyncio.run(run()))


# -- bytes made by one side, read by the other ---------------------------------------------------

def _messages() -> Any:
    t = _types()
    return [("User", _user()), ("User", _user("ünï", -1)), ("Other", t["Other"](x=-5)), ("Nick", t["Nick"](nick="n")),
            ("User", t["User"]())]


def dump_protobuf_bytes() -> Any:
    sr = _sr()
    return [data(_ser(sr, _types()[name])(msg, _ctx())) for name, msg in _messages()]


def crossed_protobuf_bytes(given: Any) -> Any:
    import base64

    sr = _sr()
    for name, msg in _messages():  # the same registry state on both sides
        _ser(sr, _types()[name])(msg, _ctx())
    names = [name for name, _ in _messages()]
    return {side: [_shown(_de(sr, _types()[name]), base64.b64decode(d["bytes"]), _ctx())
                   for name, d in zip(names, dumped)]
            for side, dumped in given.items()}


def scenario_protobuf_signatures() -> Any:
    from confluent_kafka.schema_registry import protobuf as m
    from confluent_kafka.schema_registry.confluent.type import decimal_utils

    names = ["ProtobufSerializer", "ProtobufDeserializer", "AsyncProtobufSerializer", "AsyncProtobufDeserializer"]
    out: Any = {n: [params(getattr(m, n).__init__), params(getattr(m, n).__call__)] for n in names}
    for n in ["_resolve_named_schema", "_create_index_array", "_schema_to_str", "_proto_to_str", "_str_to_proto",
              "_init_pool", "is_map_field", "get_inline_tags", "_is_builtin", "decimal_to_protobuf",
              "protobuf_to_decimal", "_bytes", "_is_repeated"]:
        out[n] = params(getattr(m, n))
    for n in ["from_proto_decimal", "to_proto_decimal", "unscaled_to_bytes"]:
        out["decimal_utils." + n] = params(getattr(decimal_utils, n))
    out["bases"] = outcome(lambda: [issubclass(m.ProtobufDeserializer, __import__(
        "confluent_kafka.serialization", fromlist=["Deserializer"]).Deserializer)])
    return out
