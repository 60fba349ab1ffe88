"""Fixtures of the facade tier (tests/facades): kafka-python / aiokafka programs on this package.

* ``facade_topic(partitions=1)``: creates a fresh topic on the session's tansu broker.
* ``produce_native(topic, values, partition=0, key=None, headers=None)``: writes records with the
  native producer, one batch per record.
* ``peer_python``: the interpreter of ``.bench-venv`` holding the real kafka-python/aiokafka (for
  differential checks); tests needing it skip when it is missing.
* ``run_unchanged(source, *args)``: runs a program's source, unchanged, under ``python -m
  confluent_kafka.compat run`` (in a temporary directory, at most 120 s).
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import uuid
from typing import Any, Callable, Iterable, List, Optional

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def facade_topic(kafka_bootstrap: str) -> Callable[..., str]:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": kafka_bootstrap})

    def make(partitions: int = 1) -> str:
        name = f"facade-{uuid.uuid4().hex[:16]}"
        admin.create_topics([NewTopic(name, partitions, 1)])[name].result(timeout=30)
        return name

    return make


@pytest.fixture
def produce_native(kafka_bootstrap: str) -> Callable[..., None]:
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": kafka_bootstrap, "linger.ms": 0})

    def produce(topic: str, values: Iterable[bytes], partition: int = 0, key: Optional[bytes] = None,
                headers: Optional[List[Any]] = None, timestamp: int = 0) -> None:
        # One flush per record: one record per batch, since tansu reports the end offset of a
        # partition as the end of its last batch's first record.
        for v in values:
            producer.produce(topic, v, key, partition=partition, headers=headers, timestamp=timestamp)
            assert producer.flush(30) == 0

    return produce


@pytest.fixture(scope="session")
def peer_python() -> str:
    python = os.environ.get("FACADE_PEER_PYTHON") or str(ROOT / ".bench-venv" / "bin" / "python")
    if not pathlib.Path(python).exists():
        pytest.skip(f"no interpreter with the real kafka-python and aiokafka at {python} (make .bench-venv/.deps-stamp)")
    return python


@pytest.fixture
def run_unchanged(tmp_path: pathlib.Path) -> Callable[..., "subprocess.CompletedProcess[str]"]:
    def run(source: str, *args: str) -> "subprocess.CompletedProcess[str]":
        (tmp_path / "app.py").write_text(source)
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        return subprocess.run([sys.executable, "-m", "confluent_kafka.compat", "run", "app.py", *args],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    return run
