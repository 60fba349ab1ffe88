"""Inline validation rules (``validation.rules.execution``): what each format's serializer
checks and reports, the executor contract, and the serde bases' configure_* methods, the cluster
id resolvers and build_serde."""

from __future__ import annotations

import asyncio
import json
from typing import Any, List

import pytest

pytest.importorskip("celpy", reason="the rules extra is not installed")

from confluent_kafka.schema_registry import AsyncSchemaRegistryClient, SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AsyncAvroSerializer, AvroSerializer, validate_message  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.cel_validator import CelValidator  # noqa: E402
from confluent_kafka.schema_registry.serde import (  # noqa: E402
    AsyncAssociatedNameStrategy,
    RuleError,
    ValidationRule,
    ValidationRuleError,
    ValidationRuleExecutor,
    build_serde,
    evaluate_validation_rule,
    parse_validation_rules,
)
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError  # noqa: E402

AVRO = json.dumps({"type": "record", "name": "User", "confluent:rules": [
    {"name": "adult", "expr": "this.age >= 18", "doc": "must be an adult"}], "fields": [
    {"name": "name", "type": "string", "confluent:rules": [{"name": "named", "expr": "size(this) > 0 ? '' : 'empty'"}]},
    {"name": "age", "type": "int"},
    {"name": "nick", "type": ["null", "string"], "default": None,
     "confluent:rules": [{"name": "nick", "expr": "this != 'x'"}]},
    {"name": "tags", "type": {"type": "array", "items": "string"},
     "confluent:rules": [{"name": "few", "expr": "size(this) < 3"}]}]})
CTX = SerializationContext("users", MessageField.VALUE)


def client() -> Any:
    return SchemaRegistryClient.new_client({"url": "mock://validation-unit"})


def avro(**conf: Any) -> AvroSerializer:
    return AvroSerializer(client(), AVRO, conf={"subject.name.strategy.type": "TOPIC", **conf})


