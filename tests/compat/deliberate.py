"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "share::scenario_exception_pickling": (
        "ConcurrentModificationException and IllegalStateException pickle (they live in "
        "confluent_kafka.cimpl); upstream's name their module 'cimpl', which cannot be imported, so "
        "pickling one fails. Code that does not pickle them sees no difference."),
}
