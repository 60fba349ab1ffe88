"""A parallel consumer process SIGKILLed mid-run four times and restarted, then run until every
record finished, on the mock cluster (the cluster in this process, the consumers in child processes):
no record lost, within each run each key's records one at a time and in offset order, the group's
final commits at the partitions' ends; and how many records ran twice, against pyrallel-consumer
1.0.0 (asyncio engine, upstream confluent-kafka) killed at the same points.

The handler (tests/parallel_child.py) sleeps 5 ms, 250 ms for every 25th offset of a partition: a
slow call now and then holds a partition's commit point while the records above it finish, the
finished records a restarted member should skip. The kills come after a number of records
finished in the run (300, 700, 500, 900), the same for both consumers.
"""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable, Dict, Iterator, List, Set, Tuple

import pytest

from cli_helpers import wait_for
from confluent_kafka.testing import MockCluster
from parallel_support import Recorder, committed, produce_keyed

TESTS = pathlib.Path(__file__).resolve().parents[1]
CHILD = TESTS / "parallel_child.py"
PYRALLEL_VENV = TESTS.parent / ".pyrallel-venv"
PYRALLEL_PYTHON = PYRALLEL_VENV / "bin" / "python"

PARTITIONS = 4
COUNT = 4000
KEYS = 100
KILLS = (300, 700, 500, 900)  # records each killed run finishes before its SIGKILL
PAUSE = "5:250:25"  # the handler's sleep, ms: 5, and 250 for every 25th offset
RUN_TIMEOUT = 60.0  # one run, group join included (about 3 s, 5 s after a kill)
STOP_TIMEOUT = 30.0  # the last run's exit after SIGTERM


def logged(line: str) -> Tuple[str, Any]:
    """A line of a child's log: the event, and the record with the Message methods the Recorder reads."""
    what, partition, offset, key = line.split()
    return what, SimpleNamespace(partition=lambda: int(partition), offset=lambda: int(offset), key=lambda: key)


def read_log(path: pathlib.Path) -> List[Tuple[str, Any]]:
    return [logged(line) for line in path.read_text().splitlines()] if path.exists() else []


def finished(logs: List[pathlib.Path]) -> Set[Tuple[int, int]]:
    return {(m.partition(), m.offset()) for log in logs for what, m in read_log(log) if what == "end"}


@dataclass
class Outcome:
    """What one consumer did over the five runs."""

    kind: str
    ends: Dict[int, int]
    committed: List[Tuple[int, int]]
    seconds: float
    # One recorder per run (overlaps and order within it); one over all runs (what ran, how often).
    runs: List[Recorder] = field(default_factory=list)
    overall: Recorder = field(default_factory=Recorder)

    def replay(self, logs: List[pathlib.Path]) -> None:
        for log in logs:
            run = Recorder("key")
            for what, record in read_log(log):
                if what == "start":
                    run.start(record)
                else:
                    run.end(record)
                    self.overall.end(record)
            self.runs.append(run)

    @property
    def twice(self) -> int:
        return self.overall.twice()

    @property
    def killed_runs_finished(self) -> int:
        return sum(len(run.runs) for run in self.runs[:-1])

    def summary(self) -> str:
        return (f"{self.kind}: {self.twice} records processed twice (killed runs finished "
                f"{self.killed_runs_finished}), {self.seconds:.1f} s for the five runs")


