"""The differential tier: each scenario runs under this project and under the real upstream wheel.

Upstream confluent-kafka has this project's import name, so it lives in its own virtualenv,
``.compat-venv`` at the top of the repository (made by ``make test``; ``COMPAT_UPSTREAM_PYTHON``
names another interpreter). Without it the tier skips, saying what is missing.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys
from typing import Any, Callable

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
UPSTREAM_VERSION = "2.16.1"
RUN_TIMEOUT = 300
PARALLEL_RUNS = 4


def upstream_python() -> tuple[str | None, str]:
    """The upstream wheel's interpreter, or None and why it cannot be used."""
    python = os.environ.get("COMPAT_UPSTREAM_PYTHON") or str(ROOT / ".compat-venv" / "bin" / "python")
    if not pathlib.Path(python).exists():
        return None, f"no upstream interpreter at {python} (make test creates .compat-venv with confluent-kafka=={UPSTREAM_VERSION})"
    probe = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('confluent-kafka'))"],
                           capture_output=True, text=True, timeout=60, cwd="/")
    found = probe.stdout.strip()
    if probe.returncode != 0 or found != UPSTREAM_VERSION:
        return None, f"{python} does not hold confluent-kafka {UPSTREAM_VERSION} ({found or probe.stderr.strip()[-200:]})"
    return python, ""


class Sides:
    """Runs scenario modules on both sides, once each per session."""

    def __init__(self, upstream: str, env: dict[str, str], bootstrap: Callable[[], str]) -> None:
        self.pythons = {"ours": sys.executable, "upstream": upstream}
        self.env = env
        self._start_broker = bootstrap
        self._bootstrap: str | None = None
        self.cache: dict[tuple[str, str], dict[str, Any]] = {}

    def bootstrap(self) -> str:
        """The broker's address, the broker started on first use (from the test's thread)."""
        if self._bootstrap is None:
            self._bootstrap = self._start_broker()
        return self._bootstrap

    def _run(self, side: str, args: list[str]) -> dict[str, Any]:
        env = dict(self.env)
        if needs_broker(args[0]):
            env["COMPAT_BOOTSTRAP"] = self.bootstrap()
        if side == "ours":
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
        else:
            env.pop("PYTHONPATH", None)
        proc = subprocess.run([self.pythons[side], str(HERE / "runner.py"), *args], capture_output=True,
                              text=True, timeout=RUN_TIMEOUT, env=env, cwd=str(HERE))
        if proc.returncode != 0:
            raise AssertionError(f"{side} runner {args} exited {proc.returncode}:\n{proc.stderr[-4000:]}")
        return json.loads(proc.stdout)

    def run(self, module: str) -> dict[str, dict[str, Any]]:
        """``{"ours": {scenario: observation}, "upstream": {...}}`` for scenarios/MODULE.py.

        The first call runs every module on both sides, a few at a time: most scenarios wait on
        timeouts against an unreachable broker, so running them side by side costs little CPU."""
        if not self.cache:
            modules = sorted(path.stem for path in (HERE / "scenarios").glob("[!_]*.py"))  # _x.py: helpers
            if any(needs_broker(m) for m in modules):
                self.bootstrap()  # start the broker (a fixture) on this thread, before the pool
            jobs = [(side, m) for m in modules for side in self.pythons]
            with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
                for job, result in zip(jobs, pool.map(lambda job: self._run(job[0], [job[1]]), jobs)):
                    self.cache[job] = result
        for side in self.pythons:
            if (side, module) not in self.cache:
                self.cache[(side, module)] = self._run(side, [module])
        return {side: self.cache[(side, module)] for side in self.pythons}

    def run_crossed(self, module: str, tmp: pathlib.Path) -> dict[str, dict[str, Any]]:
        """The ``crossed_*`` functions of MODULE, each side given both sides' ``scenario_*`` output."""
        key = "crossed"
        if (key, module) not in self.cache:
            first = self.run(module)
            given = {f"crossed_{name.split('_', 1)[1]}": {side: first[side][name] for side in first}
                     for name in first["upstream"]}
            path = tmp / f"{module}-given.json"
            path.write_text(json.dumps(given))
            self.cache[(key, module)] = {side: self._run(side, [module, "--crossed", str(path)])
                                         for side in self.pythons}
        return self.cache[(key, module)]


def needs_broker(module: str) -> bool:
    """Whether scenarios/MODULE.py talks to the tansu broker (it says ``NEEDS_BROKER = True``);
    its scenarios then read the bootstrap address from ``COMPAT_BOOTSTRAP``."""
    return "\nNEEDS_BROKER = True" in (HERE / "scenarios" / f"{module}.py").read_text()


@pytest.fixture(scope="session")
def sides(tmp_path_factory, request) -> Sides:
    python, why = upstream_python()
    if python is None:
        pytest.skip(why)
    env = dict(os.environ)
    env.setdefault("COMPAT_TMP", str(tmp_path_factory.mktemp("compat")))
    return Sides(python, env, lambda: request.getfixturevalue("kafka_bootstrap"))
