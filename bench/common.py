"""What the benchmarks in bench/ share: the broker, worker processes, medians and the table.

Every measurement runs in a worker process of its own that prints one JSON object: a Python
worker (producer_worker.py, consumer_worker.py) under this project's interpreter or upstream's,
or the native tool rdkbench (bench/native/rdkbench.c, librdkafka alone). A benchmark module
(producer.py, consumer.py) has a ``run(session)`` that starts workers through the Session and
records their results under a workload name; ``main`` runs the given benchmarks, each on tansu
brokers on loopback that the Session starts fresh, and prints one table: a row per workload and client (the median run),
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
CLIENTS = ("ours", "upstream", "kafka-python", "kafka-python on ours", "aiokafka", "aiokafka on ours",
           "native")
PEERS = ("kafka-python", "aiokafka")  # pure-Python peers, run by peer_worker.py
# The peers' own workload code (peer_worker.py, unchanged) run on this project's facades, through
# `python -m confluent_kafka.compat run`: facade client -> the peer whose code it runs.
FACADES = {"kafka-python on ours": "kafka-python", "aiokafka on ours": "aiokafka"}
SLACK = 60.0  # seconds a worker process may take beyond its own --timeout (start-up, close)

# (header, key, format) of the measured columns
COLUMNS = (("msgs/s", "msgs_per_s", "{:,.0f}"), ("MB/s", "mb_per_s", "{:.1f}"),
           ("CPU s", "cpu_seconds", "{:.2f}"), ("peak RSS MB", "peak_rss_mb", "{:.0f}"),
           ("startup s", "startup_seconds", "{:.2f}"))


def parse_args(description: str, argv: Optional[List[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("-n", type=int, default=None,
                    help="messages per run of 100 B values (default 1,000,000); larger values get n / 10")
    ap.add_argument("--quick", action="store_true", help="100,000 messages per run")
    ap.add_argument("--sizes", default="100,10240", help="value sizes in bytes, comma-separated")
    ap.add_argument("--plot", help="also draw the msgs/s of every row into this PNG file (needs matplotlib)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per workload and client; the median is shown")
    ap.add_argument("--clients", help="run only these clients' rows, comma-separated (e.g. "
                    "'aiokafka,aiokafka on ours'); default: all of " + ", ".join(CLIENTS))
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--upstream-python", default=str(ROOT / ".bench-venv" / "bin" / "python"))
    ap.add_argument("--native", default=str(NATIVE_DEFAULT),
                    help="the rdkbench binary (`make bench-native` builds it)")
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on each run, seconds")
    ap.add_argument("--json", help="also write the raw results to this file (after every run)")
    ap.add_argument("--report", metavar="JSON",
                    help="measure nothing: print the table (and --plot) of results saved by --json")
    args = ap.parse_args(argv)
    args.n = args.n or (100_000 if args.quick else 1_000_000)
    try:
        args.sizes = [int(x) for x in args.sizes.split(",")]
    except ValueError:
        ap.error("--sizes takes integers separated by commas")
    if args.clients is not None:
        args.clients = tuple(c.strip() for c in args.clients.split(",") if c.strip())
        unknown = [c for c in args.clients if c not in CLIENTS]
        if unknown or not args.clients:
            ap.error(f"--clients takes names of {', '.join(CLIENTS)}; got {', '.join(unknown) or 'none'}")
    if args.n < 1 or args.repeat < 1 or any(x < 0 for x in args.sizes):
        ap.error("-n and --repeat must be at least 1, sizes at least 0")
    for path, what in ((args.upstream_python, "upstream interpreter (make bench creates .bench-venv)"),
                       (args.native, "rdkbench (make bench-native builds it)")):
        if not args.report and not os.access(path, os.X_OK):
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
    if inside != (client == "ours" or client in FACADES):
        raise SystemExit(f"{client} run imported {result['module']}")


def messages_for(n: int, size: int) -> int:
    """Messages per run for a value size: n for small values, n / 10 from 1 KB up (10 KB x 1 M
    would be 10 GB through an in-memory broker)."""
    return n if size < 1024 else max(1, n // 10)


class Session:
    """The broker and settings of one benchmark invocation, and every result recorded so far.

    ``size`` and ``n`` are those of the value size being measured; workload names carry them."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.broker: Optional[TansuBroker] = None
        self.bootstrap = ""
        self.size = args.sizes[0]
        self.n = messages_for(args.n, self.size)
        self.runs: dict = {}  # workload -> client -> [result, ...], in the order recorded
        self.baselines: dict = {}  # workload -> the workload whose upstream/native rows it compares to
        self.notes: List[str] = []

    def fresh_broker(self) -> None:
        """Replace the broker with an empty one: runs start from the same state, and the
        in-memory storage never holds more than one data set (10 KB runs would fill the RAM)."""
        self.close()
        self.broker = TansuBroker().start()
        self.bootstrap = self.broker.bootstrap_servers

    def close(self) -> None:
        if self.broker is not None:
            self.broker.stop()
            self.broker = None

    def workload(self, name: str, n: Optional[int] = None) -> str:
        """The row label of a workload at the current size (of ``n`` messages, default ``self.n``)."""
        return f"{name} [{self.n if n is None else n:,} x {self.size:,} B]"

    def client_order(self, i: int, clients: tuple = CLIENTS) -> tuple:
        """clients rotated by i, so no client always runs first (on a fresher broker); only those
        of --clients, when given."""
        i %= len(clients)
        rotated = clients[i:] + clients[:i]
        chosen = self.args.clients
        return rotated if chosen is None else tuple(c for c in rotated if c in chosen)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def peer(self, client: str, role: str, argv: Iterable, extra_time: float = 0.0) -> Optional[dict]:
        """Run bench/peer_worker.py for kafka-python or aiokafka in the peers' virtualenv, or (a
        FACADES client) the same code under this project's interpreter through the import alias."""
        peer = FACADES.get(client, client)
        return self.worker_or_note(client, "peer_worker.py", ["--client", peer, "--role", role] + list(argv),
                                   f"{client} {role} ({self.n:,} x {self.size:,} B)", extra_time)

    def worker_or_note(self, client: str, script: str, argv: Iterable, what: str,
                       extra_time: float = 0.0) -> Optional[dict]:
        """python_worker(), except that a failed run (e.g. deliveries timing out) becomes a note
        naming ``what`` instead of ending the benchmark."""
        try:
            return self.python_worker(client, script, argv, extra_time)
        except SystemExit as e:
            first = str(e).splitlines()
            detail = next((line for line in first if line.startswith("{")), first[0] if first else "")
            self.note(f"{what} failed: {detail[:300]}")
            return None

    def runs_peer(self, client: str, rep: int) -> bool:
        """Peers run once per workload: they are far slower, and a median of one is enough to
        place them."""
        return client not in PEERS or rep == 0

    def python_worker(self, client: str, script: str, argv: Iterable, extra_time: float = 0.0) -> dict:
        """Run bench/<script> under the client's interpreter; the result must come from that client."""
        python = self.args.ours_python if client == "ours" or client in FACADES else self.args.upstream_python
        cmd = [python, str(BENCH / script), "--bootstrap", self.bootstrap,
               "--timeout", str(self.args.timeout)] + [str(a) for a in argv]
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if client == "ours" or client in FACADES:
            # This checkout's package, even when the interpreter has another one installed
            # (e.g. a git worktree run with the main checkout's virtualenv).
            env["PYTHONPATH"] = str(ROOT / "src")
        if client in FACADES:
            cmd[1:1] = ["-m", "confluent_kafka.compat", "run"]
        result = run_json(cmd, self.args.timeout + extra_time + SLACK, env)
        check_origin(result, client)
        return add_rates(result) if "seconds" in result else result

    def native(self, mode: str, argv: Iterable, extra_time: float = 0.0) -> dict:
        cmd = [self.args.native, mode, "--bootstrap", self.bootstrap,
               "--timeout", str(self.args.timeout)] + [str(a) for a in argv]
        result = run_json(cmd, self.args.timeout + extra_time + SLACK)
        return add_rates(result) if "seconds" in result else result

    def record(self, workload: str, client: str, rep: int, result: Optional[dict]) -> None:
        if result is None:
            return
        self.runs.setdefault(workload, {}).setdefault(client, []).append(result)
        if self.args.json:  # after every run, so an interrupted benchmark keeps what it measured
            pathlib.Path(self.args.json).write_text(json.dumps(
                {"n": self.args.n, "sizes": self.args.sizes, "runs": self.runs, "baselines": self.baselines},
                indent=2))
        print(f"  run {rep + 1}  {workload:<48} {client:<12} {result['msgs_per_s']:>13,.0f} msgs/s",
              flush=True)


