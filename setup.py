"""Build the C extension confluent_kafka.cimpl against librdkafka.

librdkafka is found by pkg-config (``rdkafka.pc``), or, where there is no pkg-config (Windows),
from explicit directories in the environment:

* ``LIBRDKAFKA_INCLUDE_DIR``: the directory holding ``librdkafka/rdkafka.h``;
* ``LIBRDKAFKA_LIBRARY_DIR``: the directory holding the import or shared library;
* ``LIBRDKAFKA_LIBRARIES``: the library names to link (default ``rdkafka``).

Flags are looked up only when the extension is built, so an sdist needs no librdkafka.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
from typing import Dict, List, Optional, Tuple

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Keep in step with scripts/install-librdkafka.sh, CMakeLists.txt and docs/installation.md.
MIN_LIBRDKAFKA = "2.8.0"
HERE = os.path.dirname(os.path.abspath(__file__))


class LibrdkafkaNotFound(Exception):
    """librdkafka is missing or older than MIN_LIBRDKAFKA."""


def package_version() -> str:
    """The version single-sourced in src/confluent_kafka/_version.py."""
    scope: Dict[str, str] = {}
    with open(os.path.join(HERE, "src", "confluent_kafka", "_version.py")) as f:
        exec(f.read(), scope)
    return scope["__version__"]


def version_tuple(version: str) -> Tuple[int, ...]:
    """'2.14.2' -> (2, 14, 2); a non-numeric tail ('2.8.0-RC1') is ignored."""
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def pkg_config_env() -> Dict[str, str]:
    """The environment for pkg-config: /usr/local/lib/pkgconfig is searched too (where
    scripts/install-librdkafka.sh installs), unless PKG_CONFIG_LIBDIR replaces the search path."""
    env = dict(os.environ)
    if "PKG_CONFIG_LIBDIR" not in env:
        env["PKG_CONFIG_PATH"] = os.pathsep.join(
            p for p in (env.get("PKG_CONFIG_PATH"), "/usr/local/lib/pkgconfig") if p
        )
    return env


def pkg_config(*args: str) -> str:
    """Run ``pkg-config ARGS rdkafka`` and return its output (CalledProcessError if it fails)."""
    return subprocess.run(
        ["pkg-config", *args, "rdkafka"], check=True, capture_output=True, text=True,
        env=pkg_config_env(),
    ).stdout.strip()


def not_found(detail: str) -> LibrdkafkaNotFound:
    return LibrdkafkaNotFound(
        f"confluent-kafka needs librdkafka >= {MIN_LIBRDKAFKA} to build from source: {detail}\n"
        "Install it (scripts/install-librdkafka.sh does, on Debian and Ubuntu; elsewhere use your "
        "package manager or build it from the librdkafka release) and make sure pkg-config finds "
        "rdkafka.pc (set PKG_CONFIG_PATH), or install a prebuilt wheel, which bundles librdkafka. "
        "See docs/installation.md."
    )


def flags_from_pkg_config() -> Dict[str, list]:
    """Compiler and linker settings for librdkafka as pkg-config reports them."""
    try:
        found = pkg_config("--modversion")
    except OSError:
        raise not_found("pkg-config is not installed") from None
    except subprocess.CalledProcessError:
        raise not_found("pkg-config cannot find rdkafka.pc") from None
    if version_tuple(found) < version_tuple(MIN_LIBRDKAFKA):
        raise not_found(f"pkg-config found librdkafka {found}, which is too old")
    cflags = shlex.split(pkg_config("--cflags"))
    libs = shlex.split(pkg_config("--libs"))
    libdir = pkg_config("--variable=libdir")
    return {
        "include_dirs": [f[2:] for f in cflags if f.startswith("-I")],
        "library_dirs": [f[2:] for f in libs if f.startswith("-L")],
        "libraries": [f[2:] for f in libs if f.startswith("-l")],
        # Load the librdkafka we were built against, not an older one on the loader path.
        # (auditwheel repair replaces this with the wheel's own copy.)
        "runtime_library_dirs": [libdir] if libdir and sys.platform != "win32" else [],
        "define_macros": [("BUILD_LIBRDKAFKA_VERSION", f'"{found}"')],
    }


def header_version(include_dir: str) -> Optional[str]:
    """The version rdkafka.h declares (RD_KAFKA_VERSION 0xMMmmrrxx), or None."""
    try:
        with open(os.path.join(include_dir, "librdkafka", "rdkafka.h")) as f:
            m = re.search(r"#define\s+RD_KAFKA_VERSION\s+0x([0-9a-fA-F]{8})", f.read())
    except OSError:
        return None
    if not m:
        return None
    v = int(m.group(1), 16)
    return f"{v >> 24 & 0xFF}.{v >> 16 & 0xFF}.{v >> 8 & 0xFF}"


def flags_from_environment(include_dir: str) -> Dict[str, list]:
    """Settings from LIBRDKAFKA_INCLUDE_DIR / _LIBRARY_DIR / _LIBRARIES (no pkg-config)."""
    found = header_version(include_dir)
    if found is None:
        raise not_found(f"LIBRDKAFKA_INCLUDE_DIR={include_dir} has no librdkafka/rdkafka.h")
    if version_tuple(found) < version_tuple(MIN_LIBRDKAFKA):
        raise not_found(f"{include_dir} holds librdkafka {found}, which is too old")
    library_dir = os.environ.get("LIBRDKAFKA_LIBRARY_DIR")
    return {
        "include_dirs": [include_dir],
        "library_dirs": [library_dir] if library_dir else [],
        "libraries": os.environ.get("LIBRDKAFKA_LIBRARIES", "rdkafka").split(),
        "runtime_library_dirs": [],
        "define_macros": [("BUILD_LIBRDKAFKA_VERSION", f'"{found}"')],
    }


def librdkafka_flags() -> Dict[str, list]:
    """Where librdkafka is, from the environment if given there, else from pkg-config."""
    include_dir = os.environ.get("LIBRDKAFKA_INCLUDE_DIR")
    return flags_from_environment(include_dir) if include_dir else flags_from_pkg_config()


def compile_args(compiler_type: str) -> List[str]:
    """Warnings and the C standard, in the spelling of the compiler in use."""
    if compiler_type == "msvc":
        return ["/std:c11", "/W3"]
    return ["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
            "-Wno-missing-field-initializers"]


class BuildExt(build_ext):
    """build_ext that locates librdkafka first, failing with one clear message."""

    def build_extensions(self) -> None:
        try:
            flags = librdkafka_flags()
        except LibrdkafkaNotFound as exc:
            sys.exit(f"error: {exc}")
        for ext in self.extensions:
            for key, values in flags.items():
                getattr(ext, key).extend(values)
            ext.define_macros.append(("CFL_VERSION", f'"{package_version()}"'))
            ext.extra_compile_args.extend(compile_args(self.compiler.compiler_type))
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "confluent_kafka.cimpl",
            sources=sorted(glob.glob("src/confluent_kafka/src/*.c")),
            depends=sorted(glob.glob("src/confluent_kafka/src/*.h")),
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
