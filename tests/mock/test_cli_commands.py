"""Every subcommand through a separate process against ``confluent-kafka mock``: start points,
stop conditions, consumer groups, topics and groups reports, bench, exit codes."""

from __future__ import annotations

import json
from typing import Iterator, List

import pytest

from cli_helpers import MockServer, lines, run


@pytest.fixture
def server() -> Iterator[MockServer]:
    s = MockServer("--topic", "three:3", "--topic", "one")
    try:
        yield s
    finally:
        assert s.stop() == 0  # SIGTERM is the normal way to stop it


def produce(server: MockServer, topic: str, values: List[str], *extra: str) -> None:
    r = run(["produce", "-q", "-b", server.bootstrap, "-t", topic, *extra], input="".join(v + "\n" for v in values).encode())
    assert r.returncode == 0, r.stderr.decode()


def consume(server: MockServer, *args: str) -> List[str]:
    r = run(["consume", "-q", "-b", server.bootstrap, *args])
    assert r.returncode == 0, r.stderr.decode()
    return lines(r.stdout)


def test_mock_prints_its_address_and_stops_on_sigterm(server: MockServer) -> None:
    assert server.bootstrap.startswith("127.0.0.1:")
    r = run(["topics", "list", "--json", "-b", server.bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    assert json.loads(r.stdout) == [{"topic": "one", "partitions": 1}, {"topic": "three", "partitions": 3}]


def test_mock_for_seconds_exits_by_itself() -> None:
    r = run(["mock", "--for", "0.5", "-q"])
    assert r.returncode == 0 and lines(r.stdout)[0].startswith("127.0.0.1:")


def test_bootstrap_from_the_environment(server: MockServer) -> None:
    from cli_helpers import cli_env

    r = run(["produce", "-q", "-t", "one"], input=b"env\n", env=cli_env(KAFKA_BOOTSTRAP_SERVERS=server.bootstrap))
    assert r.returncode == 0, r.stderr.decode()
    r = run(["consume", "-q", "-t", "one", "-e"], env=cli_env(KAFKA_BOOTSTRAP_SERVERS=server.bootstrap))
    assert lines(r.stdout) == ["env"]


def test_start_points_and_exit_at_end(server: MockServer) -> None:
    produce(server, "one", [str(i) for i in range(10)])
    assert consume(server, "-t", "one", "-e") == [str(i) for i in range(10)]
    assert consume(server, "-t", "one", "-e", "-o", "7") == ["7", "8", "9"]
    assert consume(server, "-t", "one", "-e", "-o", "-2") == ["8", "9"]
    assert consume(server, "-t", "one", "-e", "-o", "-50") == [str(i) for i in range(10)]
    assert consume(server, "-t", "one", "-e", "-o", "end") == []
    assert consume(server, "-t", "one", "-c", "4", "-o", "beginning") == ["0", "1", "2", "3"]


def test_partition_selection_and_idle_timeout(server: MockServer) -> None:
    for p in range(3):
        produce(server, "three", [f"p{p}-{i}" for i in range(3)], "-p", str(p))
    assert consume(server, "-t", "three", "-p", "1", "-e") == ["p1-0", "p1-1", "p1-2"]
    got = consume(server, "-t", "three", "-p", "0", "-p", "2", "--idle-timeout", "2")
    assert sorted(got) == [f"p{p}-{i}" for p in (0, 2) for i in range(3)]
    r = run(["consume", "-b", server.bootstrap, "-t", "three", "-p", "7"])
    assert r.returncode == 1 and "has no partition 7" in r.stderr.decode()


def test_missing_topic_is_an_error(server: MockServer) -> None:
    r = run(["consume", "-b", server.bootstrap, "-t", "no-such-topic", "-e"])
    assert r.returncode == 1
    assert "topic no-such-topic does not exist" in r.stderr.decode()


def test_group_mode_commits_and_groups_reports_lag(server: MockServer) -> None:
    produce(server, "three", [str(i) for i in range(30)])
    # The mock cluster waits out a departed member's session before it rebalances: keep it short.
    short = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=1000"]
    got = consume(server, "-t", "three", "-G", "readers", "-c", "12", *short)
    assert len(got) == 12
    r = run(["groups", "lag", "readers", "-t", "three", "--json", "-b", server.bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    lag = json.loads(r.stdout)
    assert lag["group"] == "readers"
    assert [p["partition"] for p in lag["partitions"]] == [0, 1, 2]
    assert sum(p["end"] for p in lag["partitions"]) == 30
    # What was consumed was committed (at close); the lag is what is left.
    assert lag["total_lag"] == 30 - sum(p["committed"] or 0 for p in lag["partitions"])
    assert 30 - 12 <= lag["total_lag"] < 30
    # A second member of the group carries on where the first stopped: nothing twice.
    rest = consume(server, "-t", "three", "-G", "readers", "-e", *short)
    assert sorted(map(int, got + rest)) == list(range(30))
    r = run(["groups", "lag", "readers", "-t", "three", "-b", server.bootstrap])
    assert r.returncode == 0 and "total lag 0" in r.stdout.decode()
    r = run(["groups", "offsets", "readers", "-t", "three", "-b", server.bootstrap])
    assert r.returncode == 0
    table = lines(r.stdout)
    assert table[0].split() == ["TOPIC", "PARTITION", "COMMITTED"] and len(table) == 4


def test_group_mode_rejects_absolute_offsets(server: MockServer) -> None:
    r = run(["consume", "-b", server.bootstrap, "-t", "one", "-G", "g", "-o", "5"])
    assert r.returncode == 2 and "with -G only" in r.stderr.decode()


def test_topics_describe_shows_partitions_and_offsets(server: MockServer) -> None:
    produce(server, "three", ["a", "b"], "-p", "2")
    r = run(["topics", "describe", "three", "--json", "-b", server.bootstrap])
    assert r.returncode == 0, r.stderr.decode()
    (d,) = json.loads(r.stdout)
    assert d["topic"] == "three"
    assert [(p["partition"], p["low"], p["high"], p["messages"]) for p in d["partitions"]] == [
        (0, 0, 0, 0), (1, 0, 0, 0), (2, 0, 2, 2)]
    assert all(p["leader"] == 1 and p["replicas"] == [1] for p in d["partitions"])
    r = run(["topics", "describe", "three", "nope", "-b", server.bootstrap])
    assert r.returncode == 1
    assert "three" in r.stdout.decode() and "topic nope does not exist" in r.stderr.decode()


def test_admin_requests_the_mock_cannot_answer_fail_cleanly(server: MockServer) -> None:
    r = run(["topics", "create", "new", "-b", server.bootstrap, "--timeout", "2"])
    assert r.returncode == 1
    assert "topic new:" in r.stderr.decode() and "Timed out" in r.stderr.decode()
    r = run(["groups", "list", "-b", server.bootstrap])
    assert r.returncode == 1 and "not supported" in r.stderr.decode()


def test_bench_against_a_cluster_and_embedded(server: MockServer) -> None:
    r = run(["bench", "-n", "3000", "-s", "50", "--json", "-b", server.bootstrap, "-t", "three"])
    assert r.returncode == 0, r.stderr.decode()
    res = json.loads(r.stdout)["results"]
    assert [(x["phase"], x["messages"]) for x in res] == [("produce", 3000), ("consume", 3000)]
    assert res[0]["mb"] == pytest.approx(3000 * 50 / 1e6)
    r = run(["bench", "-n", "2000"])
    assert r.returncode == 0, r.stderr.decode()
    out = lines(r.stdout)
    assert out[0].split() == ["PHASE", "MESSAGES", "MB", "SECONDS", "MSGS/S", "MB/S"]
    assert out[1].split()[:2] == ["produce", "2000"] and out[2].split()[:2] == ["consume", "2000"]
    assert "embedded mock cluster" in r.stderr.decode()


@pytest.mark.parametrize("args, message", [
    (["produce", "-t", "x", "-D", ""], "delimiter must not be empty"),
    (["produce", "-t", "x", "-H", "novalue"], "expected NAME=VALUE"),
    (["produce", "-t", "x", "/no/such/file"], "cannot read /no/such/file"),
    (["consume", "-t", "x", "-b", "127.0.0.1:1", "-f", "%q"], "unknown format token %q"),
    (["consume", "-t", "x", "-b", "127.0.0.1:1", "-o", "soon"], "-o: expected"),
    (["consume", "-t", "x", "-b", "127.0.0.1:1", "-X", "nonsense"], "expected KEY=VALUE"),
    (["consume", "-t", "x", "-b", "127.0.0.1:1", "-F", "/no/such/file"], "cannot read config file"),
    (["mock", "--topic", "bad:0"], "expected NAME or NAME:PARTITIONS"),
    (["topics"], "required"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_arguments_exit_2_with_a_message(args: List[str], message: str) -> None:
    r = run(args)
    assert r.returncode == 2, (r.returncode, r.stderr.decode())
    assert message in r.stderr.decode()


def test_unreachable_broker_is_exit_1_with_a_hint() -> None:
    r = run(["topics", "list", "-b", "127.0.0.1:1", "--timeout", "2"])
    assert r.returncode == 1
    assert "is a Kafka broker listening at 127.0.0.1:1?" in r.stderr.decode()
    assert "%3|" not in r.stderr.decode()  # no raw librdkafka log lines


def test_bad_client_property_is_exit_1(server: MockServer) -> None:
    r = run(["consume", "-b", server.bootstrap, "-t", "one", "-X", "no.such.property=1"])
    assert r.returncode == 1 and "no.such.property" in r.stderr.decode()


def test_config_file(server: MockServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    conf = tmp_path / "client.properties"
    conf.write_text(f"# comment\nbootstrap.servers={server.bootstrap}\nclient.id = from-file\n")
    produce(server, "one", ["cf"])
    r = run(["consume", "-q", "-F", str(conf), "-b", server.bootstrap, "-t", "one", "-e"])
    assert (r.returncode, lines(r.stdout)) == (0, ["cf"]), r.stderr.decode()


def test_version_and_help() -> None:
    r = run(["--version"])
    assert r.returncode == 0 and r.stdout.decode().startswith("confluent-kafka ")
    for cmd in ("produce", "consume", "topics", "groups", "bench", "mock"):
        r = run([cmd, "--help"])
        assert r.returncode == 0 and b"usage: confluent-kafka " + cmd.encode() in r.stdout
    assert b"exit status" in run(["consume", "--help"]).stdout
    assert b"seq 5 | confluent-kafka produce -t demo | confluent-kafka consume -t demo" in run(["--help"]).stdout


def test_sigterm_stops_a_consumer_with_143(server: MockServer) -> None:
    import subprocess

    from cli_helpers import CLI, cli_env

    produce(server, "one", ["x"])
    proc = subprocess.Popen(CLI + ["consume", "-q", "-b", server.bootstrap, "-t", "one"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env())
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"x\n"
        proc.terminate()
        assert proc.wait(30) == 143
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for f in (proc.stdout, proc.stderr):
            if f:
                f.close()
