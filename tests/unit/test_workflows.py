"""The GitHub Actions workflows parse and keep the jobs the project relies on: the test suite
on push, the CPython 3.10-3.15 matrix (free-threaded 3.14t and 3.15t too), and wheels for every platform plus the sdist."""
from __future__ import annotations

import pathlib
from typing import Any, Dict, List

import pytest
import yaml  # PyYAML, in the test extra

WORKFLOWS = pathlib.Path(__file__).resolve().parents[2] / ".github" / "workflows"
PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t", "3.15", "3.15t"]


def load(name: str) -> Dict[Any, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text())
    assert isinstance(data, dict) and isinstance(data.get("jobs"), dict), name
    return data


def triggers(wf: Dict[Any, Any]) -> Any:
    # YAML 1.1 reads a bare `on:` key as the boolean True.
    return wf.get("on", wf.get(True))


def run_lines(job: Dict[str, Any]) -> List[str]:
    return [line.strip() for step in job["steps"] for line in str(step.get("run", "")).splitlines()]


def uses(job: Dict[str, Any]) -> List[str]:
    return [str(step["uses"]) for step in job["steps"] if "uses" in step]


@pytest.mark.parametrize("name", ["ci.yml", "wheels.yml"])
def test_workflow_runs_on_push_with_bounded_jobs(name: str) -> None:
    wf = load(name)
    assert "push" in triggers(wf)
    for job_id, job in wf["jobs"].items():
        assert job.get("runs-on"), job_id
        assert job.get("steps"), job_id
        assert "actions/checkout@v4" in uses(job), job_id
        if "timeout-minutes" in job:
            assert 0 < int(job["timeout-minutes"]) <= 120, job_id


def test_ci_runs_make_test_on_debian_and_ubuntu() -> None:
    job = load("ci.yml")["jobs"]["test"]
    images = [entry["image"] for entry in job["strategy"]["matrix"]["include"]]
    assert any("bookworm" in i or "debian" in i for i in images), images
    assert any(i.startswith("ubuntu") for i in images), images
    assert any(line.startswith("make test") for line in run_lines(job))


def test_ci_runs_unit_and_mock_tiers_on_every_supported_python() -> None:
    job = load("ci.yml")["jobs"]["matrix"]
    assert job["strategy"]["matrix"]["python"] == PYTHONS
    assert "actions/setup-python@v5" in uses(job)
    assert any("tests/unit" in line and "tests/mock" in line for line in run_lines(job))


def test_wheels_builds_every_platform_with_cibuildwheel() -> None:
    jobs = load("wheels.yml")["jobs"]
    wheels = jobs["wheels"]
    targets = {(e["os"], e["archs"]) for e in wheels["strategy"]["matrix"]["include"]}
    archs = {a for _, a in targets}
    assert {"x86_64", "aarch64", "arm64", "AMD64"} <= archs
    oses = {o.split("-")[0] for o, _ in targets}
    assert {"ubuntu", "macos", "windows"} <= oses
    assert any("cibuildwheel" in line for line in run_lines(wheels))
    assert any(u.startswith("actions/upload-artifact@") for u in uses(wheels))


def test_wheels_builds_and_uploads_the_sdist() -> None:
    sdist = load("wheels.yml")["jobs"]["sdist"]
    assert any("python -m build --sdist" in line for line in run_lines(sdist))
    upload = [s for s in sdist["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
    assert upload and upload[0]["with"]["path"].endswith(".tar.gz")


def test_wheels_checks_the_local_manylinux_wheel() -> None:
    job = load("wheels.yml")["jobs"]["manylinux-local"]
    lines = run_lines(job)
    assert any(line.startswith("make wheel") for line in lines)
    assert any("tests/packaging" in line for line in lines)


def test_pinned_tool_versions_match_pyproject() -> None:
    # The cibuildwheel the workflow installs is the one the packaging extra pins.
    pyproject = (WORKFLOWS.parents[1] / "pyproject.toml").read_text()
    pins = [line for line in run_lines(load("wheels.yml")["jobs"]["wheels"]) if "cibuildwheel==" in line]
    assert pins
    version = pins[0].split("cibuildwheel==", 1)[1].split("'")[0]
    assert f'"cibuildwheel=={version};' in pyproject
