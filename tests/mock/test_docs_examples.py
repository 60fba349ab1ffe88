"""The ```python blocks of docs/testing.md and docs/reliability.md run as written, each in a
fresh interpreter (```{code-block} blocks are illustrations and are not run)."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
from typing import List, Tuple

import pytest

pytestmark = pytest.mark.mock

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"
PAGES = ["testing.md", "reliability.md"]


def blocks() -> List[Tuple[str, str]]:
    out = []
    for page in PAGES:
        path = DOCS / page
        for i, code in enumerate(re.findall(r"^```python\n(.*?)^```", path.read_text(), re.S | re.M)):
            out.append((f"{page}#{i + 1}", code))
    return out


def test_pages_exist_and_have_examples() -> None:
    assert all((DOCS / p).is_file() for p in PAGES)
    assert len([b for b in blocks() if b[0].startswith("testing.md")]) >= 3


@pytest.mark.parametrize("name,code", blocks(), ids=[b[0] for b in blocks()])
def test_example_runs(name: str, code: str) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=180)
    assert r.returncode == 0, f"{name} failed:\n{r.stderr[-3000:]}"
