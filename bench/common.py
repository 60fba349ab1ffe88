"""What the benchmarks in bench/ share: the broker, worker processes, medians and the table.

Every measurement runs in a worker process of its own that prints one JSON object: a Python
worker (producer_worker.py, consumer_worker.py) under this project's interpreter or upstream's,
or the native tool rdkbench (bench/native/rdkbench.c, librdkafka alone). A benchmark module
(producer.py, consumer.py) has a ``run(session)`` that starts workers through the Session and
records their results under a workload name; ``main`` starts one tansu broker on loopback, runs
the given benchmarks on it and prints one table: a row per workload and client (the median run),
with its throughput relative to upstream and to native.

Upstream has the same import name as this project, so it lives in its own virtualenv
(`make bench` creates .bench-venv) and is never imported here.
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import uuid
from typing import Callable, Iterable, List, Optional

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT / "scripts"))

from tansu_broker import TansuBroker  # noqa: E402

NATIVE_DEFAULT = ROOT / "build" / "bench" / "rdkbench"
CLIENTS = ("ours", "upstream", "native")
SLACK = 60.0  # seconds a worker process may take beyond its own --timeout (start-up, close)

# (header, key, format) of the measured columns
COLUMNS = (("msgs/s", "msgs_per_s", "{:,.0f}"), ("MB/s", "mb_per_s", "{:.1f}"),
           ("CPU s", "cpu_seconds", "{:.2f}"), ("peak RSS MB", "peak_rss_mb", "{:.0f}"),
           ("startup s", "startup_seconds", "{:.2f}"))


def parse_args(description: str, argv: Optional[List[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("-n", type=int, default=None, help="messages per run (default 1,000,000)")
    ap.add_argument("--quick", action="store_true", help="100,000 messages per run")
    ap.add_argument("--size", type=int, default=100, help="value size in bytes")
    ap.add_argument("--repeat", type=int, default=3, help="runs per workload and client; the median is shown")
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--upstream-python", default=str(ROOT / ".bench-venv" / "bin" / "python"))
    ap.add_argument("--native", default=str(NATIVE_DEFAULT),
                    help="the rdkbench binary (`make bench-native` builds it)")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on each run, seconds")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args(argv)
    args.n = args.n or (100_000 if args.quick else 1_000_000)
    if args.n < 1 or args.repeat < 1 or args.size < 0:
        ap.error("-n and --repeat must be at least 1, --size at least 0")
    for path, what in ((args.upstream_python, "upstream interpreter (make bench creates .bench-venv)"),
                       (args.native, "rdkbench (make bench-native builds it)")):
        if not os.access(path, os.X_OK):
            ap.error(f"{what} not found at {path}")
    return args


def fresh_topic(prefix: str = "bench") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def run_json(cmd: List[str], timeout: float, env: Optional[dict] = None) -> dict:
    """Run one worker to completion (killed after `timeout` s) and parse its last stdout line."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"benchmark worker did not finish within {timeout:.0f} s: {' '.join(cmd)}") from None
    if proc.returncode != 0:
        raise SystemExit(f"benchmark worker failed ({proc.returncode}): {' '.join(cmd)}\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        raise SystemExit(f"benchmark worker printed no JSON: {' '.join(cmd)}\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}") from None


def add_rates(result: dict) -> dict:
    """msgs/s and MB/s of a measurement (bytes default to messages x size)."""
    if "bytes" not in result:
        result["bytes"] = result["messages"] * result["size"]
    result["msgs_per_s"] = result["messages"] / result["seconds"]
    result["mb_per_s"] = result["bytes"] / result["seconds"] / 1e6
    return result


