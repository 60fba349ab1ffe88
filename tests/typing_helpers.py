"""Run ``mypy --strict`` the way a user of the package would, over files or snippets, and pull
the Python examples out of the MyST Markdown documentation so they can be checked too."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
from typing import List, Sequence, Tuple, Union

import confluent_kafka

PKG = pathlib.Path(confluent_kafka.__file__).parent
REPO = pathlib.Path(__file__).resolve().parent.parent

# A fenced block whose info string is exactly "python" (```` ```{code-block} python ```` blocks,
# which need a real broker, are not run and so are not extracted either).
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*python[ \t]*$")


def python_blocks(markdown: Union[str, pathlib.Path]) -> List[Tuple[int, str]]:
    """``(first line number, code)`` of every ```` ```python ```` block of a Markdown file."""
    text = pathlib.Path(markdown).read_text(encoding="utf-8")
    blocks: List[Tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i].strip())
        if not m:
            i += 1
            continue
        fence = m.group("fence")
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        blocks.append((start + 1, "\n".join(lines[start:j]) + "\n"))
        i = j + 1
    return blocks


def page_block_files(markdown: Union[str, pathlib.Path], workdir: pathlib.Path) -> List[pathlib.Path]:
    """Each Python block of one page written to a module of its own in ``workdir`` (every block
    runs on its own, as a reader copies it), named ``<page>_<line>.py`` and padded so that
    mypy's line numbers are the page's."""
    page = pathlib.Path(markdown)
    files = []
    for line, code in python_blocks(page):
        path = workdir / f"{page.stem.replace('-', '_')}_{line}.py"
        path.write_text("\n" * (line - 1) + code, encoding="utf-8")
        files.append(path)
    return files


# The mypy settings for users' code (strict, pyarrow untyped), read explicitly: mypy runs from
# a scratch directory, where it would otherwise find no configuration at all.
MYPY_CONFIG = REPO / "pyproject.toml"


def mypy_strict(targets: Sequence[Union[str, pathlib.Path]], workdir: pathlib.Path,
                timeout: float = 600) -> subprocess.CompletedProcess:
    """``mypy --strict TARGETS`` with the package's stubs and ``MYPY_CONFIG``, a private cache,
    from ``workdir``."""
    env = dict(os.environ, MYPYPATH=str(PKG.parent))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(MYPY_CONFIG),
         "--no-incremental", "--cache-dir", str(workdir / ".mypy_cache"), *map(str, targets)],
        capture_output=True, text=True, env=env, timeout=timeout, cwd=workdir)


def mypy_strict_source(source: str, workdir: pathlib.Path, name: str = "sample.py") -> subprocess.CompletedProcess:
    """``mypy --strict`` over ``source`` written to ``workdir/name``."""
    path = workdir / name
    path.write_text(source, encoding="utf-8")
    return mypy_strict([path], workdir)
