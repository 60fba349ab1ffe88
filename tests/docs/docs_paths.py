"""Paths and the build result the documentation tests share (a module of its own: several
test directories have a conftest.py, so importing names from "conftest" is ambiguous)."""

from __future__ import annotations

import dataclasses
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@dataclasses.dataclass
class DocsBuild:
    returncode: int
    output: str
    outdir: pathlib.Path
