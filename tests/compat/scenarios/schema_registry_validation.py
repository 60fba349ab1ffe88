"""Inline validation rules (``confluent:rules`` in Avro and JSON Schema, the ``rules`` of the
Protobuf meta options) evaluated by the serializers with ``validation.rules.execution``, the
classes and functions behind them, and the serde bases' configure_* methods, build_serde and the
cluster id resolvers of the associated subject name strategy."""
from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List

from observe import data, outcome, text

AVRO = {"type": "record", "name": "User", "confluent:rules": [
    {"name": "adult", "expr": "this.age >= 18", "doc": "must be an adult"}],
    "fields": [
        {"name": "name", "type": "string",
         "confluent:rules": [{"name": "nonempty", "expr": "size(this) > 0 ? '' : 'name is empty'"}]},
        {"name": "age", "type": "int"},
        {"name": "nick", "type": ["null", "string"], "default": None,
         "confluent:rules": [{"name": "nick", "sql": "nick <> 'x'", "expr": "this != 'x'"}]},
        {"name": "tags", "type": {"type": "array", "items": {
            "type": "record", "name": "Tag", "fields": [
                {"name": "v", "type": "string", "confluent:rules": [{"name": "short", "expr": "size(this) < 4"}]}]}}},
        {"name": "scores", "type": {"type": "map", "values": {"type": "record", "name": "Score", "confluent:rules": [
            {"name": "positive", "expr": "this.s > 0"}], "fields": [{"name": "s", "type": "int"}]}}},
    ]}
JSON = {"title": "User", "type": "object", "confluent:rules": [{"name": "adult", "expr": "this.age >= 18"}],
        "properties": {
            "name": {"type": "string", "confluent:rules": [{"name": "nonempty", "expr": "size(this) > 0"}]},
            "age": {"type": "integer"},
            "n": {"type": ["null", "string"], "confluent:rules": [{"name": "n", "expr": "this != 'x'"}]},
            "tags": {"type": "array", "items": {"$ref": "#/definitions/Tag"}},
            "both": {"allOf": [{"type": "object", "confluent:rules": [{"name": "a", "expr": "has(this.a)"}]},
                               {"properties": {"b": {"type": "integer",
                                                     "confluent:rules": [{"name": "b", "expr": "this < 5"}]}}}]}},
        "definitions": {"Tag": {"type": "object", "properties": {
            "v": {"type": "string", "confluent:rules": [{"name": "short", "expr": "size(this) < 4"}]}}}}}
GOOD_AVRO = {"name": "bo", "age": 20, "nick": None, "tags": [{"v": "a"}], "scores": {"m": {"s": 1}}}
BAD_AVRO = {"name": "", "age": 2, "nick": "x", "tags": [{"v": "a"}, {"v": "abcdef"}], "scores": {"m": {"s": 0}}}
_TYPES: Dict[str, Any] = {}


def _sr(url: str = "mock://validation") -> Any:
    from confluent_kafka.schema_registry import SchemaRegistryClient

    return SchemaRegistryClient.new_client({"url": url})


def _ctx(field: str = "value", topic: str = "users") -> Any:
    from confluent_kafka.serialization import SerializationContext

    return SerializationContext(topic, field)


def _conf(mode: str = "BEFORE_DOMAIN_RULES", **more: Any) -> Dict[str, Any]:
    return {"validation.rules.execution": mode, "subject.name.strategy.type": "TOPIC", **more}