def client_label(client: str, r: dict) -> str:
    if client in PEERS:
        return r["version"]
    if client in FACADES:
        return f"{FACADES[client]} code on ours (compat facade)"
    name = "rdkbench" if client == "native" else r["version"]
    if r["librdkafka"] == "-":  # a client without librdkafka (aiokafka)
        return f"{client} {name}"
    return f"{client} {name} (librdkafka {r['librdkafka']})"


def ordered(by_client: dict) -> list:
    """The clients of a workload: the known ones in CLIENTS order, then any others (bench/aio.py's)."""
    return [c for c in CLIENTS if c in by_client] + [c for c in by_client if c not in CLIENTS]


def medians(session: Session) -> dict:
    """workload -> client -> the median run."""
    return {w: {c: median_run(rs) for c, rs in by.items()} for w, by in session.runs.items()}


def print_table(session: Session) -> None:
    """A row per workload and client (the median run); msgs/s relative to upstream and to native
    (of the workload itself or, for ours-only workloads, of its baseline workload)."""
    a = session.args
    print(f"\nmedian of {a.repeat} run(s) per row; tansu on loopback, a fresh broker for every producer "
          f"run and every consumer data set")
    med = medians(session)
    rows = []
    for workload, by_client in med.items():
        base = med.get(session.baselines.get(workload, workload), {})
        for i, client in enumerate(ordered(by_client)):
            r = by_client[client]
            cells = [fmt.format(r[key]) for _, key, fmt in COLUMNS]
            for other in ("upstream", "native"):
                ref = by_client.get(other) or base.get(other)
                ratio = ""
                if other != client and ref is not None and (client, other) != ("native", "upstream"):
                    ratio = f"{r['msgs_per_s'] / ref['msgs_per_s']:.2f}x"
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
    for workload, by_client in med.items():
        for facade, peer in FACADES.items():
            if facade in by_client and peer in by_client:
                print(f"{workload}: {peer}'s code on ours runs "
                      f"{by_client[facade]['msgs_per_s'] / by_client[peer]['msgs_per_s']:.1f}x {peer}")
    for note in session.notes:
        print(note)