def child_env(kind: str) -> Dict[str, str]:
    """The environment without this suite's broker, and for pyrallel-consumer without anything its
    settings read (KAFKA_*, PARALLEL_CONSUMER_*, ...) or this project's paths."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KAFKA_")}
    if kind == "pyrallel":
        env = {k: v for k, v in env.items() if not k.startswith(
            ("PARALLEL_CONSUMER_", "EXECUTION_", "PROCESS_", "METRICS_", "PYTHON", "VIRTUAL_ENV"))}
    return env


def stderr_tail(path: pathlib.Path) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-20:]) if path.exists() else ""


def run_killed(cluster: MockCluster, kind: str, python: str, workdir: pathlib.Path) -> Outcome:
    """Four runs SIGKILLed at KILLS, a fifth until every record finished; every child stopped."""
    bs = cluster.bootstrap_servers
    topic = f"killed-{kind}-{uuid.uuid4().hex[:8]}"
    cluster.create_topic(topic, partitions=PARTITIONS)
    ends = produce_keyed(bs, topic, COUNT, keys=KEYS, partitions=PARTITIONS)
    group = f"g-{topic}"
    logs: List[pathlib.Path] = []
    codes: List[int] = []
    started = time.monotonic()
    for run, kill_at in enumerate(KILLS + (0,)):
        logs.append(workdir / f"run{run}.log")
        err = workdir / f"run{run}.stderr"
        with open(err, "wb") as stderr:
            proc = subprocess.Popen([python, str(CHILD), kind, bs, topic, group, str(logs[-1]), str(kill_at), PAUSE],
                                    cwd=workdir, env=child_env(kind), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            if kill_at:
                codes.append(proc.wait(RUN_TIMEOUT))
            else:
                wait_for(lambda: len(finished(logs)) >= COUNT or proc.poll() is not None, RUN_TIMEOUT,
                         f"{kind}: every record finished")
                proc.send_signal(signal.SIGTERM)
                codes.append(proc.wait(STOP_TIMEOUT))
        except (subprocess.TimeoutExpired, AssertionError) as exc:
            raise AssertionError(f"{kind} run {run}: {exc}\n{stderr_tail(err)}") from None
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert codes[-1] == (-signal.SIGKILL if kill_at else 0), \
            f"{kind} run {run} exited with {codes[-1]}\n{stderr_tail(err)}"
    outcome = Outcome(kind, ends, [(p.partition, p.offset) for p in committed(bs, group, topic, PARTITIONS)],
                      time.monotonic() - started)
    outcome.replay(logs)
    return outcome


@pytest.fixture(scope="module")
def killed(tmp_path_factory: Any) -> Iterator[Callable[[str], Outcome]]:
    """``killed(kind)``: the outcome of the scenario for "ours" or "pyrallel", run once per module."""
    outcomes: Dict[str, Any] = {}
    with MockCluster(num_brokers=3) as cluster:
        def get(kind: str) -> Outcome:
            if kind not in outcomes:
                python = sys.executable if kind == "ours" else str(PYRALLEL_PYTHON)
                try:
                    outcomes[kind] = run_killed(cluster, kind, python, tmp_path_factory.mktemp(kind))
                except Exception as exc:  # kept, so a test that needs it again fails the same way
                    outcomes[kind] = exc
            if isinstance(outcomes[kind], Exception):
                raise outcomes[kind]
            return outcomes[kind]
        yield get


def skip_without_pyrallel() -> None:
    if not PYRALLEL_PYTHON.exists():
        pytest.skip(f"{PYRALLEL_PYTHON} is missing: `make pyrallel-venv` builds it (Python >= 3.12 with "
                    "pyrallel-consumer 1.0.0 and upstream confluent-kafka)")
    probe = subprocess.run([str(PYRALLEL_PYTHON), "-c", "import pyrallel_consumer, confluent_kafka"],
                           capture_output=True, text=True, timeout=60, env=child_env("pyrallel"))
    if probe.returncode != 0:
        pytest.skip(f"{PYRALLEL_PYTHON} cannot import pyrallel_consumer: {probe.stderr.strip()[-300:]}")


def assert_no_loss_and_key_order(outcome: Outcome) -> None:
    assert outcome.overall.missing(outcome.ends) == [], \
        f"{outcome.kind}: records never finished: {outcome.overall.missing(outcome.ends)[:10]}"
    for number, run in enumerate(outcome.runs):
        assert run.overlaps == [], f"{outcome.kind} run {number}: two records of one key at once: {run.overlaps[:5]}"
        assert run.out_of_order() == [], \
            f"{outcome.kind} run {number}: keys whose records finished out of offset order: {run.out_of_order()[:5]}"


def test_killed_four_times_loses_nothing_keeps_key_order_and_commits_the_ends(killed, record_property) -> None:
    ours = killed("ours")
    record_property("summary", ours.summary())
    assert_no_loss_and_key_order(ours)
    assert ours.committed == sorted(ours.ends.items())
    assert [len(run.runs) for run in ours.runs[:-1]] == list(KILLS), "a run finished other records than its kill point"


def test_a_restart_repeats_little_of_what_the_killed_runs_finished(killed) -> None:
    ours = killed("ours")
    assert ours.twice < ours.killed_runs_finished // 10, ours.summary()


def test_pyrallel_consumer_killed_at_the_same_points_loses_nothing(killed, record_property) -> None:
    skip_without_pyrallel()
    theirs = killed("pyrallel")
    record_property("summary", theirs.summary())
    assert_no_loss_and_key_order(theirs)


def test_a_third_as_many_records_processed_twice_as_pyrallel_consumer(killed, record_property) -> None:
    skip_without_pyrallel()
    ours, theirs = killed("ours"), killed("pyrallel")
    record_property("summary", f"processed twice after {len(KILLS)} SIGKILLs: ours {ours.twice}, "
                               f"pyrallel-consumer {theirs.twice}")
    # A third, not just fewer: how many run twice depends on where the kills fall among commits
    # and slow records (pyrallel-consumer's count has varied from 376 to 1,039 over the same kills).
    assert ours.twice * 3 < theirs.twice, f"{ours.summary()}; {theirs.summary()}"
