"""The sdist carries everything a source build needs; building from it links the system
librdkafka; and a missing or too old librdkafka fails the build with one clear message."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tarfile
import zipfile
from typing import Dict

import pytest

from dist_tools import ROOT, Dist, dynamic_tags, min_librdkafka, pkg_config

SETUP_TIMEOUT_S = 120


def sdist_files(dist: Dist) -> set:
    with tarfile.open(dist.sdist) as t:
        top = f"{dist.sdist.name[:-len('.tar.gz')]}/"
        return {m.name[len(top):] for m in t.getmembers() if m.isfile()}


def test_sdist_carries_sources_headers_and_scripts(dist: Dist) -> None:
    files = sdist_files(dist)
    c_dir = ROOT / "src" / "confluent_kafka" / "src"
    needed = {str(p.relative_to(ROOT)) for p in c_dir.iterdir() if p.suffix in (".c", ".h")}
    needed |= {"setup.py", "pyproject.toml", "MANIFEST.in", "LICENSE", "CHANGELOG.md",
               "README.md", "src/confluent_kafka/cimpl.pyi", "src/confluent_kafka/py.typed",
               "scripts/install-librdkafka.sh", "scripts/debian-mirror.sh", "scripts/cibw-before-all.sh",
               "scripts/tansu_broker.py", "tests/conftest.py"}
    assert needed <= files, sorted(needed - files)
    assert not [f for f in files if f.endswith((".so", ".pyc", ".o"))]


def test_wheel_built_from_sdist_links_pkg_config_librdkafka(dist: Dist, tmp_path: pathlib.Path) -> None:
    # `python -m build` built this wheel from the unpacked sdist in an isolated environment.
    suffix = f".cpython-{sys.version_info[0]}{sys.version_info[1]}-"
    with zipfile.ZipFile(dist.raw_wheel) as z:
        (module,) = [n for n in z.namelist() if n.startswith("confluent_kafka/cimpl")
                     and n.endswith(".so")]
        assert suffix in module
        z.extract(module, tmp_path)
    tags = dynamic_tags(str(tmp_path / module))
    assert "librdkafka.so.1" in tags["DT_NEEDED"]
    assert pkg_config("--variable=libdir") in tags["DT_RPATH"] + tags["DT_RUNPATH"]


def build_ext_output(tmp_path: pathlib.Path, env_update: Dict[str, str]) -> subprocess.CompletedProcess:
    """Run setup.py build_ext (what pip's build runs) with a changed environment."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "LIBRDKAFKA_INCLUDE_DIR")}
    env.update(env_update)
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-temp", str(tmp_path / "t"),
         "--build-lib", str(tmp_path / "l")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=SETUP_TIMEOUT_S)


def assert_clear_error(proc: subprocess.CompletedProcess, detail: str) -> None:
    assert proc.returncode != 0
    assert f"needs librdkafka >= {min_librdkafka()}" in proc.stderr, proc.stderr
    assert detail in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr


def test_build_without_librdkafka_names_the_minimum(tmp_path: pathlib.Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = build_ext_output(tmp_path, {"PKG_CONFIG_LIBDIR": str(empty)})
    assert_clear_error(proc, "pkg-config cannot find rdkafka.pc")


@pytest.mark.parametrize("old", ["1.9.2", "2.7.99"])
def test_build_against_old_librdkafka_names_both_versions(tmp_path: pathlib.Path, old: str) -> None:
    pc = tmp_path / "pc"
    pc.mkdir()
    (pc / "rdkafka.pc").write_text(
        f"prefix=/nonexistent\nName: librdkafka\nDescription: too old\nVersion: {old}\n"
        "Libs: -L${prefix}/lib -lrdkafka\nCflags: -I${prefix}/include\n")
    # Earlier on PKG_CONFIG_PATH wins over the real one in /usr/local/lib/pkgconfig.
    proc = build_ext_output(tmp_path, {"PKG_CONFIG_PATH": str(pc)})
    assert_clear_error(proc, f"pkg-config found librdkafka {old}, which is too old")


def test_build_from_explicit_old_headers_names_both_versions(tmp_path: pathlib.Path) -> None:
    inc = tmp_path / "include" / "librdkafka"
    inc.mkdir(parents=True)
    (inc / "rdkafka.h").write_text("#define RD_KAFKA_VERSION  0x020600ff\n")
    proc = build_ext_output(tmp_path, {"LIBRDKAFKA_INCLUDE_DIR": str(tmp_path / "include")})
    assert_clear_error(proc, "holds librdkafka 2.6.0, which is too old")


def test_minimum_version_is_the_same_everywhere() -> None:
    minimum = min_librdkafka()
    assert f'MIN_VERSION="${{LIBRDKAFKA_MIN_VERSION:-{minimum}}}"' in \
        (ROOT / "scripts" / "install-librdkafka.sh").read_text()
    assert f"rdkafka>={minimum}" in (ROOT / "CMakeLists.txt").read_text()
    assert f"librdkafka >= {minimum}" in (ROOT / "docs" / "installation.md").read_text()
