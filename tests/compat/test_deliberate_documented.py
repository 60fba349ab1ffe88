"""Every deliberate difference is in docs/migration.md, named by its scenario, so the page that
tells users where this package differs from upstream cannot fall behind the tier."""
from __future__ import annotations

import pathlib

import pytest

from deliberate import DIFFERENCES

MIGRATION = pathlib.Path(__file__).resolve().parents[2] / "docs" / "migration.md"


@pytest.mark.parametrize("case", sorted(DIFFERENCES))
def test_listed_in_migration_guide(case: str) -> None:
    assert f"`{case}`" in MIGRATION.read_text(), f"{case} is deliberate but docs/migration.md does not name it"
