"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "schema_registry::scenario_avro_bad_input": (
        "An Avro record that does not match its schema, a payload with an unknown magic byte, a writer "
        "schema id the registry does not hold, or a truncated payload raise a SerializationError saying "
        "which topic/field, schema and id failed and why. Each is also an instance of what upstream "
        "raises there (TypeError/ValueError/EOFError from fastavro, SchemaRegistryError), so code "
        "catching upstream's types keeps working. Pinned by tests/unit/test_schema_registry_avro.py."),
    "schema_registry::scenario_mock_calls_upstream_leaves_to_http": (
        "The mock:// client answers every call the way a registry does (compatibility level, config, "
        "modes, schema types, contexts) instead of sending it to a mock:// URL that httpx cannot "
        "reach (upstream's mock: httpx UnsupportedProtocol after its retries; get_config answers None). "
        "Pinned by tests/unit/test_schema_registry_client.py::test_config_compatibility_and_modes."),
    "admin::scenario_elect_leaders_timeouts": (
        "upstream's AdminClient.elect_leaders raises SystemError for request_timeout or operation_timeout "
        "(its C argument parser is broken); ours honours both, so code that passes them works"),
    "admin::scenario_create_acls_filter_with_none": (
        "create_acls given an AclBindingFilter whose name/principal/host is None: upstream's C layer fails "
        "with SystemError (a UnicodeDecodeError leak); ours raises TypeError naming the attribute"),
    "admin::scenario_config_entry_synonyms_default": (
        "upstream's ConfigEntry shares one mutable default synonyms dict between every entry made without "
        "synonyms, so adding to one entry's synonyms changes all of them; ours gives each entry its own"),
    "admin::scenario_c_value_pickles": (
        "NewTopic, NewPartitions and Uuid can be pickled and copied here (by their constructor arguments); "
        "upstream raises TypeError: cannot pickle"),
}
