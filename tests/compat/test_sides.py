"""The tier's runner bookkeeping (conftest.Sides), with stand-in interpreters instead of the real
ones: a runner that fails fails the tests of its own module only, with what it wrote, and is never
run again (a second run would retry a flaky failure away).

The first test of the tier starts the run of every module on both sides; before this was kept
per module, a runner failing anywhere in that batch was reported as the failure of that first
test (admin::scenario_acl_calls_args), and the failing module was silently run again for its own
tests.
"""
from __future__ import annotations

import importlib.util
import pathlib
import stat
import sys
from typing import Any

import pytest

HERE = pathlib.Path(__file__).resolve().parent


def _conftest() -> Any:
    # Loaded under a private name: "conftest" may name another directory's conftest in sys.modules.
    spec = importlib.util.spec_from_file_location("_compat_conftest_under_test", HERE / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _interpreter(tmp_path: pathlib.Path, name: str, failing: str = "", sleeping: str = "") -> pathlib.Path:
    """A stand-in interpreter: ``runner.py MODULE`` prints ``{"scenario_x": [NAME, MODULE]}``,
    except that FAILING exits 3 after writing to stderr and SLEEPING sleeps; each call of it is
    logged, one line per module, in NAME.log."""
    log = tmp_path / f"{name}.log"
    script = tmp_path / name
    script.write_text(f"""#!{sys.executable}
import json, sys, time
module = sys.argv[2]
with open({str(log)!r}, "a") as log:
    log.write(module + "\\n")
if module == {failing!r}:
    sys.stderr.write("Fatal Python error: stand-in crash of " + module + "\\n")
    sys.exit(3)
if module == {sleeping!r}:
    time.sleep(30)
json.dump({{"scenario_x": [{name!r}, module]}}, sys.stdout)
""")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _calls(tmp_path: pathlib.Path, name: str) -> list[str]:
    log = tmp_path / f"{name}.log"
    return log.read_text().split() if log.exists() else []


def _sides(conftest: Any, tmp_path: pathlib.Path, upstream: pathlib.Path, bootstrap: Any = None) -> Any:
    sides = conftest.Sides(str(upstream), {}, bootstrap or (lambda: "127.0.0.1:1"))
    sides.pythons["ours"] = str(_interpreter(tmp_path, "ours"))
    return sides


def test_a_failed_runner_fails_its_own_module_once_and_is_not_run_again(tmp_path: pathlib.Path) -> None:
    conftest = _conftest()
    sides = _sides(conftest, tmp_path, _interpreter(tmp_path, "upstream", failing="topic_partition"))
    # The first module asks first, as the tier's first test does; it starts the whole batch.
    assert sides.run("admin") == {"ours": {"scenario_x": ["ours", "admin"]},
                                  "upstream": {"scenario_x": ["upstream", "admin"]}}
    for _ in range(2):  # every test of the module reports the failure
        with pytest.raises(conftest.RunFailed) as failed:
            sides.run("topic_partition")
        assert "upstream runner ['topic_partition'] exited 3" in str(failed.value)
        assert "stand-in crash of topic_partition" in str(failed.value)
    assert sides.run("surface")["upstream"] == {"scenario_x": ["upstream", "surface"]}
    with pytest.raises(conftest.RunFailed):
        sides.run_crossed("topic_partition", tmp_path)
    upstream_calls = _calls(tmp_path, "upstream")
    assert upstream_calls.count("topic_partition") == 1, upstream_calls
    modules = sorted(p.stem for p in (HERE / "scenarios").glob("[!_]*.py"))
    assert sorted(upstream_calls) == modules and sorted(_calls(tmp_path, "ours")) == modules


def test_a_runner_out_of_time_fails_its_own_module(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conftest = _conftest()
    monkeypatch.setattr(conftest, "RUN_TIMEOUT", 2)
    sides = _sides(conftest, tmp_path, _interpreter(tmp_path, "upstream", sleeping="errors"))
    assert sides.run("config")["upstream"] == {"scenario_x": ["upstream", "config"]}
    with pytest.raises(conftest.RunFailed, match=r"upstream runner \['errors'\] did not finish within 2 s"):
        sides.run("errors")
    assert _calls(tmp_path, "upstream").count("errors") == 1


def test_a_broker_that_did_not_start_fails_the_broker_modules_only(tmp_path: pathlib.Path) -> None:
    conftest = _conftest()
    starts: list[int] = []

    def broker() -> str:
        starts.append(1)
        raise RuntimeError("tansu did not listen within 15 s")

    sides = _sides(conftest, tmp_path, _interpreter(tmp_path, "upstream"), bootstrap=broker)
    broker_modules = [p.stem for p in sorted((HERE / "scenarios").glob("[!_]*.py")) if conftest.needs_broker(p.stem)]
    assert broker_modules, "no scenario module needs the broker: this test checks nothing"
    assert sides.run("admin")["ours"] == {"scenario_x": ["ours", "admin"]}
    for module in broker_modules:
        with pytest.raises(conftest.RunFailed, match="the broker for the scenarios did not start: "
                                                     "RuntimeError: tansu did not listen within 15 s"):
            sides.run(module)
    assert starts == [1]
    assert not set(broker_modules) & set(_calls(tmp_path, "upstream"))


def test_a_runner_printing_no_json_fails_its_own_module(tmp_path: pathlib.Path) -> None:
    conftest = _conftest()
    upstream = _interpreter(tmp_path, "upstream")
    noisy = "print('noise') if module == 'admin' else None\njson.dump("
    upstream.write_text(upstream.read_text().replace("json.dump(", noisy))
    sides = _sides(conftest, tmp_path, upstream)
    with pytest.raises(conftest.RunFailed, match=r"upstream runner \['admin'\] printed no JSON"):
        sides.run("admin")
    assert sides.run("config")["upstream"] == {"scenario_x": ["upstream", "config"]}
