"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
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