def _proto() -> Dict[str, Any]:
    if _TYPES:
        return _TYPES
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    from confluent_kafka.schema_registry.confluent import meta_pb2

    F = descriptor_pb2.FieldDescriptorProto
    f = descriptor_pb2.FileDescriptorProto(name="val/user.proto", package="val", syntax="proto3",
                                           dependency=["confluent/meta.proto"])
    tag = f.message_type.add(name="Tag")
    fd = tag.field.add(name="v", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    fd.options.Extensions[meta_pb2.field_meta].rules.add(name="short", expr="size(this) < 4")
    user = f.message_type.add(name="User")
    user.options.Extensions[meta_pb2.message_meta].rules.add(name="adult", expr="this.age >= 18", doc="adults")
    fd = user.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    fd.options.Extensions[meta_pb2.field_meta].rules.add(name="nonempty", expr="size(this) > 0 ? '' : 'empty'")
    user.field.add(name="age", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    fd = user.field.add(name="tags", number=3, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED, type_name=".val.Tag")
    fd.options.Extensions[meta_pb2.field_meta].rules.add(name="few", expr="size(this) < 3")
    user.field.add(name="best", number=4, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name=".val.Tag")
    entry = user.nested_type.add(name="LabelsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name=".val.Tag")
    user.field.add(name="labels", number=5, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                   type_name=".val.User.LabelsEntry")
    fd = user.field.add(name="opt", number=6, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, proto3_optional=True,
                        oneof_index=0)
    fd.options.Extensions[meta_pb2.field_meta].rules.add(name="opt", expr="this == 'ok'")
    user.oneof_decl.add(name="_opt")
    pool = descriptor_pool.DescriptorPool()
    from google.protobuf import descriptor_pb2 as d2

    pool.AddSerializedFile(d2.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(meta_pb2.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(f.SerializeToString())
    _TYPES["User"] = message_factory.GetMessageClass(pool.FindMessageTypeByName("val.User"))
    return _TYPES


def _proto_user(good: bool) -> Any:
    user = _proto()["User"](name="bo" if good else "", age=20 if good else 2)
    user.tags.add(v="a")
    if not good:
        user.tags.add(v="abcdef")
        user.tags.add(v="x")
        user.best.v = "zzzzz"
        user.labels["k"].v = "long one"
        user.opt = "no"
    return user


def scenario_avro_validation() -> Any:
    from confluent_kafka.schema_registry.avro import AvroSerializer

    sr = _sr()
    schema = json.dumps(AVRO)
    out: Dict[str, Any] = {}
    for mode in ("BEFORE_DOMAIN_RULES", "AFTER_DOMAIN_RULES"):
        for fail_fast in (False, True):
            ser = AvroSerializer(sr, schema, conf=_conf(mode, **{"validation.rules.fail.fast": fail_fast}))
            out[f"{mode} {fail_fast}"] = {"good": outcome(ser, GOOD_AVRO, _ctx()), "bad": outcome(ser, BAD_AVRO, _ctx()),
                                          "cannot evaluate": outcome(ser, {**GOOD_AVRO, "age": None}, _ctx())}
    out["disabled"] = outcome(AvroSerializer(sr, schema, conf={"subject.name.strategy.type": "TOPIC"}), BAD_AVRO,
                              _ctx())
    return out


def scenario_json_validation() -> Any:
    from confluent_kafka.schema_registry.json_schema import JSONSerializer

    sr = _sr()
    schema = json.dumps(JSON)
    out: Dict[str, Any] = {}
    for fail_fast in (False, True):
        ser = JSONSerializer(schema, sr, conf=_conf(**{"validation.rules.fail.fast": fail_fast}))
        out[str(fail_fast)] = {
            "good": outcome(ser, {"name": "b", "age": 20, "tags": [{"v": "a"}], "both": {"a": 1, "b": 1}}, _ctx()),
            "bad": outcome(ser, {"name": "", "age": 2, "n": "x", "tags": [{"v": "a"}, {"v": "abcd"}],
                                 "both": {"b": 9}}, _ctx()),
            "schema invalid too": outcome(ser, {"name": "", "age": "old"}, _ctx()),
        }
    return out


def scenario_protobuf_validation() -> Any:
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer

    sr = _sr()
    User = _proto()["User"]
    out: Dict[str, Any] = {}
    for fail_fast in (False, True):
        ser = ProtobufSerializer(User, sr, conf=_conf("AFTER_DOMAIN_RULES", **{
            "validation.rules.fail.fast": fail_fast, "use.deprecated.format": False}))
        out[str(fail_fast)] = {"good": outcome(ser, _proto_user(True), _ctx()),
                               "bad": outcome(ser, _proto_user(False), _ctx())}
    return out


def scenario_validation_with_domain_rules() -> Any:
    """With use.latest.version the schema's domain rules run: BEFORE sees the record as given,
    AFTER as the CEL transform left it."""
    from confluent_kafka.schema_registry import Rule, RuleKind, RuleMode, RuleSet, Schema
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor

    CelExecutor.register()
    sr = _sr("mock://validation-domain")
    rule = Rule("grow", None, RuleKind.TRANSFORM, RuleMode.WRITE, "CEL", None, None,
                "{'name': message.name, 'age': message.age + 10, 'nick': message.nick, 'tags': message.tags, "
                "'scores': message.scores}", None, None, False)
    sr.register_schema("users-value", Schema(json.dumps(AVRO), "AVRO", rule_set=RuleSet(None, [rule])))
    out = {}
    teen = {**GOOD_AVRO, "age": 10}
    for mode in ("BEFORE_DOMAIN_RULES", "AFTER_DOMAIN_RULES"):
        ser = AvroSerializer(sr, None, conf=_conf(mode, **{"auto.register.schemas": False,
                                                           "use.latest.version": True}))
        out[mode] = outcome(ser, dict(teen), _ctx())
    return out


def scenario_validation_config() -> Any:
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.schema_registry.serde import ValidationRuleExecutor, ValidationRulesExecution

    class Always(ValidationRuleExecutor):
        def __init__(self, answer: Any) -> None:
            self.answer = answer

        def execute(self, rule: Any, schema: Any, message: Any) -> Any:
            return self.answer

    sr = _sr()
    schema = json.dumps(AVRO)

    def ser(**conf: Any) -> Any:
        return AvroSerializer(sr, schema, conf={"subject.name.strategy.type": "TOPIC", **conf})

    return {
        "bad mode": outcome(ser, **{"validation.rules.execution": "SOMETIMES"}),
        "enum mode": outcome(lambda: type(ser(**{"validation.rules.execution":
                                                 ValidationRulesExecution.AFTER_DOMAIN_RULES})).__name__),
        "bad fail fast": outcome(ser, **{"validation.rules.fail.fast": "yes"}),
        "bad executor": outcome(ser, **{"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                        "validation.rules.executor": object()}),
        "executor ignored when disabled": outcome(lambda: type(ser(**{"validation.rules.executor": 5})).__name__),
        "custom false": outcome(ser(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                       "validation.rules.executor": Always(False)}), GOOD_AVRO, _ctx()),
        "custom text": outcome(ser(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                      "validation.rules.executor": Always("nope")}), GOOD_AVRO, _ctx()),
        "custom empty text": outcome(ser(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                            "validation.rules.executor": Always("")}), GOOD_AVRO, _ctx()),
        "custom number": outcome(ser(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                        "validation.rules.executor": Always(1)}), GOOD_AVRO, _ctx()),
        "deserializer refuses": outcome(AvroDeserializer, sr, conf={"validation.rules.execution": "DISABLED"}),
    }


def scenario_validation_classes() -> Any:
    from confluent_kafka.schema_registry.serde import (VALIDATION_RULES_PROP, RuleError, ValidationRule,
                                                       ValidationRuleError, ValidationRuleExecutor,
                                                       default_validation_rule_executor, evaluate_validation_rule,
                                                       parse_validation_rules)

    rule = ValidationRule("r", "doc", "x > 1", "x > 1 sql")
    bare = ValidationRule(expr="e")

    class Raising(ValidationRuleExecutor):
        def execute(self, rule: Any, schema: Any, message: Any) -> Any:
            raise RuleError("cannot")

    found: List[Any] = []
    evaluate_validation_rule(Raising(), rule, None, 1, "a.b", found)
    return {
        "prop": VALIDATION_RULES_PROP,
        "repr": repr(rule),
        "eq": [rule == ValidationRule("r", "doc", "x > 1", "x > 1 sql"), rule == bare, rule == "r",
               hash(rule) == hash(ValidationRule("r", "doc", "x > 1", "x > 1 sql"))],
        "slots": outcome(setattr, rule, "other", 1),
        "parse": [repr(r) for r in parse_validation_rules([{"name": "a", "expr": "1"}, "junk", {"doc": "d"}])],
        "parse not list": [parse_validation_rules(None), parse_validation_rules({"name": "a"})],
        "errors": [str(ValidationRuleError(rule, "a", "msg")), str(ValidationRuleError(rule)),
                   str(ValidationRuleError(bare, "", None, ValueError("v"))),
                   str(ValidationRuleError(ValidationRule("n", sql="s"))), repr(ValidationRuleError(bare, "p")),
                   str(ValidationRuleError(None)),  # type: ignore[arg-type]
                   ValidationRuleError(rule, "a", "m") == ValidationRuleError(rule, "a", "m", ValueError()),
                   ValidationRuleError(rule, "a") == ValidationRuleError(rule, "b")],
        "raised becomes a failure": [str(e) for e in found],
        "abstract": outcome(ValidationRuleExecutor),
        "default": type(default_validation_rule_executor()).__name__,
        "unexpected type": outcome(evaluate_validation_rule, type("E", (ValidationRuleExecutor,), {
            "execute": lambda self, r, s, m: 3.5})(), bare, None, 1, "", []),
    }


def scenario_cel_validator() -> Any:
    from confluent_kafka.schema_registry.rules.cel.cel_validator import CelValidator
    from confluent_kafka.schema_registry.serde import ValidationRule

    v = CelValidator()

    def run(expr: Any, value: Any, name: Any = "r", doc: Any = None) -> Any:
        try:
            return {"ok": data(v.execute(ValidationRule(name, doc, expr), None, value))}
        except Exception as exc:  # noqa: BLE001
            return {"raises": type(exc).__name__, "str": str(exc), "cause": type(exc.__cause__).__name__}

    return {
        "true": run("this > 1", 5), "false": run("this > 1", 0), "text": run("'bad'", 1), "empty text": run("''", 1),
        "map": run("this.a == 'x' && size(this.l) == 2", {"a": "x", "l": [1, 2]}),
        "bytes": run("this == b'ab'", b"ab"), "bool": run("this", True), "double": run("this > 1.5", 2.0),
        "now": run("now > timestamp('2000-01-01T00:00:00Z')", 1),
        "extra funcs": run("this.isEmail()", "a@b.co"),
        "int result": run("1", 1), "none": run("true", None), "no expr": run(None, 1), "unnamed": run("", 1, None),
        "parse error": run("this >", 1), "eval error": run("this.nope", {"a": 1}, doc="needs nope"),
        "type error": run("this + 'a'", 1),
    }


def scenario_validate_message_functions() -> Any:
    from fastavro.schema import expand_schema, parse_schema
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    from confluent_kafka.schema_registry import avro, json_schema, protobuf
    from confluent_kafka.schema_registry.rules.cel.cel_validator import CelValidator

    v = CelValidator()
    parsed = expand_schema(parse_schema(AVRO))
    registry = Registry()
    resolver = registry.resolver_with_root(Resource.from_contents(JSON, default_specification=DRAFT7))
    desc = _proto()["User"].DESCRIPTOR
    return {
        "avro": [str(e) for e in avro.validate_message(v, parsed, BAD_AVRO)],
        "avro fail fast": [str(e) for e in avro.validate_message(v, parsed, BAD_AVRO, True)],
        "avro nothing": [avro.validate_message(None, parsed, BAD_AVRO), avro.validate_message(v, None, BAD_AVRO),
                         avro.validate_message(v, parsed, None)],
        "json": [str(e) for e in json_schema.validate_message(v, JSON, registry, resolver,
                                                              {"name": "", "age": 1, "tags": [{"v": "abcd"}]})],
        "protobuf": [str(e) for e in protobuf.validate_message(v, desc, _proto_user(False))],
        "protobuf good": protobuf.validate_message(v, desc, _proto_user(True)),
        "protobuf nothing": protobuf.validate_message(v, None, _proto_user(False)),
    }


def scenario_configure_methods() -> Any:
    from confluent_kafka.schema_registry import record_subject_name_strategy
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.schema_registry.serde import AssociatedNameStrategy, SubjectNameStrategyType

    sr = _sr()
    ser = AvroSerializer(sr, json.dumps(AVRO))
    out: Dict[str, Any] = {}

    def step(name: str, fn: Any, *args: Any, **kwargs: Any) -> None:
        out[name] = outcome(fn, *args, **kwargs)
        out[name + " then"] = outcome(ser, GOOD_AVRO, _ctx())

    step("record", ser.configure_subject_name_strategy, subject_name_strategy=record_subject_name_strategy)
    step("type str", ser.configure_subject_name_strategy, "topic_record")
    step("type enum", ser.configure_subject_name_strategy, SubjectNameStrategyType.TOPIC)
    step("callable wins", ser.configure_subject_name_strategy, "RECORD", None,
         lambda ctx, name: "chosen-" + str(name))
    step("bad type", ser.configure_subject_name_strategy, "SOMETHING")
    step("none type", ser.configure_subject_name_strategy, "NONE")
    step("not callable", ser.configure_subject_name_strategy, None, None, "nope")
    step("associated", ser.configure_subject_name_strategy, "ASSOCIATED", {"subject.name.strategy.fallback.type":
                                                                           "RECORD"})
    step("default", ser.configure_subject_name_strategy)
    conf = {"validation.rules.execution": "BEFORE_DOMAIN_RULES", "other": 1}
    step("validation on", ser.configure_validation_rules, conf)
    out["left"] = data(conf)
    step("validation off", ser.configure_validation_rules, {})
    step("validation bad", ser.configure_validation_rules, {"validation.rules.fail.fast": 1})
    out["associated class"] = isinstance(AssociatedNameStrategy(), AssociatedNameStrategy)
    return out


def scenario_cluster_id_resolvers() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AsyncAvroSerializer, AvroSerializer
    from confluent_kafka.schema_registry.serde import AsyncAssociatedNameStrategy, AssociatedNameStrategy

    sr = _sr("mock://resolvers")
    calls: List[Any] = []

    def resolver(answer: Any) -> Any:
        def resolve() -> Any:
            calls.append(answer)
            if isinstance(answer, Exception):
                raise answer
            return answer
        return resolve

    out: Dict[str, Any] = {}
    for name, answer in (("ok", "cluster-1"), ("fails", RuntimeError("no broker")), ("empty", "")):
        ser = AvroSerializer(sr, json.dumps(AVRO))
        ser.set_cluster_id_resolver(resolver(answer))
        out[name] = outcome(ser, GOOD_AVRO, _ctx(topic="r-" + name))
        out[name + " again"] = outcome(ser, GOOD_AVRO, _ctx(topic="r-" + name))
    explicit = AvroSerializer(sr, json.dumps(AVRO), conf={"subject.name.strategy.conf": {
        "subject.name.strategy.kafka.cluster.id": "given"}})
    explicit.set_cluster_id_resolver(resolver("unused"))
    out["configured id"] = outcome(explicit, GOOD_AVRO, _ctx(topic="r-explicit"))
    strategy = AssociatedNameStrategy()
    strategy.set_cluster_id_resolver(resolver(RuntimeError("x")))
    out["strategy"] = outcome(strategy, _ctx(topic="r-s"), None, sr, None)
    out["strategy no client"] = outcome(strategy, _ctx(topic="r-s"), None, None, None)

    async def main() -> Any:
        asr = AsyncSchemaRegistryClient.new_client({"url": "mock://resolvers-async"})
        found: Dict[str, Any] = {}

        async def good() -> str:
            calls.append("async")
            return "cluster-a"

        async def bad() -> str:
            raise RuntimeError("async no broker")

        for name, fn in (("async ok", good), ("async fails", bad)):
            ser = await AsyncAvroSerializer(asr, json.dumps(AVRO))
            ser.set_async_cluster_id_resolver(fn)
            try:
                found[name] = {"ok": data(await ser(GOOD_AVRO, _ctx(topic="a-" + name.replace(" ", "-"))))}
            except Exception as exc:  # noqa: BLE001
                found[name] = {"raises": type(exc).__name__, "str": str(exc)}
        strategy = AsyncAssociatedNameStrategy()
        strategy.set_async_cluster_id_resolver(good)
        found["async strategy"] = await strategy(_ctx(topic="a-s"), None, asr, None)
        found["async strategy class"] = type(ser._subject_name_func if hasattr(ser, "_subject_name_func")
                                             else ser._conf.strategy).__name__
        return found

    out.update(asyncio.run(main()))
    out["calls"] = [data(c) for c in calls]
    return out


def scenario_build_serde_functions() -> Any:
    from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
    from confluent_kafka.schema_registry.avro import AsyncAvroSerializer, AvroSerializer
    from confluent_kafka.schema_registry.serde import async_build_serde, build_serde

    sr = _sr()
    made: List[Any] = []

    def construct(client: Any) -> Any:
        made.append(type(client).__name__)
        return AvroSerializer(client, json.dumps(AVRO))

    def failing(client: Any) -> Any:
        made.append(type(client).__name__)
        raise ValueError("construct failed")

    out = {
        "given client": outcome(lambda: type(build_serde(sr, None, construct)).__name__),
        "from conf": outcome(lambda: type(build_serde(None, {"url": "mock://bs"}, construct)).__name__),
        "neither": outcome(lambda: type(build_serde(None, None, construct)).__name__),
        "both": outcome(build_serde, sr, {"url": "mock://bs"}, construct),
        "construct fails": outcome(build_serde, None, {"url": "mock://bs"}, failing),
        "init": outcome(lambda: type(build_serde(sr, None, construct, lambda s: made.append("init " + type(s).__name__))).__name__),
        "bad conf": outcome(build_serde, None, {"nope": 1}, construct),
    }

    async def main() -> Any:
        asr = AsyncSchemaRegistryClient.new_client({"url": "mock://abs"})

        async def aconstruct(client: Any) -> Any:
            made.append(type(client).__name__)
            return await AsyncAvroSerializer(client, json.dumps(AVRO))

        async def ainit(serde: Any) -> None:
            made.append("ainit " + type(serde).__name__)

        found = {}
        for name, args in (("given", (asr, None, aconstruct, ainit)), ("from conf", (None, {"url": "mock://a"},
                                                                                      aconstruct)),
                           ("both", (asr, {"url": "mock://a"}, aconstruct))):
            try:
                found[name] = {"ok": type(await async_build_serde(*args)).__name__}
            except Exception as exc:  # noqa: BLE001
                found[name] = {"raises": type(exc).__name__, "str": str(exc)}
        return found

    out.update(asyncio.run(main()))
    out["made"] = made
    return out


def scenario_validation_rule_errors_text() -> Any:
    from confluent_kafka.schema_registry.serde import ValidationRule, ValidationRuleError

    return {"text": text(lambda: ValidationRuleError(ValidationRule("a", None, None, None), None, None, None))}