def median_run(results: list) -> dict:
    """The run with the median throughput (the upper one of the middle two for an even count)."""
    return sorted(results, key=lambda r: r["msgs_per_s"])[len(results) // 2]


def check_origin(result: dict, client: str) -> None:
    """Fail loudly if an interpreter imported the other project's confluent_kafka."""
    inside = pathlib.Path(result["module"]).resolve().is_relative_to(ROOT / "src")
    if inside != (client == "ours"):
        raise SystemExit(f"{client} run imported {result['module']}")


class Session:
    """The broker and settings of one benchmark invocation, and every result recorded so far."""

    def __init__(self, args: argparse.Namespace, bootstrap: str):
        self.args = args
        self.bootstrap = bootstrap
        self.runs: dict = {}  # workload -> client -> [result, ...], in the order recorded
        self.notes: List[str] = []

    @staticmethod
    def client_order(i: int) -> tuple:
        """CLIENTS rotated by i, so no client always runs first (on a fresher broker)."""
        i %= len(CLIENTS)
        return CLIENTS[i:] + CLIENTS[:i]

    def python_worker(self, client: str, script: str, argv: Iterable, extra_time: float = 0.0) -> dict:
        """Run bench/<script> under the client's interpreter; the result must come from that client."""
        python = self.args.ours_python if client == "ours" else self.args.upstream_python
        cmd = [python, str(BENCH / script), "--bootstrap", self.bootstrap,
               "--timeout", str(self.args.timeout)] + [str(a) for a in argv]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        result = run_json(cmd, self.args.timeout + extra_time + SLACK, env)
        check_origin(result, client)
        return add_rates(result) if "seconds" in result else result

    def native(self, mode: str, argv: Iterable, extra_time: float = 0.0) -> dict:
        cmd = [self.args.native, mode, "--bootstrap", self.bootstrap,
               "--timeout", str(self.args.timeout)] + [str(a) for a in argv]
        result = run_json(cmd, self.args.timeout + extra_time + SLACK)
        return add_rates(result) if "seconds" in result else result

    def record(self, workload: str, client: str, rep: int, result: dict) -> None:
        self.runs.setdefault(workload, {}).setdefault(client, []).append(result)
        print(f"  run {rep + 1}  {workload:<28} {client:<9} {result['msgs_per_s']:>13,.0f} msgs/s",
              flush=True)


def client_label(client: str, r: dict) -> str:
    name = "rdkbench" if client == "native" else r["version"]
    if r["librdkafka"] == "-":  # a client without librdkafka (aiokafka)
        return f"{client} {name}"
    return f"{client} {name} (librdkafka {r['librdkafka']})"


def print_table(session: Session) -> None:
    """A row per workload and client (the median run); msgs/s relative to upstream and to native."""
    a = session.args
    print(f"\n{a.n:,} messages x {a.size} B per run on tansu at {session.bootstrap}; "
          f"median of {a.repeat} run(s)")
    rows = []
    for workload, by_client in session.runs.items():
        med = {c: median_run(rs) for c, rs in by_client.items()}
        clients = [c for c in CLIENTS if c in med] + [c for c in med if c not in CLIENTS]
        for i, client in enumerate(clients):
            r = med[client]
            cells = [fmt.format(r[key]) for _, key, fmt in COLUMNS]
            for other in ("upstream", "native"):
                ratio = ""
                if other != client and other in med and not (client, other) == ("native", "upstream"):
                    ratio = f"{r['msgs_per_s'] / med[other]['msgs_per_s']:.2f}x"
                cells.append(ratio)
            rows.append((workload if i == 0 else "", client_label(client, r), cells))
    heads = [c[0] for c in COLUMNS] + ["vs upstream", "vs native"]
    w_work = max(len("workload"), *(len(r[0]) for r in rows))
    w_client = max(len("client"), *(len(r[1]) for r in rows))
    widths = [max(len(h), *(len(r[2][i]) for r in rows)) + 2 for i, h in enumerate(heads)]
    header = f"{'workload':<{w_work}}  {'client':<{w_client}}" + "".join(
        f"{h:>{w}}" for h, w in zip(heads, widths))
    print(header)
    print("-" * len(header))
    for workload, label, cells in rows:
        if workload and rows[0][0] != workload:
            print()
        print(f"{workload:<{w_work}}  {label:<{w_client}}" + "".join(
            f"{c:>{w}}" for c, w in zip(cells, widths)))
    print("-" * len(header))
    print("msgs/s and MB/s: higher is better; CPU s (of the timed part) and peak RSS: lower is better.\n"
          "vs upstream / vs native: msgs/s of the row over msgs/s of upstream / native.")
    for note in session.notes:
        print(note)


def main(description: str, benchmarks: List[Callable[[Session], None]],
         argv: Optional[List[str]] = None) -> int:
    args = parse_args(description, argv)
    with TansuBroker() as broker:
        print(f"tansu at {broker.bootstrap_servers}; {args.n:,} messages x {args.size} B per run, "
              f"{args.repeat} run(s) per workload and client", flush=True)
        session = Session(args, broker.bootstrap_servers)
        for bench in benchmarks:
            bench(session)
    print_table(session)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"n": args.n, "size": args.size, "runs": session.runs}, indent=2))
    return 0
