"""A real Schema Registry (Karapace) over HTTP, on the tansu broker, for the tiers that need one.

The ``registry_url`` fixture is registered by tests/conftest.py, so tests/registry and
tests/programs share one Karapace per session. Karapace's source is at
``../shared/vendor/karapace`` from the repository root (where CI has it; ``KARAPACE_HOME`` names
another place); without it the tests that ask for ``registry_url`` skip, saying so. Each session
starts one Karapace on a free loopback port with its own schemas topic and group, and stops it
at the end.
"""

from __future__ import annotations

import os
import pathlib
import socket
import subprocess
import uuid
from typing import Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# KARAPACE_HOME points elsewhere (e.g. from a git worktree, whose parent has no shared/).
KARAPACE = pathlib.Path(os.environ.get("KARAPACE_HOME") or ROOT.parent / "shared" / "vendor" / "karapace")
START = KARAPACE / "start.sh"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def registry_url(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a Karapace Schema Registry running on the session's tansu broker."""
    if not START.exists():
        pytest.skip(f"Karapace is not at {KARAPACE} (../shared/vendor/karapace): the registry tier needs it")
    pytest.importorskip("fastavro", reason="the avro extra is not installed")
    port = _free_port()
    run_dir = tmp_path_factory.mktemp("karapace")
    tag = uuid.uuid4().hex[:8]
    env = dict(os.environ, KARAPACE_RUN=str(run_dir), KARAPACE_TOPIC_NAME=f"_schemas-{tag}",
               KARAPACE_GROUP_ID=f"schema-registry-{tag}", KARAPACE_READY_TIMEOUT="180")
    started = subprocess.run(["bash", str(START), kafka_bootstrap, str(port)], env=env, capture_output=True,
                             text=True, timeout=600)
    if started.returncode != 0:
        log = run_dir / f"karapace-{port}.log"
        tail = log.read_text()[-3000:] if log.exists() else ""
        subprocess.run(["bash", str(START), "stop", str(port)], env=env, capture_output=True, timeout=60)
        pytest.fail(f"Karapace did not start:\n{started.stderr[-3000:]}\n{tail}")
    try:
        yield started.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run(["bash", str(START), "stop", str(port)], env=env, capture_output=True, timeout=60)
