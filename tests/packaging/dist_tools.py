"""Helpers of the packaging tier: where things are, what was built, how to run the wheel."""
from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import shutil
import subprocess
import zipfile
from typing import Dict, List

from elftools.elf.dynamic import DynamicSection  # pyelftools, an auditwheel dependency
from elftools.elf.elffile import ELFFile

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


def dynamic_tags(path: str) -> Dict[str, list]:
    """NEEDED, RPATH and RUNPATH entries of an ELF file."""
    tags: Dict[str, list] = {"DT_NEEDED": [], "DT_RPATH": [], "DT_RUNPATH": []}
    with open(path, "rb") as f:
        for section in ELFFile(f).iter_sections():
            if isinstance(section, DynamicSection):
                for tag in section.iter_tags():
                    if tag.entry.d_tag == "DT_NEEDED":
                        tags["DT_NEEDED"].append(getattr(tag, "needed"))
                    elif tag.entry.d_tag == "DT_RPATH":
                        tags["DT_RPATH"].extend(getattr(tag, "rpath").split(":"))
                    elif tag.entry.d_tag == "DT_RUNPATH":
                        tags["DT_RUNPATH"].extend(getattr(tag, "runpath").split(":"))
    return tags
