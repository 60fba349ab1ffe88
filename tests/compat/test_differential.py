"""Every scenario under scenarios/ observed on both sides; the observations must be equal.

A scenario is a ``scenario_*`` function in a module of scenarios/; it returns JSON data built with
``observe`` (return values, exception types and texts, ``str``/``repr``, callback arguments, log
records). A ``crossed_*`` function of the same name takes both sides' output of its scenario and
observes it again (a pickle made by one side loaded by the other). A difference listed in
``deliberate.DIFFERENCES`` must still be a difference: the list never goes stale.
"""
from __future__ import annotations

import importlib.util
import json
import pathlib
import sys
from typing import Any

import pytest

from deliberate import DIFFERENCES

SCENARIOS = pathlib.Path(__file__).resolve().parent / "scenarios"


def _load(path: pathlib.Path) -> Any:
    # Imported under a private name: scenario modules only define functions (some in a loop).
    # Both folders on the path, as the runner has them: observe.py, and the _helpers beside the modules.
    sys.path[:0] = [str(SCENARIOS.parent), str(SCENARIOS)]
    try:
        spec = importlib.util.spec_from_file_location(f"_compat_scenarios_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCENARIOS.parent))
        sys.path.remove(str(SCENARIOS))


def _functions(prefix: str) -> list[tuple[str, str]]:
    # A module whose name starts with "_" holds helpers the scenario modules share, not scenarios.
    return [(path.stem, name) for path in sorted(SCENARIOS.glob("[!_]*.py"))
            for name in sorted(vars(_load(path))) if name.startswith(prefix)]


def _comparable(observation: Any) -> Any:
    # Where a scenario itself raised, the traceback's file paths differ by side: compare the error.
    if isinstance(observation, dict) and "scenario raised" in observation:
        return {"scenario raised": observation["scenario raised"]}
    return observation


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values()) or 1
    if isinstance(value, list):
        return sum(_leaves(v) for v in value) or 1
    return 1


def _check(module: str, name: str, results: dict[str, dict[str, Any]]) -> None:
    ours, upstream = (_comparable(results[side][name]) for side in ("ours", "upstream"))
    case = f"{module}::{name}"
    if case in DIFFERENCES:
        assert ours != upstream, f"{case} is listed as a deliberate difference but both sides agree; drop it from deliberate.py"
        return
    if ours != upstream:
        diff = {"ours": results["ours"][name], "upstream": results["upstream"][name]}
        if isinstance(ours, dict) and isinstance(upstream, dict):
            keys = sorted(k for k in set(ours) | set(upstream) if ours.get(k) != upstream.get(k))
            diff = {k: {"ours": ours.get(k), "upstream": upstream.get(k)} for k in keys}
        pytest.fail(f"{case} differs from upstream:\n{json.dumps(diff, indent=1, sort_keys=True)[:6000]}")


@pytest.mark.parametrize("module,name", _functions("scenario_"), ids=lambda v: v)
def test_same_as_upstream(sides, module: str, name: str) -> None:
    _check(module, name, sides.run(module))


@pytest.mark.parametrize("module,name", _functions("crossed_"), ids=lambda v: v)
def test_crossed_same_as_upstream(sides, tmp_path_factory, module: str, name: str) -> None:
    _check(module, name, sides.run_crossed(module, tmp_path_factory.mktemp("crossed")))


def test_behaviour_count(sides, tmp_path_factory, record_property) -> None:
    """Reports, in the run's summary, how many observations the tier compares (the leaves of every scenario's data)."""
    total = 0
    for module in sorted({m for m, _ in _functions("scenario_")}):
        total += sum(_leaves(v) for k, v in sides.run(module)["upstream"].items() if k.startswith("scenario_"))
    for module in sorted({m for m, _ in _functions("crossed_")}):
        total += sum(_leaves(v) for v in sides.run_crossed(module, tmp_path_factory.mktemp("n"))["upstream"].values())
    scenarios = len(_functions("scenario_")) + len(_functions("crossed_"))
    record_property("summary", f"compat: {scenarios} scenarios, {total} observations compared")
    assert total > 0
