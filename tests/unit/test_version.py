"""The version is written once, in src/confluent_kafka/_version.py; everything else reads it.

Checked here: the package metadata source (pyproject.toml), the C module, and CHANGELOG.md.
The built wheel's and sdist's metadata are checked in tests/packaging/test_version_metadata.py.
"""
from __future__ import annotations

import pathlib
import re
import sys
from typing import List, Optional, Tuple

import confluent_kafka
from confluent_kafka import _version, cimpl

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERSION_RE = r"\d+\.\d+\.\d+(?:[.-]?(?:a|b|rc|post|dev)\d*)?"


def as_tuple(version: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def changelog_headings(text: str) -> List[Tuple[str, Optional[str]]]:
    """Each ``## `` entry heading of CHANGELOG.md as (heading, version named in it or None)."""
    out = []
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            m = re.search(VERSION_RE, heading)
            out.append((heading, m.group(0) if m else None))
    return out


def test_module_and_extension_report_the_single_version() -> None:
    assert re.fullmatch(VERSION_RE, _version.__version__)
    assert confluent_kafka.__version__ == _version.__version__
    assert confluent_kafka.version() == cimpl.version() == _version.__version__


def test_pyproject_reads_the_version_from_version_py() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    assert re.search(r'^dynamic = \[[^\]]*"version"', project, re.M)
    assert not re.search(r"^version\s*=", project, re.M)
    assert 'version = { attr = "confluent_kafka._version.__version__" }' in text
    if sys.version_info >= (3, 11):
        import tomllib

        data = tomllib.loads(text)
        assert "version" not in data["project"]
        assert data["tool"]["setuptools"]["dynamic"]["version"] == {
            "attr": "confluent_kafka._version.__version__"}


def test_changelog_top_entry_agrees_with_the_version() -> None:
    # The top entry is either the current version ("## 2.16.1 ..." or "## [2.16.1] ...", which
    # may say "unreleased"), or a bare "## Unreleased" for work towards the current version,
    # in which case no entry below may already claim the current version or a later one.
    headings = changelog_headings((ROOT / "CHANGELOG.md").read_text())
    assert headings, "CHANGELOG.md has no '## ' entries"
    top, top_version = headings[0]
    current = _version.__version__
    if top_version is not None:
        assert top_version == current, f"CHANGELOG top entry {top!r} but version is {current}"
    else:
        assert top.lower().startswith("unreleased"), f"unrecognised CHANGELOG entry {top!r}"
        released = [v for _, v in headings[1:] if v is not None]
        assert all(as_tuple(v) < as_tuple(current) for v in released), (released, current)


def test_changelog_heading_parser() -> None:
    text = "# Changelog\n\n## 2.16.1 (unreleased)\n\n### Added\n\n## [2.16.0] - 2025-01-01\n"
    assert changelog_headings(text) == [("2.16.1 (unreleased)", "2.16.1"),
                                        ("[2.16.0] - 2025-01-01", "2.16.0")]
    assert changelog_headings("## Unreleased\n") == [("Unreleased", None)]
