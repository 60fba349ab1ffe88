"""Data-contract rules on the ``mock://`` registry, for each format (Avro, JSON Schema, Protobuf),
sync and async: CEL and CEL_FIELD conditions and transforms, rule modes, actions (NONE, ERROR,
DLQ), overrides, ``disabled`` and ``enableAt``, field tags (inline and metadata), JSONata
migrations between versions, encoding-phase rules, and the rule registry."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Dict, List, Optional

import pytest

pytest.importorskip("celpy", reason="the rules extra is not installed")
pytest.importorskip("jsonata", reason="the rules extra is not installed")
pytest.importorskip("fastavro", reason="the avro extra is not installed")

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory  # noqa: E402

from confluent_kafka.schema_registry import (  # noqa: E402
    AsyncSchemaRegistryClient,
    Metadata,
    MetadataProperties,
    MetadataTags,
    Rule,
    RuleKind,
    RuleMode,
    RuleParams,
    RuleSet,
    Schema,
    SchemaReference,
    SchemaRegistryClient,
)
from confluent_kafka.schema_registry.avro import (  # noqa: E402
    AsyncAvroDeserializer,
    AsyncAvroSerializer,
    AvroDeserializer,
    AvroSerializer,
)
from confluent_kafka.schema_registry.confluent import meta_pb2  # noqa: E402
from confluent_kafka.schema_registry.json_schema import (  # noqa: E402
    AsyncJSONDeserializer,
    AsyncJSONSerializer,
    JSONDeserializer,
    JSONSerializer,
)
from confluent_kafka.schema_registry.protobuf import (  # noqa: E402
    AsyncProtobufDeserializer,
    AsyncProtobufSerializer,
    ProtobufDeserializer,
    ProtobufSerializer,
    _schema_to_str,
)
from confluent_kafka.schema_registry.rule_registry import RuleOverride, RuleRegistry  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.cel_field_executor import CelFieldExecutor  # noqa: E402
from confluent_kafka.schema_registry.rules.dlq.dlq_action import DlqAction  # noqa: E402
from confluent_kafka.schema_registry.rules.jsonata.jsonata_executor import JsonataExecutor  # noqa: E402
from confluent_kafka.schema_registry.serde import (  # noqa: E402
    FieldRuleExecutor,
    RuleConditionError,
    RuleError,
    RuleExecutor,
    get_original_key,
)
from confluent_kafka.schema_registry.wildcard_matcher import wildcard_match  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402

AVRO_USER = json.dumps({"type": "record", "name": "User", "namespace": "ex", "fields": [
    {"name": "name", "type": "string", "confluent:tags": ["PII"]}, {"name": "age", "type": "int"},
    {"name": "email", "type": ["null", "string"], "default": None}]})
JSON_USER = json.dumps({"title": "User", "type": "object", "properties": {
    "name": {"type": "string", "confluent:tags": ["PII"]}, "age": {"type": "integer"},
    "email": {"type": ["null", "string"]}}})


def _person_class() -> Any:
    """ex.Person {string name = 1 [(confluent.field_meta).tags = "PII"]; int32 age = 2;
    string email = 3}, importing confluent/meta.proto."""
    F = descriptor_pb2.FieldDescriptorProto
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(descriptor_pb2.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(meta_pb2.DESCRIPTOR.serialized_pb)
    f = descriptor_pb2.FileDescriptorProto(name="ut/person.proto", package="ex", syntax="proto3",
                                           dependency=["confluent/meta.proto"])
    msg = f.message_type.add(name="Person")
    name = msg.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    name.options.Extensions[meta_pb2.field_meta].tags.append("PII")
    msg.field.add(name="age", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    msg.field.add(name="email", number=3, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    pool.AddSerializedFile(f.SerializeToString())
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("ex.Person"))


Person = _person_class()


def ctx(topic: str = "t", field: str = MessageField.VALUE, headers: Any = None) -> SerializationContext:
    return SerializationContext(topic, field, headers)


def rule(name: str, kind: str, mode: str, type_: Optional[str], expr: Optional[str] = None,
         tags: Optional[List[str]] = None, params: Optional[Dict[str, str]] = None, on_success: Optional[str] = None,
         on_failure: Optional[str] = None, disabled: Optional[bool] = None, doc: Optional[str] = None) -> Rule:
    return Rule(name, doc, RuleKind(kind), RuleMode(mode), type_, tags, RuleParams(params) if params else None, expr,
                on_success, on_failure, disabled)


def registry(*extra: Any) -> RuleRegistry:
    reg = RuleRegistry()
    for executor in (CelExecutor(), CelFieldExecutor(), JsonataExecutor()):
        reg.register_executor(executor)
    for thing in extra:
        if isinstance(thing, RuleOverride):
            reg.register_override(thing)
        elif isinstance(thing, RuleExecutor):
            reg.register_executor(thing)
        else:
            reg.register_action(thing)
    return reg


class Side:
    """One format, sync or async: registers schemas with rules and runs serdes on them."""

    def __init__(self, fmt: str, kind: str) -> None:
        self.fmt, self.kind = fmt, kind
        self.loop = asyncio.new_event_loop()
        self.client = (SchemaRegistryClient if kind == "sync" else AsyncSchemaRegistryClient).new_client(
            {"url": f"mock://rules-{fmt}-{kind}"})
        self._meta_version: Optional[int] = None

    def run(self, value: Any) -> Any:
        return self.loop.run_until_complete(value) if asyncio.iscoroutine(value) else value

    def text(self) -> str:
        return {"avro": AVRO_USER, "json": JSON_USER}.get(self.fmt) or _schema_to_str(Person.DESCRIPTOR.file)

    def register(self, subject: str, domain: Optional[List[Rule]] = None, migration: Optional[List[Rule]] = None,
                 metadata: Optional[Metadata] = None, enable_at: Optional[str] = None, text: Optional[str] = None,
                 encoding: Optional[List[Rule]] = None) -> int:
        refs = []
        if self.fmt == "protobuf":
            if self._meta_version is None:
                meta = Schema(_schema_to_str(meta_pb2.DESCRIPTOR), "PROTOBUF")
                self.run(self.client.register_schema("confluent/meta.proto", meta))
                self._meta_version = 1
            refs = [SchemaReference("confluent/meta.proto", "confluent/meta.proto", self._meta_version)]
        rule_set = RuleSet(migration, domain, encoding, enable_at) if (domain or migration or encoding) else None
        schema = Schema(text or self.text(), self.fmt.upper(), refs, metadata, rule_set)
        return int(self.run(self.client.register_schema(subject, schema)))

    def serializer(self, reg: Optional[RuleRegistry] = None, conf: Optional[Dict[str, Any]] = None,
                   rule_conf: Optional[Dict[str, Any]] = None) -> Callable[..., Any]:
        c = {"auto.register.schemas": False, "use.latest.version": True}
        c.update(conf or {})
        sync = self.kind == "sync"
        if self.fmt == "avro":
            made = (AvroSerializer if sync else AsyncAvroSerializer)(self.client, None, conf=c, rule_registry=reg,
                                                                    rule_conf=rule_conf)
        elif self.fmt == "json":
            made = (JSONSerializer if sync else AsyncJSONSerializer)(None, self.client, conf=c, rule_registry=reg,
                                                                    rule_conf=rule_conf)
        else:
            made = (ProtobufSerializer if sync else AsyncProtobufSerializer)(
                Person, self.client, conf=dict(c, **{"use.deprecated.format": False}), rule_registry=reg,
                rule_conf=rule_conf)
        made = self.run(made)
        return lambda obj, c=None: self.run(made(self.record(obj), c or ctx()))

    def deserializer(self, reg: Optional[RuleRegistry] = None, conf: Optional[Dict[str, Any]] = None,
                     rule_conf: Optional[Dict[str, Any]] = None) -> Callable[..., Any]:
        sync = self.kind == "sync"
        if self.fmt == "avro":
            made = (AvroDeserializer if sync else AsyncAvroDeserializer)(self.client, conf=conf, rule_registry=reg,
                                                                        rule_conf=rule_conf)
        elif self.fmt == "json":
            made = (JSONDeserializer if sync else AsyncJSONDeserializer)(None, schema_registry_client=self.client,
                                                                        conf=conf, rule_registry=reg,
                                                                        rule_conf=rule_conf)
        else:
            made = (ProtobufDeserializer if sync else AsyncProtobufDeserializer)(
                Person, dict(conf or {}, **{"use.deprecated.format": False}), self.client, rule_registry=reg,
                rule_conf=rule_conf)
        made = self.run(made)
        return lambda data, c=None: self.plain(self.run(made(data, c or ctx())))

    def record(self, values: Any) -> Any:
        if self.fmt == "protobuf" and isinstance(values, dict):
            return Person(**{k: v for k, v in values.items() if v is not None})
        return dict(values) if isinstance(values, dict) else values

    def plain(self, value: Any) -> Any:
        if self.fmt == "protobuf" and value is not None:
            out = {"name": value.name, "age": value.age, "email": value.email or None}
            return out
        if isinstance(value, dict) and "email" not in value:
            value = dict(value, email=None)
        return value


@pytest.fixture(params=[(f, k) for f in ("avro", "json", "protobuf") for k in ("sync", "async")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def side(request: Any) -> Side:
    made = Side(*request.param)
    yield made
    made.loop.close()


ANN = {"name": "ann", "age": 30, "email": "ann@example.com"}


def test_condition_on_write(side: Side) -> None:
    side.register("t-value", [rule("adult", "CONDITION", "WRITE", "CEL", "message.age >= 18")])
    ser = side.serializer(registry())
    assert side.deserializer(registry())(ser(ANN)) == ANN
    with pytest.raises(SerializationError) as info:
        ser(dict(ANN, age=3))
    assert isinstance(info.value.__cause__, RuleConditionError)
    assert str(info.value.__cause__) == "Rule expr failed: message.age >= 18"


def test_condition_on_read_only_runs_on_read(side: Side) -> None:
    side.register("t-value", [rule("adult", "CONDITION", "READ", "CEL", "message.age >= 18", doc="adults only")])
    data = side.serializer(registry())(dict(ANN, age=3))  # READ rules do not run on write
    with pytest.raises(SerializationError) as info:
        side.deserializer(registry())(data)
    assert str(info.value.__cause__) == "adults only"
    assert "CONDITION rule 'adult'" in str(info.value) and "READ" in str(info.value)


def test_writeread_runs_both_ways_and_action_pairs_split(side: Side) -> None:
    side.register("t-value", [rule("adult", "CONDITION", "WRITEREAD", "CEL", "message.age >= 18",
                                   on_failure="NONE,ERROR")])
    data = side.serializer(registry())(dict(ANN, age=3))  # NONE on write
    with pytest.raises(SerializationError):
        side.deserializer(registry())(data)  # ERROR on read


@pytest.mark.parametrize("field_rule, expected", [
    (rule("f", "TRANSFORM", "WRITE", "CEL_FIELD", "value + '-x'", tags=["PII"]), {"name": "ann-x"}),
    (rule("f", "TRANSFORM", "WRITE", "CEL_FIELD", "typeName == 'INT' ; value * 2"), {"age": 60}),
    (rule("f", "TRANSFORM", "WRITE", "CEL_FIELD", "name == 'email' ; value + '!'"), {"email": "ann@example.com!"}),
    (rule("f", "TRANSFORM", "WRITE", "CEL_FIELD", "name == 'name' ; value + string(message.age)"), {"name": "ann30"}),
])
def test_field_transforms(side: Side, field_rule: Rule, expected: Dict[str, Any]) -> None:
    side.register("t-value", [field_rule])
    data = side.serializer(registry())(ANN)
    assert side.deserializer(registry())(data) == dict(ANN, **expected)


def test_field_condition_and_tag_filter(side: Side) -> None:
    side.register("t-value", [rule("f", "CONDITION", "WRITE", "CEL_FIELD", "size(value) > 2", tags=["PII"])])
    ser = side.serializer(registry())
    assert ser(ANN)
    with pytest.raises(SerializationError) as info:
        ser(dict(ANN, name="al"))
    assert isinstance(info.value.__cause__, RuleConditionError)


def test_write_and_read_transforms_each_run_once(side: Side) -> None:
    side.register("t-value", [rule("w", "TRANSFORM", "WRITE", "CEL_FIELD", "value + '~'", tags=["PII"]),
                              rule("r", "TRANSFORM", "READ", "CEL_FIELD", "value + '^'", tags=["PII"])])
    data = side.serializer(registry())(ANN)
    assert b"ann~" in data and b"^" not in data
    assert side.deserializer(registry())(data)["name"] == "ann~^"
    # cel-python has no replace(): a rule calling it fails, and the error names the rule.
    side.register("u-value", [rule("bad", "TRANSFORM", "READ", "CEL_FIELD", "value.replace('~', '')", tags=["PII"])])
    with pytest.raises(SerializationError, match="TRANSFORM rule 'bad'"):
        side.deserializer(registry())(side.serializer(registry())(ANN, ctx("u")), ctx("u"))


def test_metadata_tags_select_fields(side: Side) -> None:
    pattern = {"avro": "ex.User.em*", "json": "$.em*", "protobuf": "ex.Person.em*"}[side.fmt]
    meta = Metadata(MetadataTags({pattern: ["SECRET"]}), MetadataProperties({}), None)
    side.register("t-value", [rule("f", "TRANSFORM", "WRITE", "CEL_FIELD", "'hidden'", tags=["SECRET"])],
                  metadata=meta)
    assert side.deserializer(registry())(side.serializer(registry())(ANN)) == dict(ANN, email="hidden")


def test_disabled_enable_at_and_overrides(side: Side) -> None:
    failing = rule("f", "CONDITION", "WRITE", "CEL", "false")
    side.register("a-value", [rule("f", "CONDITION", "WRITE", "CEL", "false", disabled=True)])
    assert side.serializer(registry())(ANN, ctx("a"))
    side.register("b-value", [failing], enable_at="SERVER")
    assert side.serializer(registry())(ANN, ctx("b"))
    side.register("c-value", [failing], enable_at="CLIENT")
    with pytest.raises(SerializationError):
        side.serializer(registry())(ANN, ctx("c"))
    assert side.serializer(registry(RuleOverride("CEL", None, None, True)))(ANN, ctx("c"))
    assert side.serializer(registry(RuleOverride("CEL", None, "NONE", None)))(ANN, ctx("c"))


def test_unknown_executor_and_action(side: Side) -> None:
    side.register("t-value", [rule("u", "CONDITION", "WRITE", "NOPE", "true")])
    with pytest.raises(SerializationError) as info:
        side.serializer(registry())(ANN)
    assert str(info.value.__cause__) == "Could not find rule executor of type NOPE"
    side.register("v-value", [rule("u", "CONDITION", "WRITE", "CEL", "false", on_failure="NOWHERE")])
    with pytest.raises(RuleError, match="Could not find rule action of type NOWHERE"):
        side.serializer(registry())(ANN, ctx("v"))


def test_message_transform(side: Side) -> None:
    side.register("t-value", [rule("m", "TRANSFORM", "WRITE", "CEL",
                                   "{'name': message.name + '!', 'age': message.age + 1, 'email': message.email}")])
    assert side.deserializer(registry())(side.serializer(registry())(ANN)) == {"name": "ann!", "age": 31,
                                                                                "email": "ann@example.com"}


def test_jsonata_migrations_up_and_down(side: Side) -> None:
    if side.fmt == "protobuf":
        pytest.skip("one Protobuf class here; migrations between Protobuf versions are in the compat scenarios")
    v1 = {"avro": json.dumps({"type": "record", "name": "E", "fields": [{"name": "size", "type": "int"}]}),
          "json": json.dumps({"title": "E", "type": "object", "properties": {"size": {"type": "integer"}}})}
    v2 = {"avro": json.dumps({"type": "record", "name": "E", "fields": [{"name": "height", "type": "int"}]}),
          "json": json.dumps({"title": "E", "type": "object", "properties": {"height": {"type": "integer"}}})}
    props = lambda v: Metadata(None, MetadataProperties({"v": v}), None)  # noqa: E731
    side.register("m-value", metadata=props("1"), text=v1[side.fmt])
    side.register("m-value", migration=[
        rule("up", "TRANSFORM", "UPGRADE", "JSONATA", "{'height': $.size}"),
        rule("down", "TRANSFORM", "DOWNGRADE", "JSONATA", "{'size': $.height}")], metadata=props("2"),
        text=v2[side.fmt])
    reg = registry()
    old = side.serializer(reg, {"use.latest.version": False, "use.latest.with.metadata": {"v": "1"}})({"size": 5},
                                                                                                       ctx("m"))
    new = side.serializer(reg)({"height": 7}, ctx("m"))
    read_new = side.deserializer(reg, {"use.latest.version": True})
    read_old = side.deserializer(reg, {"use.latest.with.metadata": {"v": "1"}})
    assert strip(read_new(old, ctx("m"))) == {"height": 5}
    assert strip(read_old(new, ctx("m"))) == {"size": 7}
    assert strip(read_old(old, ctx("m"))) == {"size": 5}


def strip(record: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in record.items() if v is not None}


class Recording(FieldRuleExecutor):
    def __init__(self) -> None:
        self.seen: List[Any] = []
        self.conf: List[Any] = []

    def type(self) -> str:
        return "REC"

    def configure(self, client_conf: dict, rule_conf: dict) -> None:  # type: ignore[type-arg]
        self.conf.append(rule_conf)

    def new_transform(self, rctx: Any) -> Any:
        def fn(rctx: Any, field_ctx: Any, value: Any) -> Any:
            self.seen.append((field_ctx.name, field_ctx.type_name(), sorted(field_ctx.tags), rctx.rule_mode.value))
            return value
        return fn


def test_custom_field_executor_sees_fields_and_rule_conf(side: Side) -> None:
    rec = Recording()
    side.register("t-value", [rule("r", "TRANSFORM", "WRITEREAD", "REC", None, tags=["PII"])])
    data = side.serializer(registry(rec), rule_conf={"k": "v"})(ANN)
    side.deserializer(registry(rec))(data)
    assert rec.conf[0] == {"k": "v"}
    assert rec.seen == [("name", "STRING", ["PII"], "WRITE"), ("name", "STRING", ["PII"], "READ")]


class Sink:
    def __init__(self) -> None:
        self.sent: List[Any] = []

    def produce(self, topic: str, key: Any = None, value: Any = None, headers: Any = None,
                on_delivery: Any = None) -> None:
        self.sent.append((topic, key, value, dict(headers)))

    def poll(self, timeout: float = 0) -> int:
        return 0

    def flush(self, timeout: float = 0) -> int:
        return 0


def test_dlq_on_write_sends_key_value_and_headers(side: Side) -> None:
    sink = Sink()
    side.register("t-value", [rule("adult", "CONDITION", "WRITE", "CEL", "message.age >= 18", on_failure="DLQ",
                                   params={"dlq.topic": "dead"})])
    reg = registry(DlqAction())
    ser = side.serializer(reg, rule_conf={"producer": sink})
    key_ser = AvroSerializer(SchemaRegistryClient.new_client({"url": "mock://dlq-keys"}), '"string"')
    key_ser("k", ctx(field=MessageField.KEY))
    assert get_original_key() == "k"
    with pytest.raises(SerializationError, match="Rule failed: adult"):
        ser(dict(ANN, age=3), ctx(headers=[("h", b"1")]))
    if side.kind == "sync":  # an async serde clears it in its task's copy of the context
        assert get_original_key() is None
    topic, key, value, headers = sink.sent[0]
    assert (topic, key) == ("dead", b"k")
    assert json.loads(value)["age"] == 3
    assert headers["__rule.name"] == b"adult" and headers["__rule.mode"] == b"WRITE"
    assert headers["__rule.subject"] == b"t-value" and headers["__rule.topic"] == b"t" and headers["h"] == b"1"
    assert headers["__rule.exception"] == b"Rule expr failed: message.age >= 18"


def test_dlq_on_read_sends_bytes_and_replay_skips_the_rule(side: Side) -> None:
    sink = Sink()
    side.register("plain-value")
    plain = side.serializer(None)(dict(ANN, age=3), ctx("plain"))
    rid = side.register("t-value", [rule("adult", "CONDITION", "READ", "CEL", "message.age >= 18",
                                         on_failure="DLQ")])
    data = plain[:1] + rid.to_bytes(4, "big") + plain[5:]
    de = side.deserializer(registry(DlqAction({"dlq.topic": "dead"})), rule_conf={"producer": sink})
    with pytest.raises(SerializationError):
        de(data)
    assert sink.sent[0][2] == data and sink.sent[0][3]["__rule.mode"] == b"READ"
    assert de(data, ctx(headers=[("__rule.name", b"adult")]))["age"] == 3


def test_dlq_without_topic() -> None:
    with pytest.raises(SerializationError, match="no topic is configured"):
        side = Side("avro", "sync")
        side.register("t-value", [rule("a", "CONDITION", "WRITE", "CEL", "false", on_failure="DLQ")])
        side.serializer(registry(DlqAction({"producer": Sink()})))(ANN)


def test_encoding_rules_run_on_the_payload(side: Side) -> None:
    class Xor(RuleExecutor):
        def type(self) -> str:
            return "XOR"

        def transform(self, rctx: Any, message: Any) -> Any:
            raw = message.read() if hasattr(message, "read") else message  # read: the framed payload's rest
            return bytes(b ^ 0x55 for b in raw)

    side.register("t-value", encoding=[rule("x", "TRANSFORM", "WRITEREAD", "XOR", None)])
    reg = registry(Xor())
    data = side.serializer(reg)(ANN)
    assert b"ann" not in data
    assert side.deserializer(reg)(data) == ANN


def test_failure_text() -> None:
    side = Side("avro", "sync")
    side.register("t-value", [rule("adult", "CONDITION", "WRITE", "CEL", "message.age >= 18")])
    with pytest.raises(SerializationError) as info:
        side.serializer(registry())(dict(ANN, age=3))
    assert str(info.value) == ("topic 't' value: CONDITION rule 'adult' (type CEL, WRITE, subject 't-value') failed: "
                               "Rule expr failed: message.age >= 18")


def test_broken_action_is_logged_not_raised(caplog: Any) -> None:
    class Broken(DlqAction):
        def type(self) -> str:
            return "BROKEN"

        def run(self, rctx: Any, message: Any, ex: Any) -> None:
            raise RuntimeError("no")

    side = Side("avro", "sync")
    side.register("t-value", [rule("a", "CONDITION", "WRITE", "CEL", "false", on_failure="BROKEN")])
    with caplog.at_level(logging.WARNING):
        assert side.serializer(registry(Broken()))(ANN)
    assert "Could not run post-rule action BROKEN" in caplog.text


def test_serde_close_closes_its_own_registry_only() -> None:
    closed: List[str] = []

    class Closing(Recording):
        def close(self) -> None:
            closed.append("x")

    side = Side("avro", "sync")
    side.register("t-value")
    ser = AvroSerializer(side.client, None, conf={"auto.register.schemas": False, "use.latest.version": True},
                         rule_registry=registry(Closing()))
    ser.close()
    assert closed == ["x"]
    RuleRegistry.register_rule_executor(Closing())
    try:
        AvroSerializer(side.client, None, conf={"auto.register.schemas": False, "use.latest.version": True}).close()
        assert closed == ["x"]
    finally:
        RuleRegistry.get_global_instance().clear()


@pytest.mark.parametrize("text, pattern, expected", [
    ("eve", "eve*", True), ("alice.bob.eve", "a*.bob.eve", True), ("alice.bob.eve", "a*", False),
    ("alice.bob.eve", "a**", True), ("alice.bob.eve", "alice.bob*", False), ("alice.bob.eve", "alice.bob**", True),
    ("alice.bob.eve", "?lice.*.eve", True), ("a+b", "a+b", True), ("aab", "a+b", False),
])
def test_wildcards(text: str, pattern: str, expected: bool) -> None:
    assert wildcard_match(text, pattern) is expected


@pytest.mark.parametrize("fn, good, bad", [
    ("isEmail", "a@b.com", "a@"), ("isHostname", "x.example", "-x.com"), ("isIpv4", "10.0.0.1", "::1"),
    ("isIpv6", "::1", "10.0.0.1"), ("isUri", "https://x.org/p", "x.org"), ("isUuid",
                                                                           "9b2d4f9e-5e4c-4f7e-9a1c-2b3c4d5e6f70", "u"),
])
def test_builtin_functions(fn: str, good: str, bad: str) -> None:
    side = Side("avro", "sync")
    side.register("t-value", [rule("f", "CONDITION", "WRITE", "CEL", f"{fn}(message.name)")])
    ser = side.serializer(registry())
    assert ser(dict(ANN, name=good))
    with pytest.raises(SerializationError):
        ser(dict(ANN, name=bad))


def test_cel_results_are_plain_values() -> None:
    side = Side("json", "sync")
    text = json.dumps({"title": "T", "type": "object", "properties": {"ok": {"type": "boolean"}, "n": {}}})
    side.register("t-value", [rule("t", "TRANSFORM", "WRITE", "CEL", "{'ok': !message.ok, 'n': 1.5, 'l': [true]}")],
                  text=text)
    data = side.serializer(registry())({"ok": True})
    assert data[5:] == b'{"ok":false,"n":1.5,"l":[true]}'
