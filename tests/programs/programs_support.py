"""What the programs tier's tests share: the two interpreters and how a script runs under both."""
from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
QUIXSTREAMS_VERSION = "3.28.0"  # tests/programs/quixstreams.txt
FASTSTREAM_VERSION = "0.7.8"  # tests/programs/requirements.txt
OTEL_VERSION = "0.66b1"  # the instrumentations', tests/programs/requirements.txt
SIDES = ("ours", "upstream")
# The sides that run this worktree's package: "facade" is ours under the import runner, so that
# ``import aiokafka`` is confluent_kafka.compat.aiokafka.
LOCAL_SIDES = ("ours", "facade")
RUNNER = ("-m", "confluent_kafka.compat", "run")
RUN_TIMEOUT_S = 150


def upstream_python() -> tuple[str | None, str]:
    """tests/compat's ``upstream_python()``: the upstream wheel's interpreter, or None and why not."""
    compat = _load(ROOT / "tests" / "compat" / "conftest.py", "_programs_compat_conftest")
    found: tuple[str | None, str] = compat.upstream_python()
    return found


def programs_dir(python: str) -> pathlib.Path:
    """Where scripts/install-programs.sh put the programs for PYTHON: ``programs`` in its virtualenv."""
    prefix = subprocess.run([python, "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True,
                            timeout=60, cwd="/", check=True).stdout.strip()
    return pathlib.Path(prefix) / "programs"


class Sides:
    """Runs a program script of this directory under each side's interpreter, with its programs."""

    def __init__(self, pythons: dict[str, str]) -> None:
        self.pythons = pythons
        self.programs = {side: programs_dir(python) for side, python in pythons.items()}

    def env(self, side: str) -> dict[str, str]:
        """SIDE's environment: its programs' directory on PYTHONPATH, after this worktree's
        ``src`` for ours and the facade (so the package under test is this one)."""
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        paths = [str(ROOT / "src")] if side in LOCAL_SIDES else []
        env["PYTHONPATH"] = os.pathsep.join([*paths, str(self.programs[side])])
        return env

    def start(self, side: str, script: str, *args: str, cwd: pathlib.Path) -> subprocess.Popen[str]:
        """Start SCRIPT under SIDE's interpreter (the facade's through the import runner); its
        stdout is one JSON document."""
        runner = RUNNER if side == "facade" else ()
        return subprocess.Popen([self.pythons[side], *runner, str(HERE / script), *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=self.env(side), cwd=str(cwd))

    def installed(self, side: str, distribution: str) -> str | None:
        """The version of DISTRIBUTION that SIDE's programs import, or None."""
        probe = subprocess.run([self.pythons[side], "-c", "import importlib.metadata as m, sys; "
                                f"print(m.version({distribution!r}))"], capture_output=True, text=True,
                               timeout=60, cwd="/", env=self.env(side))
        return probe.stdout.strip() if probe.returncode == 0 else None

    @staticmethod
    def result(side: str, proc: subprocess.Popen[str], timeout: float = RUN_TIMEOUT_S) -> Any:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"{side}: {proc.args} ran over {timeout} s:\n{err[-4000:]}") from None
        if proc.returncode != 0:
            raise AssertionError(f"{side}: {proc.args} exited {proc.returncode}:\n{err[-4000:]}")
        return json.loads(out)

    def collect(self, procs: dict[Any, tuple[str, subprocess.Popen[str]]]) -> dict[Any, Any]:
        """Each process's document, by key; if one fails, the others are stopped before raising."""
        try:
            return {key: self.result(label, proc) for key, (label, proc) in procs.items()}
        finally:
            for _, proc in procs.values():
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()

    def run(self, script: str, args: dict[str, list[str]], cwd: pathlib.Path) -> dict[str, Any]:
        """Run SCRIPT on every side at once (each with its own ARGS) and return the documents."""
        return self.collect({side: (side, self.start(side, script, *args[side], cwd=cwd)) for side in self.pythons})


def _load(path: pathlib.Path, name: str) -> Any:
    """A module of tests/compat, loaded by path under a private NAME (tests/compat is no package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def deliberate_differences() -> dict[str, str]:
    """tests/compat/deliberate.py's DIFFERENCES: where this package differs from upstream on purpose."""
    differences: dict[str, str] = _load(ROOT / "tests" / "compat" / "deliberate.py", "_programs_deliberate").DIFFERENCES
    return differences