def plot(session: Session, path: str) -> None:
    """A horizontal bar chart of msgs/s: a group per workload, a bar per client."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    med = medians(session)
    labels, values, colours = [], [], []
    palette = {"ours": "#1f77b4", "upstream": "#ff7f0e", "kafka-python": "#2ca02c", "aiokafka": "#9467bd",
               "native": "#7f7f7f"}
    for workload, by_client in med.items():
        for client in ordered(by_client):
            labels.append(f"{workload}  {client}")
            values.append(by_client[client]["msgs_per_s"])
            colours.append(palette.get(client, "#17becf"))
    fig, ax = plt.subplots(figsize=(11, 0.28 * len(labels) + 1.2))
    y = list(range(len(labels)))[::-1]
    ax.barh(y, values, color=colours)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xscale("log")  # rows span kafka-python at 10 KB to native at 100 B
    ax.set_xlabel("messages per second (median run, log scale)")
    ax.set_title("confluent_kafka throughput on tansu (loopback)")
    for yi, v in zip(y, values):
        ax.text(v, yi, f" {v:,.0f}", va="center", fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    print(f"chart written to {path}")


def main(description: str, benchmarks: List[Callable[[Session], None]],
         argv: Optional[List[str]] = None) -> int:
    args = parse_args(description, argv)
    if args.report:
        saved = json.loads(pathlib.Path(args.report).read_text())
        session = Session(args)
        session.runs, session.baselines = saved["runs"], saved.get("baselines", {})
        print_table(session)
        if args.plot:
            plot(session, args.plot)
        return 0
    print(f"value sizes {args.sizes}, {args.repeat} run(s) per workload and client", flush=True)
    session = Session(args)
    try:
        for size in args.sizes:
            session.size, session.n = size, messages_for(args.n, size)
            for bench in benchmarks:
                bench(session)
    finally:
        session.close()
    print_table(session)
    if args.plot:
        plot(session, args.plot)
    return 0
