"""Spark benchmark: this project's data source against the upstream-client pattern, same run.

Starts one tansu broker on loopback, then runs bench/spark_worker.py twice, one after the
other, each in its own process with its own local[2] SparkSession: under this project's
interpreter (``--client ours``: ``confluent_kafka.spark``) and under upstream confluent-kafka's
(``--client upstream``: ``mapInArrow`` with a cached Producer, the pattern in
docs/spark.md). Each writes ``--rows`` rows of ``--size`` bytes to a fresh 4-partition topic and
reads them back, ``--repeat`` times; the table shows the median rows/s of each. The
line under it is the write rate of a Python sink that does nothing (timed by the ``ours``
worker): Spark's own handoff cost, the ceiling of every Python data source writer.

Three more runs (``--client avro``, ``json``, ``protobuf``; this project's interpreter) need a
Schema Registry: Karapace
is started on the same broker from ``../shared/vendor/karapace`` (or ``KARAPACE_HOME``), or
``--registry-url`` names one; without either, that table is skipped. It writes ``--rows``
Schema Registry framed Avro records (seven fields) with ``valueFormat=avro`` and reads them
back into columns with ``valueFormat=avro``, with Spark's own pattern (``substring(value, 6)``
then a decoder per record: a pandas UDF with fastavro, because ``from_avro`` needs the
spark-avro jar, which the pyspark wheel does not ship and nothing offline provides), and as
plain bytes (no decoding). The JSON and Protobuf runs do the same with ``valueFormat=json`` /
``protobuf``, against ``substring(value, 6)`` + Spark's ``from_json`` and ``substring(value, 7)``
+ a pandas UDF with the protobuf library (spark-protobuf's jar is not in the wheel either).

    make bench-spark                      # 1 M rows of 100 B, 3 repeats
    .venv/bin/python bench/spark_bench.py --rows 100000 --repeat 1
    .venv/bin/python bench/spark_bench.py --only avro --avro-rows 200000
    .venv/bin/python bench/spark_bench.py --only json,protobuf
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import uuid
from typing import Any, Dict, List, Optional, Tuple

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
               log: pathlib.Path, registry_url: Optional[str] = None) -> Dict[str, Any]:
    rows = args.avro_rows if client in REGISTRY_FORMATS else args.rows
    cmd = [python, str(ROOT / "bench" / "spark_worker.py"), "--client", client, "--bootstrap", bootstrap,
           "--topics", ",".join(topics), "--rows", str(rows), "--size", str(args.size)]
    if registry_url:
        cmd += ["--registry-url", registry_url]
    env = dict(os.environ)
    if client != "upstream":  # this checkout's package, in the worker and in Spark's Python workers
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src")] + [p for p in [env.get("PYTHONPATH")] if p])
    with open(log, "w") as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
                                cwd=str(ROOT), env=env)
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


REGISTRY_FORMATS = ("avro", "json", "protobuf")
KARAPACE = pathlib.Path(os.environ.get("KARAPACE_HOME") or ROOT.parent / "shared" / "vendor" / "karapace")


def start_karapace(bootstrap: str, run_dir: pathlib.Path) -> Optional[Tuple[int, str]]:
    """Start Karapace on ``bootstrap``; returns its port and URL, or None when it is not available."""
    start = KARAPACE / "start.sh"
    if not start.exists():
        print(f"no Karapace at {KARAPACE}: the Avro table is skipped (or pass --registry-url)", file=sys.stderr)
        return None
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    tag = uuid.uuid4().hex[:8]
    env = dict(os.environ, KARAPACE_RUN=str(run_dir), KARAPACE_TOPIC_NAME=f"_schemas-{tag}",
               KARAPACE_GROUP_ID=f"schema-registry-{tag}", KARAPACE_READY_TIMEOUT="180")
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["bash", str(start), bootstrap, str(port)], env=env, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"Karapace did not start:\n{done.stderr[-3000:]}")
    return port, done.stdout.strip().splitlines()[-1]


def stop_karapace(port: int, run_dir: pathlib.Path) -> None:
    subprocess.run(["bash", str(KARAPACE / "start.sh"), "stop", str(port)],
                   env=dict(os.environ, KARAPACE_RUN=str(run_dir)), capture_output=True, timeout=60)


BASELINES = {
    "avro": "`substring(value, 6)` + pandas UDF with fastavro per record (the `from_avro` pattern)",
    "json": "`substring(value, 6)` + Spark's `from_json`",
    "protobuf": "`substring(value, 7)` + pandas UDF parsing each record with protobuf",
}


def registry_table(r: Dict[str, Any]) -> None:
    fmt = r["client"]

    def rate(what: str) -> float:
        return float(r["rows"] / statistics.median(r[f"{what}_seconds"]))

    print(f"\nSchema Registry {fmt}, {r['rows']:,} records of 7 fields, 4 partitions, median of "
          f"{len(r['write_seconds'])}\n")
    print("| read into columns | rows/s |")
    print("|---|---:|")
    print(f"| `valueFormat={fmt}` (decoded per Arrow batch) | {rate('read_ours'):,.0f} |")
    print(f"| {BASELINES[fmt]} | {rate('read_udf'):,.0f} |")
    print(f"| ratio | {rate('read_ours') / rate('read_udf'):.2f}x |")
    print(f"| the same topic as bytes, not decoded | {rate('read_binary'):,.0f} |")
    print(f"\nWriting the struct column with `valueFormat={fmt}`: {rate('write'):,.0f} rows/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--size", type=int, default=100, help="value size in bytes")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--upstream-python", default=str(ROOT / ".bench-venv" / "bin" / "python"))
    ap.add_argument("--avro-rows", type=int, default=1_000_000, help="records of each Schema Registry run")
    ap.add_argument("--registry-url", help="use this Schema Registry instead of starting Karapace")
    ap.add_argument("--only", help="run only these, comma-separated: kafka (the plain runs), avro, json, "
                                   "protobuf, or registry (the three formats)")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args()

    logs = pathlib.Path(tempfile.mkdtemp(prefix="spark-bench-"))
    broker = TansuBroker(log_dir=logs).start()
    results = []
    karapace: Optional[Tuple[int, str]] = None
    try:
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        only = set((args.only or "kafka,registry").replace("registry", ",".join(REGISTRY_FORMATS)).split(","))
        unknown = only - {"kafka", *REGISTRY_FORMATS}
        if unknown:
            raise SystemExit(f"--only: unknown {', '.join(sorted(unknown))}")
        formats = [f for f in REGISTRY_FORMATS if f in only]
        runs = [("ours", args.ours_python), ("upstream", args.upstream_python)] if "kafka" in only else []
        registry_url = args.registry_url
        if formats and registry_url is None:
            karapace = start_karapace(broker.bootstrap_servers, logs)
            registry_url = karapace[1] if karapace else None
        if registry_url:
            runs += [(f, args.ours_python) for f in formats]
        for client, python in runs:
            topics = [f"spark-bench-{client}-{i}-{uuid.uuid4().hex[:8]}" for i in range(args.repeat + 1)]
            for f in admin.create_topics([NewTopic(t, PARTITIONS, 1) for t in topics]).values():
                f.result(30)
            print(f"running {client} ...", file=sys.stderr, flush=True)
            results.append(run_client(python, client, broker.bootstrap_servers, topics, args,
                                      logs / f"{client}.log", registry_url if client in REGISTRY_FORMATS else None))
        admin.close()
    finally:
        if karapace:
            stop_karapace(karapace[0], logs)
        broker.stop()

    by = {r["client"]: r for r in results}
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=2))
    for fmt in REGISTRY_FORMATS:
        if fmt in by:
            registry_table(by[fmt])
    if "ours" not in by:
        return

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


if __name__ == "__main__":
    main()
