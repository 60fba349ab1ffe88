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
import time
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


class RunFailed(AssertionError):
    """A scenario runner that exited with an error, ran out of time or printed no JSON."""


def _tail(output: str | bytes | None, limit: int = 4000) -> str:
    if isinstance(output, bytes):
        output = output.decode(errors="replace")
    return (output or "(nothing)")[-limit:]


class Sides:
    """Runs scenario modules on both sides, once each per session."""

    def __init__(self, upstream: str, env: dict[str, str], bootstrap: Callable[[], str]) -> None:
        self.pythons = {"ours": sys.executable, "upstream": upstream}
        self.env = env
        self._start_broker = bootstrap
        self._bootstrap: str | None = None
        self._bootstrap_error: str | None = None
        # A run that failed is cached as its RunFailed, like a result: every test of that module
        # reports it, and the module is never run a second time (that would retry a flaky run away).
        self.cache: dict[tuple[str, str], dict[str, Any] | RunFailed] = {}

    def bootstrap(self) -> str:
        """The broker's address, the broker started on first use (from the test's thread). A
        broker that did not start fails this and every later call with the same error, without
        asking pytest again (later calls may come from the pool's threads)."""
        if self._bootstrap is None and self._bootstrap_error is None:
            try:
                self._bootstrap = self._start_broker()
            except Exception as exc:  # noqa: BLE001 - kept, and raised for each broker module (a skip is not caught)
                self._bootstrap_error = f"the broker for the scenarios did not start: {type(exc).__name__}: {exc}"
        if self._bootstrap_error is not None:
            raise RunFailed(self._bootstrap_error)
        assert self._bootstrap is not None
        return self._bootstrap

    def _run(self, side: str, args: list[str]) -> dict[str, Any]:
        """What ``runner.py ARGS`` printed under SIDE's interpreter; RunFailed, with what the
        runner wrote, when it exited with an error, ran out of time or printed no JSON."""
        env = dict(self.env)
        if needs_broker(args[0]):
            env["COMPAT_BOOTSTRAP"] = self.bootstrap()
        if side == "ours":
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
        else:
            env.pop("PYTHONPATH", None)
        started = time.monotonic()
        try:
            proc = subprocess.run([self.pythons[side], str(HERE / "runner.py"), *args], capture_output=True,
                                  text=True, timeout=RUN_TIMEOUT, env=env, cwd=str(HERE))
        except subprocess.TimeoutExpired as exc:
            raise RunFailed(f"{side} runner {args} did not finish within {RUN_TIMEOUT} s:\n"
                            f"{_tail(exc.stderr)}") from None
        took = f"after {time.monotonic() - started:.1f} s"
        if proc.returncode != 0:
            raise RunFailed(f"{side} runner {args} exited {proc.returncode} {took}:\n{_tail(proc.stderr)}")
        try:
            observations: dict[str, Any] = json.loads(proc.stdout)
            return observations
        except ValueError as exc:
            raise RunFailed(f"{side} runner {args} printed no JSON {took} ({exc}):\n{_tail(proc.stdout)}\n"
                            f"stderr:\n{_tail(proc.stderr)}") from None

    def _outcome(self, side: str, args: list[str]) -> dict[str, Any] | RunFailed:
        try:
            return self._run(side, args)
        except RunFailed as exc:
            return exc

    def _cached(self, key: tuple[str, str]) -> dict[str, Any]:
        result = self.cache[key]
        if isinstance(result, RunFailed):
            raise RunFailed(str(result))  # a new one per test: each test's traceback is its own
        return result

    def run(self, module: str) -> dict[str, dict[str, Any]]:
        """``{"ours": {scenario: observation}, "upstream": {...}}`` for scenarios/MODULE.py;
        RunFailed when a side's runner of MODULE failed.

        The first call runs every module on both sides, a few at a time: most scenarios wait on
        timeouts against an unreachable broker, so running them side by side costs little CPU.
        A runner that fails there fails the tests of its own module, not the test that happened
        to start the batch."""
        if not self.cache:
            modules = sorted(path.stem for path in (HERE / "scenarios").glob("[!_]*.py"))  # _x.py: helpers
            if any(needs_broker(m) for m in modules):
                try:
                    self.bootstrap()  # start the broker (a fixture) on this thread, before the pool
                except RunFailed:
                    pass  # kept by bootstrap(): each broker module's runs fail with it
            jobs = [(side, m) for m in modules for side in self.pythons]
            with concurrent.futures.ThreadPoolExecutor(PARALLEL_RUNS) as pool:
                for job, result in zip(jobs, pool.map(lambda job: self._outcome(job[0], [job[1]]), jobs)):
                    self.cache[job] = result
        for side in self.pythons:
            if (side, module) not in self.cache:
                self.cache[(side, module)] = self._outcome(side, [module])
        return {side: self._cached((side, module)) for side in self.pythons}

    def run_crossed(self, module: str, tmp: pathlib.Path) -> dict[str, dict[str, Any]]:
        """The ``crossed_*`` functions of MODULE, each side given both sides' ``scenario_*`` output."""
        keys = {side: (f"crossed {side}", module) for side in self.pythons}
        if any(key not in self.cache for key in keys.values()):
            first = self.run(module)
            given = {f"crossed_{name.split('_', 1)[1]}": {side: first[side][name] for side in first}
                     for name in first["upstream"]}
            path = tmp / f"{module}-given.json"
            path.write_text(json.dumps(given))
            for side, key in keys.items():
                self.cache[key] = self._outcome(side, [module, "--crossed", str(path)])
        return {side: self._cached(key) for side, key in keys.items()}


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
