"""The programs tier: programs written for upstream confluent-kafka or aiokafka, run unchanged on
this package.

Each program (quixstreams 3.28, FastStream 0.7.8, OpenTelemetry's instrumentations of the three
clients, and their dependencies, installed by scripts/install-programs.sh into ``programs/`` of
each virtualenv, on ``PYTHONPATH`` for the programs' processes only) runs as a subprocess on each
side: this project's interpreter (.venv, this worktree's ``src`` first on ``PYTHONPATH``) and the
upstream wheel's (.compat-venv, found as tests/compat does); for aiokafka and kafka-python
programs, the real libraries' (.bench-venv, "peer") and this project's under ``python -m
confluent_kafka.compat run`` ("facade"). The runs use their own topics, consumer groups and state
directories, and the tests compare what they observed. Without an interpreter, or without the
program in one of them, the tier skips, saying why.
"""
from __future__ import annotations

import os
import pathlib
import sys

import pytest

from programs_support import (FASTSTREAM_VERSION, OTEL_VERSION, QUIXSTREAMS_VERSION, ROOT, Sides,
                              upstream_python)


@pytest.fixture(scope="session")
def program_sides() -> Sides:
    return _with_program(Sides({"ours": sys.executable, "upstream": _upstream_python()}), "quixstreams",
                         QUIXSTREAMS_VERSION)


@pytest.fixture(scope="session")
def faststream_sides() -> Sides:
    """FastStream's two flavours on four sides: ``faststream.confluent`` on ours and on upstream,
    ``faststream.kafka`` on the real aiokafka 0.14 (.bench-venv) and on the aiokafka facade."""
    sides = Sides({"ours": sys.executable, "upstream": _upstream_python(), "peer": _peer_python(),
                   "facade": sys.executable})
    return _with_program(sides, "faststream", FASTSTREAM_VERSION)


@pytest.fixture(scope="session")
def otel_sides() -> Sides:
    """OpenTelemetry's instrumentations: of aiokafka and kafka-python on the real libraries
    (.bench-venv, "peer") and on the facades, of confluent-kafka on upstream and on ours."""
    sides = Sides({"peer": _peer_python(), "facade": sys.executable, "upstream": _upstream_python(),
                   "ours": sys.executable})
    for library in ("aiokafka", "kafka-python", "confluent-kafka"):
        _with_program(sides, f"opentelemetry-instrumentation-{library}", OTEL_VERSION)
    return sides


def _upstream_python() -> str:
    """The upstream wheel's interpreter (as tests/compat finds it), or skip."""
    upstream, why = upstream_python()
    if upstream is None:
        pytest.skip(why)
    return upstream


def _peer_python() -> str:
    """The interpreter of the real aiokafka (as tests/facades finds it), or skip."""
    peer = os.environ.get("FACADE_PEER_PYTHON") or str(ROOT / ".bench-venv" / "bin" / "python")
    if not pathlib.Path(peer).exists():
        pytest.skip(f"no interpreter with the real aiokafka at {peer} (make .bench-venv/.deps-stamp)")
    return peer


def _with_program(sides: Sides, distribution: str, version: str) -> Sides:
    """SIDES, once every side's programs hold DISTRIBUTION at VERSION; the tier skips otherwise."""
    for side in sides.pythons:
        found = sides.installed(side, distribution)
        if found != version:
            pytest.skip(f"{distribution} {version} is not in {sides.programs[side]} for {side} ({found}); "
                        "`make programs` installs it there (scripts/install-programs.sh)")
    return sides
