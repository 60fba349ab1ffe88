"""Data-contract rules against Karapace: what it does with a schema's rule set and metadata.

Karapace (the registry this tier runs) accepts ``ruleSet`` and ``metadata`` in a registration
request but does not store them: a registered schema comes back without either, and it has no
``/subjects/{subject}/metadata`` endpoint (``use.latest.with.metadata``). So rules cannot reach a
serde through it, and the rule tests run on the ``mock://`` registry instead
(tests/unit/test_schema_registry_rules.py, tests/compat/scenarios/schema_registry_rules.py). The
test below pins that gap: when Karapace starts keeping rule sets it fails, saying to move the
rule tests here.
"""

from __future__ import annotations

import json
import uuid

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")
pytest.importorskip("celpy", reason="the rules extra is not installed")

from confluent_kafka.schema_registry import (  # noqa: E402
    Metadata,
    MetadataProperties,
    Rule,
    RuleKind,
    RuleMode,
    RuleSet,
    Schema,
    SchemaRegistryClient,
    SchemaRegistryError,
)
from confluent_kafka.schema_registry.avro import AvroSerializer  # noqa: E402
from confluent_kafka.schema_registry.rule_registry import RuleRegistry  # noqa: E402
from confluent_kafka.schema_registry.rules.cel.cel_executor import CelExecutor  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

pytestmark = pytest.mark.integration

USER = json.dumps({"type": "record", "name": "User", "fields": [{"name": "age", "type": "int"}]})


def test_karapace_drops_rule_sets_and_metadata(registry_url: str) -> None:
    client = SchemaRegistryClient({"url": registry_url})
    subject = f"rules-{uuid.uuid4().hex[:8]}-value"
    never = Rule("never", None, RuleKind.CONDITION, RuleMode.WRITE, "CEL", None, None, "false", None, None, None)
    schema = Schema(USER, "AVRO", [], Metadata(None, MetadataProperties({"v": "1"}), None), RuleSet(None, [never]))
    client.register_schema(subject, schema)
    latest = client.get_latest_version(subject)
    assert latest.schema.rule_set is None and latest.schema.metadata is None, (
        "Karapace now keeps rule sets: run the rule tests against it here")
    with pytest.raises(SchemaRegistryError) as info:
        client.get_latest_with_metadata(subject, {"v": "1"})
    assert info.value.http_status_code == 404
    # So a serializer using the latest version runs no rules: the failing condition is not seen.
    reg = RuleRegistry()
    reg.register_executor(CelExecutor())
    ser = AvroSerializer(client, None, conf={"auto.register.schemas": False, "use.latest.version": True},
                         rule_registry=reg)
    assert ser({"age": 1}, SerializationContext(subject[:-len("-value")], MessageField.VALUE))


def test_rules_against_karapace() -> None:
    pytest.skip("Karapace does not store rule sets or metadata (see the module docstring); the rules are tested "
                "on mock:// (tests/unit/test_schema_registry_rules.py) and side by side with upstream "
                "(tests/compat/scenarios/schema_registry_rules.py)")
