"""Fixtures for the documentation tests: one Sphinx build per session, shared by the tests.

The build runs ``sphinx-build -W --keep-going -b html docs <tmp>`` in a subprocess, exactly as
``make docs`` does, so a warning anywhere fails the build test with Sphinx's own message.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from docs_paths import DOCS, ROOT, DocsBuild

BUILD_TIMEOUT = 600

# The docs toolchain is in the test extra only where Sphinx 9 supports the Python (3.11+):
# each test module skips itself (pytest.importorskip) when it is missing.
sys.path.insert(0, str(DOCS / "_ext"))


@pytest.fixture(scope="session")
def docs_build(tmp_path_factory: pytest.TempPathFactory) -> DocsBuild:
    outdir = tmp_path_factory.mktemp("docs-html")
    doctrees = tmp_path_factory.mktemp("docs-doctrees")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         "-d", str(doctrees), str(DOCS), str(outdir)],
        cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT,
    )
    return DocsBuild(proc.returncode, proc.stdout + proc.stderr, outdir)
