"""Producer throughput of this project's confluent_kafka against upstream confluent-kafka.

Starts one tansu broker on loopback and, on it, runs bench/producer_worker.py once per client
and mode, each in its own process and on a fresh topic: N values of SIZE bytes, produce() with
a delivery callback on every message and then without one, poll(0) after each produce(), and
flush() at the end, repeated --repeat times. Prints msgs/s, MB/s, CPU seconds and peak RSS of
the median run per client and mode, and ours/upstream.

Upstream has the same import name as this project, so it lives in its own virtualenv
(`make bench` creates .bench-venv) and is never imported here.

    .venv/bin/python bench/producer.py --upstream-python .bench-venv/bin/python [--quick]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from tansu_broker import TansuBroker  # noqa: E402

WORKER = ROOT / "bench" / "producer_worker.py"
COLUMNS = (("msgs/s", "msgs_per_s", "{:,.0f}"), ("MB/s", "mb_per_s", "{:.1f}"),
           ("CPU s", "cpu_seconds", "{:.2f}"), ("peak RSS MB", "peak_rss_mb", "{:.0f}"))


def run_worker(python: str, bootstrap: str, n: int, size: int, callback: bool,
               timeout: float) -> dict:
    topic = f"bench-{uuid.uuid4().hex[:12]}"
    cmd = [python, str(WORKER), "--bootstrap", bootstrap, "--topic", topic, "-n", str(n),
           "--size", str(size), "--timeout", str(timeout)] + (["--callback"] if callback else [])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"benchmark worker did not finish within {timeout + 60:.0f} s: {cmd}") from None
    if proc.returncode != 0:
        raise SystemExit(f"benchmark worker failed ({proc.returncode}): {' '.join(cmd)}\n"
                         f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["msgs_per_s"] = result["messages"] / result["seconds"]
    result["mb_per_s"] = result["messages"] * result["size"] / result["seconds"] / 1e6
    return result


def median_run(results: list) -> dict:
    """The run with the median throughput (the upper one of the middle two for an even count)."""
    return sorted(results, key=lambda r: r["msgs_per_s"])[len(results) // 2]


def check_origin(result: dict, ours: bool) -> None:
    """Fail loudly if an interpreter imported the other project's confluent_kafka."""
    inside = pathlib.Path(result["module"]).resolve().is_relative_to(ROOT / "src")
    if inside != ours:
        raise SystemExit(f"{'our' if ours else 'upstream'} run imported {result['module']}")


def print_table(rows: list, n: int, size: int, bootstrap: str) -> None:
    """One row per client and mode (each the median run), then ours/upstream per mode."""
    print(f"\nProducer: {n:,} messages x {size} B on tansu at {bootstrap}, one fresh topic per run; "
          "median of the runs")
    header = f"{'mode':<12} {'client':<34}" + "".join(f"{c[0]:>14}" for c in COLUMNS)
    print(header)
    print("-" * len(header))
    for mode, ours, upstream in rows:
        for label, r in (("ours", ours), ("upstream", upstream)):
            name = f"{label} {r['version']} (librdkafka {r['librdkafka']})"
            print(f"{mode:<12} {name:<34}" + "".join(f"{fmt.format(r[key]):>14}" for _, key, fmt in COLUMNS))
        ratio = "".join(f"{ours[key] / upstream[key]:>13.2f}x" for _, key, _ in COLUMNS)
        print(f"{mode:<12} {'ours/upstream':<34}{ratio}")
    print("(msgs/s and MB/s: higher is better; CPU s and peak RSS: lower is better)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=None, help="messages per run (default 1,000,000)")
    ap.add_argument("--quick", action="store_true", help="100,000 messages per run")
    ap.add_argument("--size", type=int, default=100, help="value size in bytes")
    ap.add_argument("--repeat", type=int, default=3, help="runs per client and mode; the median is shown")
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--upstream-python", default=str(ROOT / ".bench-venv" / "bin" / "python"))
    ap.add_argument("--timeout", type=float, default=300.0, help="bound on each run, seconds")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args()
    n = args.n or (100_000 if args.quick else 1_000_000)
    if n < 1 or args.repeat < 1:
        ap.error("-n and --repeat must be at least 1")

    modes = (("callback", True), ("no callback", False))
    runs = {(mode, ours): [] for mode, _ in modes for ours in (True, False)}
    with TansuBroker() as broker:
        bootstrap = broker.bootstrap_servers
        print(f"tansu at {bootstrap}; {n:,} messages x {args.size} B per run, "
              f"{args.repeat} run(s) each", flush=True)
        for rep in range(args.repeat):
            for i, (mode, callback) in enumerate(modes):
                # Alternate which client goes first, so neither always meets a fresher broker.
                for ours in ((True, False) if (rep + i) % 2 == 0 else (False, True)):
                    python = args.ours_python if ours else args.upstream_python
                    print(f"  run {rep + 1} {mode:<12} {'ours' if ours else 'upstream':<9}",
                          end=" ", flush=True)
                    r = run_worker(python, bootstrap, n, args.size, callback, args.timeout)
                    check_origin(r, ours)
                    print(f"{r['msgs_per_s']:>12,.0f} msgs/s", flush=True)
                    runs[(mode, ours)].append(r)
    rows = [(mode, median_run(runs[(mode, True)]), median_run(runs[(mode, False)]))
            for mode, _ in modes]

    print_table(rows, n, args.size, bootstrap)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(
            {"medians": [{"mode": m, "ours": o, "upstream": u} for m, o, u in rows],
             "runs": [{"mode": m, "ours": o, "runs": r} for (m, o), r in runs.items()]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
