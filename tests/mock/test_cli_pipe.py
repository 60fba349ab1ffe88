"""``produce | consume`` with no cluster configured: produce serves an embedded mock cluster over
the pipe and consume reads it back, exactly as a shell user types it."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import time
from typing import Any

import pytest

from cli_helpers import CLI, PY, SCRIPT, cli_env, lines, run, shell


def test_readme_pipe_with_the_console_script() -> None:
    assert SCRIPT.is_file(), "the confluent-kafka console script is not installed"
    r = shell("seq 5 | confluent-kafka produce -t demo | confluent-kafka consume -t demo")
    assert r.returncode == 0, r.stderr.decode()
    assert lines(r.stdout) == ["1", "2", "3", "4", "5"]
    assert "produced 5 messages to demo" in r.stderr.decode()


def test_readme_pipe_with_python_dash_m() -> None:
    r = shell('seq 5 | "$PY" -m confluent_kafka produce -t demo | "$PY" -m confluent_kafka consume -t demo')
    assert r.returncode == 0, r.stderr.decode()
    assert lines(r.stdout) == ["1", "2", "3", "4", "5"]


def test_many_messages_over_several_partitions_arrive_exactly_once() -> None:
    # Keyed, so the partitioner spreads them by hash (keyless ones stick to one partition per batch).
    r = shell("seq 20000 | sed 's/.*/k&:&/' | confluent-kafka produce -q -t big --partitions 3 -K : "
              "| confluent-kafka consume -q -t big -f '%p %s\\n'")
    assert r.returncode == 0, r.stderr.decode()
    got = [tuple(map(int, line.split())) for line in lines(r.stdout)]
    assert sorted(v for _, v in got) == list(range(1, 20001))
    assert {p for p, _ in got} == {0, 1, 2}
    for p in range(3):  # each partition's messages come in the order they were produced
        values = [v for q, v in got if q == p]
        assert values == sorted(values)


def test_keys_headers_and_format_tokens() -> None:
    r = shell("printf 'a:1\\nb:2\\nnokey\\n' | confluent-kafka produce -q -t kv -K : -H src=cli -H n=1 "
              "| confluent-kafka consume -q -t kv --null '<null>' -f '%t[%p]@%o %k=%s %h %K %S\\n'")
    assert r.returncode == 0, r.stderr.decode()
    assert lines(r.stdout) == [
        "kv[0]@0 a=1 src=cli,n=1 1 1",
        "kv[0]@1 b=2 src=cli,n=1 1 1",
        "kv[0]@2 <null>=nokey src=cli,n=1 -1 5",
    ]


def test_consume_key_delimiter_and_json_output() -> None:
    r = shell("printf 'k1=v1\\n' | confluent-kafka produce -q -t j -K = | confluent-kafka consume -q -t j -K ' -> '")
    assert lines(r.stdout) == ["k1 -> v1"], r.stderr.decode()
    r = shell("printf 'k=\\xff\\n' | confluent-kafka produce -q -t j -K = -H h=x | confluent-kafka consume -q -t j -J")
    assert r.returncode == 0, r.stderr.decode()
    (obj,) = [json.loads(line) for line in lines(r.stdout)]
    assert obj["key"] == "k" and obj["value"] is None and obj["value_b64"] == "/w=="
    assert obj["headers"] == [{"name": "h", "value": "x"}]
    assert (obj["topic"], obj["partition"], obj["offset"]) == ("j", 0, 0) and obj["timestamp"] > 0


def test_custom_delimiters_and_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f1 = tmp_path / "a.txt"
    f1.write_bytes(b"x;y;z")
    f2 = tmp_path / "b.bin"
    f2.write_bytes(b"whole\nfile\n")
    r = shell(f"confluent-kafka produce -q -t d -D ';' {f1} | confluent-kafka consume -q -t d -D '|'")
    assert r.stdout == b"x|y|z|", r.stderr.decode()
    r = shell(f"confluent-kafka produce -q -t d --whole-file {f2} {f2} | confluent-kafka consume -q -t d -J")
    assert [json.loads(line)["value"] for line in lines(r.stdout)] == ["whole\nfile\n"] * 2


def test_empty_input_ends_cleanly() -> None:
    r = shell("printf '' | confluent-kafka produce -t empty | confluent-kafka consume -t empty")
    assert r.returncode == 0 and r.stdout == b"", r.stderr.decode()
    assert "consumed 0 messages" in r.stderr.decode()


def test_consume_count_and_a_reader_that_stops_early() -> None:
    r = shell("seq 100 | confluent-kafka produce -q -t c | confluent-kafka consume -q -t c -c 3")
    assert (r.returncode, lines(r.stdout)) == (0, ["1", "2", "3"]), r.stderr.decode()
    # `head` closes the pipe after two lines; every command still exits 0 (pipefail is on).
    r = shell("seq 5000 | confluent-kafka produce -q -t h | confluent-kafka consume -q -t h | head -2")
    assert (r.returncode, lines(r.stdout)) == (0, ["1", "2"]), r.stderr.decode()


def test_produce_keeps_its_cluster_until_the_reader_exits() -> None:
    """The producing side has delivered everything but must not exit (taking the cluster with it)
    while the reader is still reading."""
    r_fd, w_fd = os.pipe()
    producer = subprocess.Popen(CLI + ["produce", "-q", "-t", "slow"], stdin=subprocess.PIPE, stdout=w_fd,
                                stderr=subprocess.PIPE, env=cli_env())
    os.close(w_fd)
    try:
        assert producer.stdin is not None
        producer.stdin.write(b"one\ntwo\n")
        producer.stdin.close()
        reader = os.fdopen(r_fd, "rb")
        first = reader.readline()
        assert first.startswith(b"%confluent-kafka mock-cluster 127.0.0.1:"), first
        assert reader.readline() == b"%confluent-kafka produced 2\n"
        time.sleep(1.0)
        assert producer.poll() is None, "produce exited while its reader was still there"
        # A consumer connecting now (after the producer finished) still finds every message.
        bootstrap = first.split()[-1].decode()
        r = run(["consume", "-q", "-b", bootstrap, "-t", "slow", "-e"])
        assert (r.returncode, lines(r.stdout)) == (0, ["one", "two"]), r.stderr.decode()
        reader.close()
        assert producer.wait(30) == 0
    finally:
        if producer.poll() is None:
            producer.kill()
            producer.wait(10)
        if producer.stderr:
            producer.stderr.close()


def test_consume_fails_when_the_producer_vanishes() -> None:
    r_fd, w_fd = os.pipe()
    producer = subprocess.Popen(CLI + ["produce", "-q", "-t", "gone"], stdin=subprocess.PIPE, stdout=w_fd,
                                stderr=subprocess.DEVNULL, env=cli_env())
    os.close(w_fd)
    consumer = subprocess.Popen(CLI + ["consume", "-q", "-t", "gone"], stdin=r_fd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=cli_env())
    os.close(r_fd)
    try:
        assert producer.stdin is not None
        producer.stdin.write(b"a\n")
        producer.stdin.flush()
        time.sleep(2.0)  # the consumer has found the cluster and is waiting for more
        producer.kill()  # stdin never ended: the producer never said it was done
        out, err = consumer.communicate(timeout=60)
        assert consumer.returncode == 1, err.decode()
        assert b"ended without finishing" in err
    finally:
        for p in (producer, consumer):
            if p.poll() is None:
                p.kill()
            p.wait(10)
        if producer.stdin:
            producer.stdin.close()


HANG = 300.0  # seconds: a hang guard only (an ASan build on a loaded machine starts slowly)

# Starts bash with SIGINT at its default, as a terminal starts a shell. A test run started in the
# background by a non-interactive shell (say `make sanitize &`) hands its children SIGINT
# ignored; bash cannot undo that for the commands it starts, and Python leaves it ignored, so
# neither end of the pipeline would see the Ctrl-C.
WITH_DEFAULT_SIGINT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                       "os.execvp('bash', ['bash', '-c', sys.argv[1]])")


def _readline(stream: Any, timeout: float) -> bytes:
    """One line from ``stream`` (a pipe), or b"" when none came within ``timeout`` s."""
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else b""


def test_interrupting_the_pipeline_stops_both_with_130() -> None:
    """Ctrl-C reaches every command of the pipeline (one process group); both exit 130.

    The signal goes out once both ends are mid-stream: the consumer has printed the message the
    producer produced, and the producer is reading its input, which stays open until both have
    exited. So nothing but the signal can end them (closing the input would let a pipeline that
    missed the signal finish normally and exit 0 0)."""
    env = cli_env(PY=PY)
    script = ('"$PY" -m confluent_kafka produce -q -t int | "$PY" -m confluent_kafka consume -q -t int; '
              'echo "status ${PIPESTATUS[*]}" >&2')
    proc = subprocess.Popen([PY, "-c", WITH_DEFAULT_SIGINT, script], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(b"x\n")
        proc.stdin.flush()
        first = _readline(proc.stdout, HANG)
        assert first == b"x\n", (first, proc.poll())
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the pipeline was still running {HANG:g} s after SIGINT")
        err = proc.stderr.read().decode()
        assert "status 130 130" in err, err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                f.close()


def test_produce_without_a_reader_explains_where_the_messages_went(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "out"
    r = shell(f"seq 3 | confluent-kafka produce -t alone > {out}")
    assert r.returncode == 0, r.stderr.decode()
    assert out.read_bytes() == b""
    err = r.stderr.decode()
    assert "embedded mock cluster" in err and "confluent-kafka consume -t alone" in err


@pytest.mark.parametrize("stdin", [None, b"just some text\n"])
def test_consume_without_any_cluster_is_a_usage_error(stdin: bytes) -> None:
    r = run(["consume", "-t", "x"], input=stdin)
    assert r.returncode == 2
    err = r.stderr.decode()
    assert "no cluster to talk to" in err and "-b HOST:PORT" in err and "KAFKA_BOOTSTRAP_SERVERS" in err
