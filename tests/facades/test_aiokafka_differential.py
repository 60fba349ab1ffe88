"""The same aiokafka calls observed under the real aiokafka 0.14 and under the facade
(tests/facades/aiokafka_scenarios.py, no broker): what they return and what they raise."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any, Dict

import pytest

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"

# Where the facade differs on purpose: observation -> (aiokafka's, the facade's, why).
DELIBERATE = {
    "seek_unassigned": ({"raised": "AttributeError"}, {"raised": "IllegalStateError"},
                        "aiokafka fails on its own missing state before start(); the facade says "
                        "what is wrong, with the error aiokafka raises once started"),
}
# ConsumerRecord keeps its fields in slots (made in C at a third of the cost): no attribute
# that is not a field, and vars(record) is a copy of the fields.
for _made in ("record_made", "record_consumed"):
    DELIBERATE[_made + "_set_extra"] = ({"type": "NoneType"}, {"raised": "AttributeError"}, "fields in slots")
    DELIBERATE[_made + "_dict_write"] = (True, False, "vars(record) is a copy of the slots")


def _observe(python: str, *args: str) -> Dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if "facade" in args:
        env["PYTHONPATH"] = str(SRC)
    done = subprocess.run([python, str(HERE / "aiokafka_scenarios.py"), *args], capture_output=True, text=True,
                          timeout=120, cwd="/", env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    result: Dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _compare(real: Dict[str, Any], ours: Dict[str, Any]) -> None:
    assert set(real) == set(ours)
    for key in sorted(real):
        if key in DELIBERATE:
            theirs, mine, _why = DELIBERATE[key]
            assert (real[key], ours[key]) == (theirs, mine), key
            continue
        assert ours[key] == real[key], key


def test_facade_observes_what_aiokafka_does(peer_python: str) -> None:
    real = _observe(peer_python)
    ours = _observe(sys.executable, "facade")
    assert len(real) >= 40
    _compare(real, ours)


@pytest.mark.integration
def test_facade_observes_what_aiokafka_does_through_a_broker(kafka_bootstrap: str, unique_topic: str,
                                                            peer_python: str) -> None:
    real = _observe(peer_python, "--bootstrap", kafka_bootstrap, "--topic", unique_topic + "-real")
    ours = _observe(sys.executable, "facade", "--bootstrap", kafka_bootstrap, "--topic", unique_topic + "-facade")
    assert len(real) >= 70
    _compare(real, ours)
