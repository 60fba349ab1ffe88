"""Build the C extension confluent_kafka.cimpl against the librdkafka that pkg-config finds."""
import glob
import os
import shlex
import subprocess
import sys

from setuptools import Extension, setup

MIN_LIBRDKAFKA = "2.8.0"
HERE = os.path.dirname(os.path.abspath(__file__))


def package_version() -> str:
    """The version single-sourced in src/confluent_kafka/_version.py."""
    scope: dict = {}
    with open(os.path.join(HERE, "src", "confluent_kafka", "_version.py")) as f:
        exec(f.read(), scope)
    return scope["__version__"]


def pkg_config(*args: str) -> str:
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = ":".join(
        p for p in (env.get("PKG_CONFIG_PATH"), "/usr/local/lib/pkgconfig") if p
    )
    return subprocess.run(
        ["pkg-config", *args, "rdkafka"], check=True, capture_output=True, text=True, env=env
    ).stdout.strip()


def librdkafka_flags() -> dict:
    try:
        pkg_config(f"--atleast-version={MIN_LIBRDKAFKA}")
    except (OSError, subprocess.CalledProcessError):
        sys.exit(
            f"error: librdkafka >= {MIN_LIBRDKAFKA} was not found by pkg-config.\n"
            "Install it with scripts/install-librdkafka.sh (or your package manager) and retry."
        )
    cflags = shlex.split(pkg_config("--cflags"))
    libs = shlex.split(pkg_config("--libs"))
    libdir = pkg_config("--variable=libdir")
    return {
        "include_dirs": [f[2:] for f in cflags if f.startswith("-I")],
        "library_dirs": [f[2:] for f in libs if f.startswith("-L")],
        "libraries": [f[2:] for f in libs if f.startswith("-l")],
        # Load the librdkafka we were built against, not an older one on the loader path.
        "runtime_library_dirs": [libdir],
        "define_macros": [
            ("BUILD_LIBRDKAFKA_VERSION", '"%s"' % pkg_config("--modversion")),
            ("CFL_VERSION", '"%s"' % package_version()),
        ],
    }


setup(
    ext_modules=[
        Extension(
            "confluent_kafka.cimpl",
            sources=sorted(glob.glob("src/confluent_kafka/src/*.c")),
            extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
                                "-Wno-missing-field-initializers"],
            **librdkafka_flags(),
        )
    ]
)
