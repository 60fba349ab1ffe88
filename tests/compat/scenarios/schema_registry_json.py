"""confluent_kafka.schema_registry.json_schema: the JSON Schema serializer and deserializer on the
mock:// client, compared call by call; bytes made by one side are read by the other."""
from __future__ import annotations

import asyncio
import json
from typing import Any

from observe import data, outcome
from _registry_common import error_kinds, params

USER = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string"}, "age": {"type": "integer", "minimum": 0},
    "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["name"]})
USER_V2 = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string"}, "age": {"type": "integer"}, "email": {"type": "string", "default": "x"}},
    "required": ["name"]})
ADDRESS = json.dumps({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
PERSON = json.dumps({"title": "Person", "type": "object", "properties": {"home": {"$ref": "address.json"}}})


def _sr() -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": "mock://compat-json", "max.retries": 0})


def _ctx(field: str = "value", topic: str = "users", headers: Any = None) -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, field, headers)


def _ser(sr: Any, schema: Any = USER, **kwargs: Any) -> Any:
    from confluent_kafka.schema_registry.json_schema import JSONSerializer

    return JSONSerializer(schema, sr, **kwargs)


def _de(sr: Any, schema: Any = None, **kwargs: Any) -> Any:
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer

    return JSONDeserializer(schema, schema_registry_client=sr, **kwargs)


def scenario_json_serialize() -> Any:
    from confluent_kafka.schema_registry import (Schema, header_schema_id_serializer, record_subject_name_strategy,
                                                 topic_record_subject_name_strategy)

    sr = _sr()
    ser = _ser(sr)
    out = {
        "record": outcome(ser, {"name": "ann", "age": 30, "tags": ["a", "ü"]}, _ctx()),
        "floats and nesting": outcome(ser, {"name": "x", "extra": {"f": 1.5, "big": 2 ** 63 - 1, "n": None,
                                                                   "t": True}}, _ctx()),
        "none": outcome(ser, None, _ctx()),
        "key": outcome(_ser(sr, '{"type":"string"}'), "k", _ctx("key")),
        "boolean schema": outcome(_ser(sr, "true"), [1, "a"], _ctx("key", "anything")),
        "subjects": outcome(lambda: sorted(sr.get_subjects())),
        "record strategy no ctx": outcome(_ser(sr, conf={"subject.name.strategy": record_subject_name_strategy}),
                                          {"name": "a"}, None),
        "topic record strategy": outcome(
            _ser(sr, conf={"subject.name.strategy": topic_record_subject_name_strategy}), {"name": "a"}, _ctx()),
        "topic strategy no ctx": outcome(_ser(sr, conf={"subject.name.strategy.type": "TOPIC"}), {"name": "a"}, None),
        "associated no ctx": outcome(_ser(sr), {"name": "a"}, None),
        "to_dict": outcome(_ser(sr, to_dict=lambda o, c: {"name": o}), "bo", _ctx()),
        "to_dict no ctx": outcome(_ser(sr, to_dict=lambda o, c: {"name": o},
                                       conf={"subject.name.strategy.type": "RECORD"}), "bo", None),
        "json_encode": outcome(_ser(sr, json_encode=lambda v: json.dumps(v, sort_keys=True)), {"name": "b", "age": 1},
                               _ctx()),
        "json_encode bytes": outcome(_ser(sr, json_encode=lambda v: b"{}"), {"name": "b"}, _ctx()),
        "validate off": outcome(_ser(sr, conf={"validate": False}), {"name": 5}, _ctx()),
        "normalize": outcome(_ser(sr, conf={"normalize.schemas": True}), {"name": "n"}, _ctx("value", "norm")),
    }
    sr.register_schema("users-value", Schema(USER_V2, "JSON"))
    out["latest"] = outcome(_ser(sr, conf={"auto.register.schemas": False, "use.latest.version": True}),
                            {"name": "a", "email": "e"}, _ctx())
    out["by id"] = outcome(_ser(sr, conf={"auto.register.schemas": False, "use.schema.id": 1}), {"name": "a"}, _ctx())
    out["lookup only, missing"] = outcome(_ser(sr, '{"type":"integer"}', conf={"auto.register.schemas": False}), 5,
                                          _ctx())
    out["lookup only, present"] = outcome(_ser(sr, conf={"auto.register.schemas": False}), {"name": "q"}, _ctx())
    headers: list = []
    out["header framing"] = [outcome(_ser(sr, conf={"schema.id.serializer": header_schema_id_serializer}),
                                     {"name": "a"}, _ctx(headers=headers)),
                             [h[0] for h in headers], [len(h[1]) for h in headers]]
    out["header framing no headers"] = outcome(_ser(sr, conf={"schema.id.serializer": header_schema_id_serializer}),
                                               {"name": "a"}, _ctx())
    out["subjects after"] = outcome(lambda: sorted(sr.get_subjects()))
    out["latest schema"] = outcome(lambda: [sr.get_latest_version("users-value").schema.schema_type,
                                            sr.get_latest_version("users-value").version])
    return out


def scenario_json_configuration() -> Any:
    from confluent_kafka.schema_registry import Schema, SchemaReference
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer

    sr = _sr()
    confs = {
        "auto register str": {"auto.register.schemas": "yes"},
        "normalize str": {"normalize.schemas": 1},
        "latest and auto": {"use.latest.version": True},
        "schema id str": {"use.schema.id": "1"},
        "metadata list": {"use.latest.with.metadata": []},
        "strategy not callable": {"subject.name.strategy": 3},
        "strategy type none": {"subject.name.strategy.type": "NONE"},
        "strategy type record": {"subject.name.strategy.type": "record"},
        "id serializer": {"schema.id.serializer": 1},
        "validate str": {"validate": "x"},
        "avro strict key": {"validate.strict": True},
        "unknown": {"nope": 1},
    }
    out = {name: outcome(lambda c=conf: type(_ser(sr, conf=c)).__name__) for name, conf in confs.items()}
    out["to_dict not callable"] = outcome(lambda: _ser(sr, to_dict=5))
    out["not json"] = outcome(lambda: _ser(sr, "{nope"))
    out["no schema"] = outcome(lambda: type(_ser(sr, None)).__name__)
    out["deserializer unknown"] = outcome(JSONDeserializer, None, None, sr, {"auto.register.schemas": True})
    out["deserializer validate"] = outcome(JSONDeserializer, None, None, sr, {"validate": 0})
    out["deserializer schema type"] = outcome(JSONDeserializer, 5, None, sr)
    out["deserializer nothing"] = outcome(JSONDeserializer, None)
    out["deserializer refs no client"] = outcome(JSONDeserializer, Schema(USER, "JSON",
                                                                          [SchemaReference("a", "a", 1)]))
    out["deserializer from_dict"] = outcome(JSONDeserializer, USER, 5)
    out["deserializer str no client"] = outcome(lambda: type(JSONDeserializer(USER)).__name__)
    out["defaults"] = outcome(lambda: sorted(_ser(sr)._default_conf))
    out["deserializer defaults"] = outcome(lambda: sorted(JSONDeserializer(USER)._default_conf))
    return out


def scenario_json_deserialize() -> Any:
    from confluent_kafka.schema_registry import Schema

    sr = _sr()
    good = _ser(sr)({"name": "ann", "age": 30}, _ctx())
    de = _de(sr)
    out = {
        "writer schema": outcome(de, good, _ctx()),
        "none": outcome(de, None, _ctx()),
        "reader schema": outcome(_de(sr, USER_V2), good, _ctx()),
        "from_dict": outcome(_de(sr, from_dict=lambda d, c: sorted(d)), good, _ctx()),
        "from_dict no ctx": outcome(_de(sr, from_dict=lambda d, c: d,
                                        conf={"subject.name.strategy.type": "TOPIC"}), good, None),
        "associated no ctx": outcome(de, good, None),
        "record strategy no ctx": outcome(_de(sr, conf={"subject.name.strategy.type": "RECORD"}), good, None),
        "json_decode": outcome(_de(sr, json_decode=lambda b: {"raw": b.decode()}, conf={"validate": False}), good,
                               _ctx()),
        "no client": outcome(_de(None, USER), good, _ctx()),
        "validate off": outcome(_de(sr, conf={"validate": False}), good[:5] + b'{"name":5}', _ctx()),
        "extra fields": outcome(de, good[:5] + b'{"name":"a","zzz":[1,2]}', _ctx()),
    }
    sr.register_schema("users-value", Schema(USER_V2, "JSON"))
    out["latest reader"] = outcome(_de(sr, conf={"use.latest.version": True}), good, _ctx())
    return out


def scenario_json_references() -> Any:
    from confluent_kafka.schema_registry import Schema, SchemaReference
    from confluent_kafka.schema_registry.json_schema import _resolve_named_schema

    sr = _sr()
    out = {"address id": outcome(sr.register_schema, "address", Schema(ADDRESS, "JSON"))}
    person = Schema(PERSON, "JSON", [SchemaReference("address.json", "address", 1)])
    ser = _ser(sr, person)
    framed = ser({"home": {"city": "Oslo"}}, _ctx())
    out["bytes"] = data(framed)
    out["back"] = outcome(_de(sr), framed, _ctx())
    out["reader given"] = outcome(_de(sr, person), framed, _ctx())
    out["registered refs"] = outcome(lambda: [(r.name, r.subject, r.version) for r in
                                              sr.get_latest_version("users-value").schema.references])
    out["resolved"] = outcome(lambda: _resolve_named_schema(person, sr).contents("address.json"))
    out["missing ref"] = outcome(lambda: _ser(sr, Schema(PERSON, "JSON", [SchemaReference("a", "nope", 1)])))
    return out


def scenario_json_bad_input() -> Any:
    """Where our errors name what failed (deliberate: the text, see deliberate.py)."""
    from confluent_kafka.schema_registry import Schema

    sr = _sr()
    ser = _ser(sr)
    good = ser({"name": "ann"}, _ctx())
    de = _de(sr)
    out = {
        "missing field": outcome(ser, {"age": 1}, _ctx()),
        "wrong type": outcome(ser, {"name": 1}, _ctx()),
        "nested": outcome(ser, {"name": "a", "tags": ["x", 3]}, _ctx()),
        "minimum": outcome(ser, {"name": "a", "age": -1}, _ctx()),
        "not encodable": outcome(_ser(sr, conf={"validate": False}), {"name": {1}}, _ctx()),
        # json encodes it; orjson (used when installed) refuses an int past 64 bits.
        "int past 64 bits": outcome(ser, {"name": "x", "extra": {"big": 10 ** 20}}, _ctx()),
        "bad magic": outcome(de, b"\x07" + good[1:], _ctx()),
        "short": outcome(de, b"\x00\x00", _ctx()),
        "unknown id": outcome(de, b"\x00\x00\x00\x00\x09" + good[5:], _ctx()),
        "truncated": outcome(de, good[:-1], _ctx()),
        "invalid on read": outcome(de, good[:5] + b'{"name":5}', _ctx()),
        "no schema to register": outcome(lambda: _ser(sr, None)({"a": 1}, _ctx("value", "other"))),
    }
    sr.register_schema("users-value", Schema(USER_V2, "JSON"))
    out["latest reader invalid"] = outcome(_de(sr, conf={"use.latest.version": True}), good[:5] + b'{"age":"x"}',
                                           _ctx())
    return out


def scenario_json_bad_input_types() -> Any:
    """The same bad input as scenario_json_bad_input: caught by the same handlers as upstream's."""
    sr = _sr()
    ser = _ser(sr)
    good = ser({"name": "ann"}, _ctx())
    de = _de(sr)
    return {
        "wrong type": error_kinds(ser, {"name": 1}, _ctx()),
        "not encodable": error_kinds(_ser(sr, conf={"validate": False}), {"name": {1}}, _ctx()),
        "bad magic": error_kinds(de, b"\x07" + good[1:], _ctx()),
        "short": error_kinds(de, b"\x00\x00", _ctx()),
        "unknown id": error_kinds(de, b"\x00\x00\x00\x00\x09" + good[5:], _ctx()),
        "truncated": error_kinds(de, good[:-1], _ctx()),
        "not json": error_kinds(de, good[:5] + b"\xff{", _ctx()),
        "invalid on read": error_kinds(de, good[:5] + b'{"name":5}', _ctx()),
    }


def scenario_json_helpers() -> Any:
    from confluent_kafka.schema_registry import json_schema
    from confluent_kafka.schema_registry.common.json_schema import _disjoint, get_inline_tags

    return {
        "dumps": outcome(json_schema._json_dumps, {"a": [1, 2.5, None, "é", True]}),
        "loads": outcome(json_schema._json_loads, b'{"a":[1,2.5]}'),
        "tags": outcome(get_inline_tags, {"confluent:tags": ["PII", "X"]}),
        "no tags": outcome(get_inline_tags, {}),
        "disjoint": outcome(lambda: [_disjoint({"a"}, {"b"}), _disjoint({"a"}, {"a", "b"})]),
        "spec": outcome(lambda: json_schema.DEFAULT_SPEC.id_of({"$id": "x"})),
        "private uri": outcome(json_schema._retrieve_via_httpx, "http://127.0.0.1:1/s.json"),
        "file uri": outcome(json_schema._retrieve_via_httpx, "file:///etc/passwd"),
    }


def scenario_async_json() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.json_schema import AsyncJSONDeserializer, AsyncJSONSerializer

    async def run() -> Any:
        sr = AsyncSchemaRegistryClient.new_client({"url": "mock://compat-json"})
        ser = await AsyncJSONSerializer(USER, sr)
        de = await AsyncJSONDeserializer(None, schema_registry_client=sr)
        framed = await ser({"name": "a", "age": 1}, _ctx())
        return {"bytes": data(framed), "back": await de(framed, _ctx()), "subjects": await sr.get_subjects(),
                "type": type(ser).__name__}

    return outcome(lambda: asyncio.run(run()))


# -- bytes made by one side, read by the other ---------------------------------------------------

RECORDS = [{"name": "ann", "age": 30}, {"name": "", "tags": []}, {"name": "ünï \"q\" \\ \n", "age": 2 ** 40},
           {"name": "f", "extra": [1.0, 1e-7, 123456789.125, -0.0]}]


def dump_json_bytes() -> Any:
    sr = _sr()
    ser = _ser(sr)
    return [data(ser(r, _ctx())) for r in RECORDS]


def crossed_json_bytes(given: Any) -> Any:
    import base64

    sr = _sr()
    _ser(sr)(RECORDS[0], _ctx())  # the same registry state: USER is id 1
    de = _de(sr)
    return {side: [outcome(de, base64.b64decode(d["bytes"]), _ctx()) for d in dumped]
            for side, dumped in given.items()}


def scenario_json_signatures() -> Any:
    from confluent_kafka.schema_registry import json_schema as m
    from confluent_kafka.schema_registry.common import json_schema as c

    names = ["JSONSerializer", "JSONDeserializer", "AsyncJSONSerializer", "AsyncJSONDeserializer"]
    out: Any = {n: [params(getattr(m, n).__init__), params(getattr(m, n).__call__)] for n in names}
    for n in ["_resolve_named_schema", "_json_dumps", "_json_loads", "_retrieve_via_httpx", "get_inline_tags"]:
        out[n] = params(getattr(m, n))
    for n in ["_guard_external_uri", "_is_blocked_ip", "_disjoint"]:
        out["common." + n] = params(getattr(c, n))
    out["blocked"] = outcome(lambda: [c._is_blocked_ip(__import__("ipaddress").ip_address(a))
                                      for a in ("127.0.0.1", "10.1.2.3", "8.8.8.8", "::ffff:127.0.0.1", "::1")])
    out["bases"] = outcome(lambda: [issubclass(m.JSONSerializer, __import__(
        "confluent_kafka.serialization", fromlist=["Serializer"]).Serializer)])
    return out
