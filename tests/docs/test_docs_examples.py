"""Every ```python block of the documentation runs, as written, and prints what the page says.

Each block runs on its own in a fresh interpreter (a reader copies one block, not a page), with
a time limit, in a scratch directory. Examples use ``confluent_kafka.testing.MockCluster``, so
no broker is needed. A block that needs a real broker or Spark is fenced as
```` ```{code-block} python ```` instead and is shown but not run. When a ```` ```output ````
block follows a python block directly, the python block's standard output must equal it.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import subprocess
import sys
from typing import List, Optional

import pytest

pytest.importorskip("sphinx", reason="Sphinx is installed by the test extra on Python >= 3.11 only")
pytest.importorskip("myst_parser", reason="myst-parser is installed by the test extra on Python >= 3.11 only")
from markdown_it import MarkdownIt  # noqa: E402

from docs_paths import DOCS, ROOT  # noqa: E402

EXAMPLE_TIMEOUT = 120


@dataclasses.dataclass
class Example:
    page: str
    line: int
    code: str
    expected_output: Optional[str]

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def examples_of(page: pathlib.Path) -> List[Example]:
    """The runnable python blocks of one Markdown page (top-level fences only)."""
    tokens = [t for t in MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8")) if t.level == 0]
    found = []
    for i, token in enumerate(tokens):
        if token.type != "fence" or token.info.strip() != "python":
            continue
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        expected = None
        if following is not None and following.type == "fence" and following.info.strip() == "output":
            expected = following.content
        line = token.map[0] + 1 if token.map else 0
        found.append(Example(str(page.relative_to(DOCS)), line, token.content, expected))
    return found


ALL_EXAMPLES = [ex for page in sorted(DOCS.rglob("*.md")) if "_build" not in page.parts
                for ex in examples_of(page)]


def test_the_docs_have_examples() -> None:
    assert len(ALL_EXAMPLES) >= 20, [ex.id for ex in ALL_EXAMPLES]


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=[ex.id for ex in ALL_EXAMPLES])
def test_example_runs(example: Example, tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PYTHONUNBUFFERED="1")
    proc = subprocess.run([sys.executable, "-c", example.code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=EXAMPLE_TIMEOUT)
    assert proc.returncode == 0, (
        f"{example.id} exited with {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    if example.expected_output is not None:
        assert proc.stdout.rstrip() == example.expected_output.rstrip(), (
            f"{example.id} printed something else than its output block\n--- stderr\n{proc.stderr}")