def test_every_failure_is_reported_at_once() -> None:
    ser = avro(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES"})
    assert ser({"name": "a", "age": 30, "nick": None, "tags": []}, CTX).startswith(b"\x00")
    with pytest.raises(SerializationError) as raised:
        ser({"name": "", "age": 3, "nick": "x", "tags": ["a", "b", "c"]}, CTX)
    assert str(raised.value) == ("Validation rule failed (4 violations):\n"
                                 "  - <root>: adult: must be an adult\n"
                                 "  - name: named: empty\n"
                                 "  - nick: nick: this != 'x'\n"
                                 "  - tags: few: size(this) < 3")


def test_fail_fast_stops_at_the_first_and_null_fields_are_skipped() -> None:
    ser = avro(**{"validation.rules.execution": "AFTER_DOMAIN_RULES", "validation.rules.fail.fast": True})
    with pytest.raises(SerializationError, match=r"\(1 violation\):\n  - name: named: empty$"):
        ser({"name": "", "age": 30, "nick": "x", "tags": []}, CTX)
    assert ser({"name": "b", "age": 30, "nick": None, "tags": []}, CTX)  # nick's rule not run on null


def test_disabled_by_default_and_a_bad_setting_is_refused() -> None:
    assert avro()({"name": "", "age": 1, "nick": "x", "tags": []}, CTX)
    with pytest.raises(ValueError, match="validation.rules.execution must be one of DISABLED"):
        avro(**{"validation.rules.execution": "ALWAYS"})
    with pytest.raises(ValueError, match="must be a ValidationRuleExecutor"):
        avro(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES", "validation.rules.executor": len})


def test_a_custom_executor_sees_each_rule_and_value() -> None:
    calls: List[Any] = []

    class Recording(ValidationRuleExecutor):
        def execute(self, rule: ValidationRule, schema: Any, message: Any) -> Any:
            calls.append((rule.name, message))
            return True

    ser = avro(**{"validation.rules.execution": "BEFORE_DOMAIN_RULES", "validation.rules.executor": Recording()})
    ser({"name": "n", "age": 20, "nick": None, "tags": ["t"]}, CTX)
    assert calls == [("adult", {"name": "n", "age": 20, "nick": None, "tags": ["t"]}), ("named", "n"),
                     ("few", ["t"])]


def test_json_paths_start_at_the_root() -> None:
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {
        "type": "object", "properties": {"n": {"type": "integer", "confluent:rules": [{"name": "pos", "expr":
                                                                                       "this > 0"}]}}}}}}
    ser = JSONSerializer(json.dumps(schema), client(), conf={"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                                            "subject.name.strategy.type": "TOPIC"})
    with pytest.raises(SerializationError, match=r"  - \$\.items\[1\]\.n: pos: this > 0"):
        ser({"items": [{"n": 1}, {"n": 0}]}, CTX)


def test_the_async_serializer_validates_too() -> None:
    async def main() -> None:
        ser = await AsyncAvroSerializer(AsyncSchemaRegistryClient.new_client({"url": "mock://v-async"}), AVRO,
                                        conf={"validation.rules.execution": "BEFORE_DOMAIN_RULES",
                                              "subject.name.strategy.type": "TOPIC"})
        with pytest.raises(SerializationError, match="adult"):
            await ser({"name": "a", "age": 1, "nick": None, "tags": []}, CTX)

    asyncio.run(main())


def test_rule_errors_count_as_failures_and_other_results_are_refused() -> None:
    class Raising(ValidationRuleExecutor):
        def execute(self, rule: Any, schema: Any, message: Any) -> Any:
            raise RuleError("cannot")

    found: List[ValidationRuleError] = []
    evaluate_validation_rule(Raising(), ValidationRule("r", expr="x"), None, 1, "f", found)
    assert [str(e) for e in found] == ["f: r: x (caused by: cannot)"]

    class Number(ValidationRuleExecutor):
        def execute(self, rule: Any, schema: Any, message: Any) -> Any:
            return 2

    with pytest.raises(SerializationError, match="'unnamed' resolved to an unexpected type: int"):
        evaluate_validation_rule(Number(), ValidationRule(), None, 1, "", [])


def test_parse_and_the_cel_validator() -> None:
    rules = parse_validation_rules([{"name": "a", "expr": "this > 1"}, 5, {"doc": "d", "sql": "s"}])
    assert rules == [ValidationRule("a", None, "this > 1"), ValidationRule(None, "d", None, "s")]
    assert parse_validation_rules({"name": "x"}) == []
    v = CelValidator()
    assert v.execute(rules[0], None, 5) is True and v.execute(rules[0], None, 0) is False
    assert v.execute(ValidationRule("t", expr="this == 1 ? '' : 'no'"), None, 2) == "no"
    with pytest.raises(RuleError, match="must return bool or string; got IntType"):
        v.execute(ValidationRule("n", expr="this"), None, 5)
    with pytest.raises(RuleError, match="Could not compile"):
        v.execute(ValidationRule("c", expr="this >"), None, 5)
    with pytest.raises(RuleError, match="received a null value"):
        v.execute(rules[0], None, None)


def test_validate_message_reads_the_expanded_schema() -> None:
    from fastavro.schema import expand_schema, parse_schema

    parsed = expand_schema(parse_schema(json.loads(AVRO)))
    found = validate_message(CelValidator(), parsed, {"name": "", "age": 1, "nick": None, "tags": []})
    assert [(e.rule.name, e.field_path, e.message) for e in found] == [("adult", "", None), ("named", "name", "empty")]
    assert validate_message(None, parsed, {}) == [] and validate_message(CelValidator(), parsed, None) == []


def test_configure_subject_name_strategy() -> None:
    ser = avro()
    ser.configure_subject_name_strategy("record")
    assert ser({"name": "a", "age": 20, "nick": None, "tags": []}, CTX)
    assert "User" in ser._registry.get_subjects()
    ser.configure_subject_name_strategy(None, None, lambda ctx, name: "fixed")
    ser({"name": "a", "age": 20, "nick": None, "tags": []}, CTX)
    assert "fixed" in ser._registry.get_subjects()
    with pytest.raises(ValueError, match="NONE cannot be used"):
        ser.configure_subject_name_strategy("none")
    with pytest.raises(ValueError, match="subject.name.strategy must be callable"):
        ser.configure_subject_name_strategy(None, None, 5)  # type: ignore[arg-type]


def test_configure_validation_rules_takes_its_keys() -> None:
    ser = avro()
    conf = {"validation.rules.execution": "BEFORE_DOMAIN_RULES", "keep": 1}
    ser.configure_validation_rules(conf)
    assert conf == {"keep": 1}
    with pytest.raises(SerializationError, match="adult"):
        ser({"name": "a", "age": 1, "nick": None, "tags": []}, CTX)


def test_cluster_id_resolver_errors_name_the_setting() -> None:
    ser = AvroSerializer(client(), AVRO)

    def unreachable() -> str:
        raise RuntimeError("no broker")

    ser.set_cluster_id_resolver(unreachable)
    with pytest.raises(SerializationError, match="could not resolve the Kafka cluster id.*"
                                                 "subject.name.strategy.kafka.cluster.id.*no broker"):
        ser({"name": "a", "age": 20, "nick": None, "tags": []}, CTX)
    ser.set_cluster_id_resolver(lambda: "")
    with pytest.raises(SerializationError, match="resolved to an empty string"):
        ser({"name": "a", "age": 20, "nick": None, "tags": []}, CTX)


def test_async_resolver_is_awaited() -> None:
    async def main() -> List[str]:
        registry = AsyncSchemaRegistryClient.new_client({"url": "mock://resolver-async"})
        seen: List[str] = []
        original = registry.get_associations_by_resource_name

        async def recording(*args: Any, **kwargs: Any) -> Any:
            seen.append(kwargs["resource_namespace"])
            return await original(*args, **kwargs)

        registry.get_associations_by_resource_name = recording  # type: ignore[method-assign]
        ser = await AsyncAvroSerializer(registry, AVRO)

        async def cluster_id() -> str:
            return "lkc-123"

        ser.set_async_cluster_id_resolver(cluster_id)
        await ser({"name": "a", "age": 20, "nick": None, "tags": []}, CTX)
        strategy = AsyncAssociatedNameStrategy()
        strategy.set_async_cluster_id_resolver(cluster_id)
        assert await strategy(SerializationContext("other", MessageField.KEY), None, registry) == "other-key"
        return seen

    assert asyncio.run(main()) == ["lkc-123", "lkc-123"]


def test_build_serde_owns_only_the_client_it_made() -> None:
    given = client()
    ser = build_serde(given, None, lambda c: AvroSerializer(c, AVRO))
    ser.close()
    assert given.get_subjects() == []  # still usable: not closed
    closed: List[str] = []

    def construct(c: Any) -> Any:
        c.close = lambda: closed.append("closed")
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        build_serde(None, {"url": "mock://made"}, construct)
    assert closed == ["closed"]
    with pytest.raises(ValueError, match="Cannot specify both"):
        build_serde(given, {"url": "mock://x"}, construct)
