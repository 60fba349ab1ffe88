"""Spark benchmark: this project's data source against the upstream-client pattern, same run.

Starts one tansu broker on loopback, then runs bench/spark_worker.py twice, one after the
other, each in its own process with its own local[2] SparkSession: under this project's
interpreter (``--client ours``: ``confluent_kafka.spark``) and under upstream confluent-kafka's
(``--client upstream``: ``mapInArrow`` with a cached Producer, the pattern in
docs/spark.md). Each writes ``--rows`` rows of ``--size`` bytes to a fresh 4-partition topic and
reads them back, ``--repeat`` times; the table shows the median rows/s of each. The
line under it is the write rate of a Python sink that does nothing (timed by the ``ours``
worker): Spark's own handoff cost, the ceiling of every Python data source writer.

    make bench-spark                      # 1 M rows of 100 B, 3 repeats
    .venv/bin/python bench/spark_bench.py --rows 100000 --repeat 1
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import uuid
from typing import Any, Dict, List

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "src"))

from tansu_broker import TansuBroker  # noqa: E402

from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402
from confluent_kafka.spark._offsets import OffsetPlanner  # noqa: E402
from confluent_kafka.spark._options import ReadOptions  # noqa: E402

PARTITIONS = 4
WORKER_TIMEOUT = 1800.0  # seconds for one client's whole run (session start, every repeat)


def end_offsets(bootstrap: str, topic: str) -> Dict[str, int]:
    """``{"partition": end offset}`` of ``topic``, confirmed by a fetch (see _offsets.py)."""
    planner = OffsetPlanner(ReadOptions.parse({"kafka.bootstrap.servers": bootstrap, "subscribe": topic},
                                              streaming=False))
    try:
        return {str(p): end for (_, p), end in planner.latest().items()}
    finally:
        planner.close()


def run_client(python: str, client: str, bootstrap: str, topics: List[str], args: argparse.Namespace,
               log: pathlib.Path) -> Dict[str, Any]:
    cmd = [python, str(ROOT / "bench" / "spark_worker.py"), "--client", client, "--bootstrap", bootstrap,
           "--topics", ",".join(topics), "--rows", str(args.rows), "--size", str(args.size)]
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                                cwd=str(ROOT))
        result = None
        try:
            assert proc.stdout is not None and proc.stdin is not None
            for line in proc.stdout:
                msg = json.loads(line)
                if "written" in msg:
                    proc.stdin.write(json.dumps(end_offsets(bootstrap, msg["written"])) + "\n")
                    proc.stdin.flush()
                elif "client" in msg:
                    result = msg
            proc.wait(WORKER_TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if proc.returncode != 0 or result is None:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
        raise SystemExit(f"{client} worker failed (exit {proc.returncode}); log {log}:\n{tail}")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--size", type=int, default=100, help="value size in bytes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--upstream-python", default=str(ROOT / ".bench-venv" / "bin" / "python"))
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args()

    logs = pathlib.Path(tempfile.mkdtemp(prefix="spark-bench-"))
    broker = TansuBroker(log_dir=logs).start()
    results = []
    try:
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        for client, python in (("ours", args.ours_python), ("upstream", args.upstream_python)):
            topics = [f"spark-bench-{client}-{i}-{uuid.uuid4().hex[:8]}" for i in range(args.repeat + 1)]
            for f in admin.create_topics([NewTopic(t, PARTITIONS, 1) for t in topics]).values():
                f.result(30)
            print(f"running {client} ...", file=sys.stderr, flush=True)
            results.append(run_client(python, client, broker.bootstrap_servers, topics, args,
                                      logs / f"{client}.log"))
        admin.close()
    finally:
        broker.stop()

    by = {r["client"]: r for r in results}

    def rate(r: Dict[str, Any], what: str) -> float:
        return r["rows"] / statistics.median(r[f"{what}_seconds"])

    print(f"\nSpark local[2], {args.rows:,} rows of {args.size} B, {PARTITIONS}-partition topic on tansu, "
          f"median of {args.repeat}\n")
    print("| client | write rows/s | read rows/s |")
    print("|---|---:|---:|")
    for name, label in (("ours", "confluent_kafka.spark data source"),
                        ("upstream", "upstream pattern (mapInArrow, cached Producer)")):
        r = by[name]
        print(f"| {label} | {rate(r, 'write'):,.0f} | {rate(r, 'read'):,.0f} |")
    print(f"| ratio | {rate(by['ours'], 'write') / rate(by['upstream'], 'write'):.2f}x "
          f"| {rate(by['ours'], 'read') / rate(by['upstream'], 'read'):.2f}x |")
    floor = rate(by["ours"], "handoff")
    print(f"\nSpark's own handoff to a Python data source writer that does nothing: {floor:,.0f} rows/s, "
          f"so no Python sink writes faster than {floor / rate(by['upstream'], 'write'):.2f}x the upstream pattern here.")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
