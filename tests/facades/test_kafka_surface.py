"""Differential: what a program observes of ``kafka`` (names, defaults, signatures, named tuple
fields, error classes, the exceptions of bad calls, and a produce/consume round trip on tansu)
under the real kafka-python and under the facade run through ``python -m confluent_kafka.compat
run``."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest

HERE = pathlib.Path(__file__).resolve().parent
PROBE = HERE / "surface_probe.py"

# Differences we keep, each with its reason. Exception texts are never compared (the wording is
# our own); only the exception class is.
ALLOWED = {
    # kafka-python records the topics before it rejects a bad listener, so a failed subscribe()
    # leaves a subscription behind; the facade checks first and changes nothing.
    "consumer_calls.subscription.returns",
    # Default texts are our own wording.
    "error_str.9",
    "errors.TransactionAbortedError.message",
}


def _run(cmd: list, env: dict) -> Any:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=str(HERE))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _flatten(value: Any, prefix: str = "") -> dict:
    if isinstance(value, dict):
        if "raises" in value:
            return {prefix: value["raises"]}
        out = {}
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list) and prefix.startswith("error_str"):
        return {f"{prefix}.{i}": v for i, v in enumerate(value)}
    return {prefix: value}


def test_surface_matches_kafka_python(kafka_bootstrap: str, peer_python: str, facade_topic) -> None:
    env = dict(os.environ)
    real = _run([peer_python, str(PROBE), kafka_bootstrap, facade_topic()],
                {k: v for k, v in env.items() if k != "PYTHONPATH"})
    src = str(HERE.parents[1] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    ours = _run([sys.executable, "-m", "confluent_kafka.compat", "run", str(PROBE), kafka_bootstrap,
                 facade_topic()], env)
    flat_real, flat_ours = _flatten(real), _flatten(ours)
    assert set(flat_real) == set(flat_ours), set(flat_real) ^ set(flat_ours)
    differ = sorted(k for k in flat_real if flat_real[k] != flat_ours[k] and k not in ALLOWED)
    assert not differ, "\n".join(f"{k}: kafka-python {flat_real[k]!r} / facade {flat_ours[k]!r}" for k in differ)
    # the allowed differences still exist (otherwise drop them from ALLOWED)
    assert all(flat_real[k] != flat_ours[k] for k in ALLOWED)
    assert len(flat_real) > 400
    assert len(real["round_trip"]["records"]) == 3 and real["round_trip"]["sent"]
