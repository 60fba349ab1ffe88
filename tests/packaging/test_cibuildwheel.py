"""The cibuildwheel configuration in pyproject.toml validates offline and selects every wheel
the project promises: CPython 3.10-3.15 and the free-threaded 3.14t and 3.15t on Linux
(manylinux and musllinux, x86_64 and aarch64), macOS (x86_64 and arm64) and Windows (AMD64)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import List

import pytest

from dist_tools import ROOT, min_librdkafka

PYTHONS = ["cp310", "cp311", "cp312", "cp313", "cp314", "cp314t", "cp315", "cp315t"]
EXPECTED = {
    "linux": {f"{py}-{libc}_{arch}" for py in PYTHONS for libc in ("manylinux", "musllinux")
              for arch in ("x86_64", "aarch64")},
    "macos": {f"{py}-macosx_{arch}" for py in PYTHONS for arch in ("x86_64", "arm64")},
    "windows": {f"{py}-win_amd64" for py in PYTHONS},
}


def cibuildwheel() -> List[str]:
    exe = shutil.which("cibuildwheel", path=os.path.dirname(sys.executable))
    if exe is None:
        if sys.version_info < (3, 11):
            pytest.skip("cibuildwheel 4.x runs on Python >= 3.11 (the packaging extra skips it)")
        pytest.fail("cibuildwheel missing: pip install -e '.[packaging]'")
    return [exe]


@pytest.mark.parametrize("platform", sorted(EXPECTED))
def test_build_identifiers(platform: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    proc = subprocess.run([*cibuildwheel(), "--platform", platform, "--print-build-identifiers"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    # Unknown or misspelt options are reported as warnings; there must be none.
    assert "warning" not in proc.stderr.lower(), proc.stderr
    assert set(proc.stdout.split()) == EXPECTED[platform]


def test_before_all_script_is_valid_bash_and_wired_in() -> None:
    script = ROOT / "scripts" / "cibw-before-all.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = (ROOT / "pyproject.toml").read_text()
    assert 'before-all = "bash {project}/scripts/cibw-before-all.sh"' in text
    assert "{project}/scripts/cibw-before-all.sh'" in text  # the Windows form


def test_before_all_librdkafka_meets_the_minimum() -> None:
    text = (ROOT / "scripts" / "cibw-before-all.sh").read_text()
    version = text.split('VERSION="${LIBRDKAFKA_VERSION:-', 1)[1].split("}", 1)[0]

    def as_tuple(v: str) -> tuple:
        return tuple(int(x) for x in v.split("."))

    assert as_tuple(version) >= as_tuple(min_librdkafka())
