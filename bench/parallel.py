"""The parallel consumer (confluent_kafka.parallel) against a plain Consumer and pyrallel-consumer.

One tansu broker on loopback, one topic of 4 partitions filled once with 100 B records of 200
keys (key i on partition i % 4, so 50 keys per partition, in round-robin order). Every row is a
process of its own (bench/parallel_worker.py) that reads the topic from its beginning with a
fresh group, runs the handler on each record, and is timed from the start of the first handler
call to the end of the N-th (joining the group and the first fetch are the startup column):

  I/O-bound, a 10 ms handler (time.sleep(0.01); asyncio.sleep(0.01) for the asyncio forms),
  ordering by key; ideal = min(concurrency, keys) / 10 ms:
    time.sleep alone, asyncio.sleep alone
                                        no Kafka: 16 and 64 threads (tasks) sleeping 10 ms in
                                        turn, the interpreter's and the event loop's own
                                        ceiling (asyncio's timers fire up to 1 ms late)
    ours ParallelConsumer               max_concurrency 16 and 64 (goal: 0.9 of ideal at 64)
    ours AIOParallelConsumer            the same options (skipped, saying so, where
                                        confluent_kafka.parallel has none yet)
    ours Consumer poll loop             poll() and the handler, one record at a time (100/s)
    pyrallel-consumer 1.0.0, async      ExecutionMode.ASYNC, max_in_flight 16 and 64,
                                        OrderingMode.KEY_HASH (in its own Python 3.12
                                        virtualenv, on upstream confluent-kafka 2.16.1)
    pyrallel-consumer 1.0.0, process    ExecutionMode.PROCESS, process_count = max_in_flight =
                                        16 and 64, micro-batches of 1 record (its default of 64
                                        hands one process up to 64 records to run in turn)
  Goal: ours at least 2x pyrallel-consumer's best engine at the same concurrency. Rows slower
  than their ideal are timed over a window of WINDOW_FACTOR x the ideal run time instead of all
  N records.

  CPU-bound, ROUNDS rounds of FNV-1a over 32 bytes per record in pure Python (calibrated here
  to about 1.5 ms), ordering unordered:
    hash loop alone                     1 and 2 threads, no Kafka: the interpreter's ceiling
    ours ParallelConsumer               max_concurrency 1 and 2
  on this interpreter, with --gil-python PATH on another (3.13, say) and with --ft-python PATH
  on a free-threaded one, also run with its GIL forced on (PYTHON_GIL=1); each needs this
  package's extension built for it (scripts/build-ext.sh PATH); per-record cost and what a 16-core
  machine should see are printed under the table. Each CPU-bound row runs CPU_REPEAT times,
  interleaved, and shows its fastest run: on a small shared machine single runs vary by up to 2x.

pyrallel-consumer needs Python >= 3.12 and upstream confluent-kafka (this project's import name),
so it lives in .pyrallel-venv (`make bench-parallel` creates it); its rows are skipped, saying
why, when that interpreter cannot import it.

    .venv/bin/python bench/parallel.py [--quick] [--repeat R] [--pyrallel-python PATH]
        [--ft-python PATH] [--gil-python PATH] [--only io|cpu] [--json FILE]
    (`make bench-parallel`; `make bench` runs it after bench/run.py)
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

import common
from tansu_broker import TansuBroker  # scripts/, on the path through common

sys.path.insert(0, str(common.ROOT / "src"))  # this checkout's package, as the workers get it

from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402

PARTITIONS = 4
KEYS = 200
SLEEP_MS = 10.0
VALUE = b"v" * 100
CONCURRENCY = (16, 64)
IO_SECONDS = 3.0  # a row's length at its ideal rate (--quick: 1 s)
WINDOW_FACTOR = 2.5  # a row slower than ideal is timed over this many times IO_SECONDS
CPU_RECORD_MS = 1.5  # the CPU-bound handler's target cost per record
CPU_N = 1000  # records per CPU-bound row (--quick: 500)
CPU_REPEAT = 5  # runs per CPU-bound row at least (--quick: 3)
# Environment prefixes pydantic-settings reads pyrallel-consumer's configuration from; never
# let the caller's leak in.
PYRALLEL_ENV = ("KAFKA_", "EXECUTION_", "PARALLEL_CONSUMER_", "PROCESS_", "METRICS_")

IO_WORKLOAD = (f"I/O-bound: {SLEEP_MS:.0f} ms handler, {KEYS} keys, {PARTITIONS} partitions, "
               f"ordering by key")
OURS_THREADS, OURS_AIO, OURS_POLL = "ours ParallelConsumer", "ours AIOParallelConsumer", "ours Consumer poll loop"
PYRALLEL_ASYNC, PYRALLEL_PROCESS = "pyrallel-consumer, async engine", "pyrallel-consumer, process engine"
ALONE = "hash loop alone (no Kafka)"
ALONE_PROCESSES = "hash loop alone, processes (no Kafka)"
THIS, GIL, FREE, FREE_GIL = "this Python", "GIL build", "free-threaded", "free-threaded, GIL forced on"  # labels
SLEEP_ALONE, ASYNC_SLEEP_ALONE = "time.sleep alone (no Kafka)", "asyncio.sleep alone (no Kafka)"
ALONE_OF = {OURS_THREADS: SLEEP_ALONE, OURS_AIO: ASYNC_SLEEP_ALONE}  # each one's ceiling
Result = Dict[str, Any]  # one worker's JSON


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="rows of about 1 s and 500 CPU-bound records")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per I/O-bound row, the median shown (CPU-bound rows: at least 5, the best shown)")
    ap.add_argument("--ours-python", default=sys.executable)
    ap.add_argument("--pyrallel-python", default=str(common.ROOT / ".pyrallel-venv" / "bin" / "python"),
                    help="an interpreter with pyrallel-consumer 1.0.0 and upstream confluent-kafka")
    ap.add_argument("--ft-python", help="a free-threaded interpreter (3.13t or later) for the CPU-bound rows")
    ap.add_argument("--gil-python", help="a GIL build of the free-threaded one's version (3.13) for the CPU-bound rows")
    ap.add_argument("--only", choices=("io", "cpu"), help="only the I/O-bound or only the CPU-bound rows")
    ap.add_argument("--timeout", type=float, default=60.0, help="bound on each run, seconds")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    args.io_seconds = 1.0 if args.quick else IO_SECONDS
    args.cpu_n = 500 if args.quick else CPU_N
    args.cpu_repeat = max(3 if args.quick else CPU_REPEAT, args.repeat)
    return args


def calibrate_rounds() -> int:
    """FNV-1a rounds for about CPU_RECORD_MS on this interpreter (the median of a few tries of
    0.1 s each, after a warm-up: the machine's other work makes single tries vary)."""
    from parallel_worker import burn

    burn(20_000)
    tries = []
    for _ in range(5):
        t0 = time.perf_counter()
        burn(20_000)
        tries.append((time.perf_counter() - t0) / 20_000)
    return max(1, round(CPU_RECORD_MS / 1000 / sorted(tries)[2]))


def fill(bootstrap: str, topic: str, n: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, PARTITIONS, 1)]).values():
        future.result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20})
    for i in range(n):
        key = i % KEYS
        while True:
            try:
                producer.produce(topic, VALUE, key=b"key-%03d" % key, partition=key % PARTITIONS)
                break
            except BufferError:
                producer.poll(0.01)
        producer.poll(0)
    left = producer.flush(60)
    producer.close()
    if left:
        raise SystemExit(f"fill: {left} records not delivered")


class Bench:
    def __init__(self, args: argparse.Namespace, bootstrap: str, topics: Dict[str, str]):
        self.args, self.bootstrap, self.topics = args, bootstrap, topics  # section -> its topic
        # (section, client, interpreter label, concurrency) -> results
        self.runs: Dict[Tuple[str, str, str, int], List[Result]] = {}
        self.notes: List[str] = []

    def note(self, text: str) -> None:
        print(f"  note: {text}", flush=True)
        if text not in self.notes:
            self.notes.append(text)

    def env(self, python: str) -> Dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith(PYRALLEL_ENV)}
        if python != self.args.pyrallel_python:
            env["PYTHONPATH"] = str(common.ROOT / "src")
        return env

    def usable(self, python: str, code: str) -> Optional[str]:
        """None if ``python`` runs ``code``, else why not (its last line of error)."""
        if not python or not os.access(python, os.X_OK):
            return f"no interpreter at {python}"
        try:
            proc = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60,
                                  env=self.env(python), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return f"{python} -c {code!r} did not finish in 60 s"
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            return lines[-1] if lines else f"exit code {proc.returncode}"
        return None

    def run(self, section: str, client: str, python: str, label: str, rep: int, n: int,
            argv: List[str], window: float, gil: Optional[str] = None) -> None:
        cmd = [python, str(common.BENCH / "parallel_worker.py"), "--bootstrap", self.bootstrap,
               "--topic", self.topics[section], "-n", str(n), "--window", f"{window:.2f}",
               "--timeout", str(self.args.timeout)] + argv
        try:
            env = self.env(python)
            if gil is not None:
                env["PYTHON_GIL"] = gil  # a free-threaded build with its GIL forced on (1) or off (0)
            r = common.run_json(cmd, self.args.timeout + common.SLACK, env)
        except SystemExit as e:
            first = str(e).splitlines()
            self.note(f"{client} ({' '.join(argv)}) failed: {first[0][:300] if first else ''}"
                      f"{' / ' + first[-1][:300] if len(first) > 1 else ''}")
            return
        if r["module"]:
            common.check_origin(r, "upstream" if python == self.args.pyrallel_python else "ours")
        if not r.get("msgs_per_s"):
            self.note(f"{client} ({' '.join(argv)}): no handler call within {self.args.timeout:.0f} s")
            return
        r["label"] = label
        concurrency = r["concurrency"]
        self.runs.setdefault((section, client, label, concurrency), []).append(r)
        if self.args.json:
            pathlib.Path(self.args.json).write_text(json.dumps(
                [{"section": k[0], "client": k[1], "python": k[2], "concurrency": k[3], "runs": v}
                 for k, v in self.runs.items()], indent=2))
        cut = "" if r["complete"] else f" (in the window: {r['messages']:,} of {n:,})"
        kind = "I/O" if section == IO_WORKLOAD else "CPU"
        print(f"  run {rep + 1}  {kind}  {client:<37} {label:<28} x{concurrency:<3} "
              f"{r['msgs_per_s']:>9,.0f} msgs/s{cut}", flush=True)

    def pick(self, section: str, client: str, label: str, concurrency: int) -> Optional[Result]:
        """The median run of an I/O-bound row, the fastest of a CPU-bound one (the least disturbed
        by the machine's other work, as timeit takes the best)."""
        rs = self.runs.get((section, client, label, concurrency))
        if not rs:
            return None
        return common.median_run(rs) if section == IO_WORKLOAD else max(rs, key=lambda r: float(r["msgs_per_s"]))


def io_rows(bench: Bench) -> None:
    a = bench.args
    ours, pyrallel = a.ours_python, a.pyrallel_python
    why_not_aio = bench.usable(ours, "from confluent_kafka.parallel import AIOParallelConsumer")
    if why_not_aio:
        bench.note(f"{OURS_AIO} rows skipped: {why_not_aio}")
    why_not_pyrallel = bench.usable(pyrallel, "import pyrallel_consumer, confluent_kafka")
    if why_not_pyrallel:
        bench.note(f"pyrallel-consumer rows skipped ({pyrallel}): {why_not_pyrallel} "
                   f"(`make bench-parallel` creates .pyrallel-venv)")
    rows = [(OURS_POLL, ours, 1, ["--engine", "poll"])]
    for c in CONCURRENCY:
        rows.append((SLEEP_ALONE, ours, c, ["--engine", "alone"]))
        rows.append((OURS_THREADS, ours, c, ["--engine", "threads"]))
        rows.append((ASYNC_SLEEP_ALONE, ours, c, ["--engine", "alone-aio"]))
        if not why_not_aio:
            rows.append((OURS_AIO, ours, c, ["--engine", "aio"]))
        if not why_not_pyrallel:
            rows.append((PYRALLEL_ASYNC, pyrallel, c, ["--engine", "pyrallel-async"]))
            rows.append((PYRALLEL_PROCESS, pyrallel, c, ["--engine", "pyrallel-process", "--batch", "1"]))
    for rep in range(a.repeat):
        for client, python, c, argv in rows[rep % len(rows):] + rows[:rep % len(rows)]:
            n = round(ideal(c) * a.io_seconds)
            bench.run(IO_WORKLOAD, client, python, label(python, bench), rep, n,
                      argv + ["--concurrency", str(c), "--ordering", "key", "--work", "io"],
                      a.io_seconds * WINDOW_FACTOR)


def cpu_rows(bench: Bench, rounds: int) -> None:
    a = bench.args
    # (interpreter, its label, PYTHON_GIL)
    pythons: List[Tuple[str, str, Optional[str]]] = [(a.ours_python, THIS, None)]
    if a.gil_python:
        why_not = bench.usable(a.gil_python, "import confluent_kafka")
        if why_not:
            bench.note(f"GIL build rows skipped ({a.gil_python}): {why_not}")
        else:
            pythons.append((a.gil_python, GIL, None))
    if a.ft_python:
        why_not = bench.usable(a.ft_python, "import sys, confluent_kafka\n"
                               "assert not sys._is_gil_enabled(), 'its GIL is enabled'")
        if why_not:
            bench.note(f"free-threaded rows skipped ({a.ft_python}): {why_not}")
        else:
            pythons += [(a.ft_python, FREE, "0"), (a.ft_python, FREE_GIL, "1")]
    else:
        bench.note("free-threaded rows skipped: no --ft-python given (a 3.13t or later interpreter "
                   "with this package's extension built for it)")
    section = cpu_workload(rounds)
    argv = ["--ordering", "unordered", "--work", "cpu", "--rounds", str(rounds)]
    rows = [(client, c, engine) for c in (1, 2) for client, engine in ((ALONE, "alone"), (OURS_THREADS, "threads"))]
    rows.append((ALONE_PROCESSES, 2, "alone-processes"))
    # At least CPU_REPEAT runs, interleaved: other work on a small machine moves single CPU-bound
    # runs by up to 2x here; the fastest is shown.
    for rep in range(a.cpu_repeat):
        for python, lab, gil in pythons:
            for client, c, engine in rows:
                bench.run(section, client, python, lab, rep, a.cpu_n,
                          argv + ["--concurrency", str(c), "--engine", engine], a.timeout, gil)


def cpu_workload(rounds: int) -> str:
    return f"CPU-bound: {rounds:,} FNV-1a rounds of 32 bytes per record, ordering unordered"


def ideal(concurrency: int) -> float:
    return min(concurrency, KEYS) * 1000.0 / SLEEP_MS


def label(python: str, bench: Bench) -> str:
    """Which interpreter an I/O-bound row ran on."""
    return "pyrallel venv" if python == bench.args.pyrallel_python else THIS


# -- the table ---------------------------------------------------------------------------------


def print_table(bench: Bench, rounds: int) -> None:
    io_heads = ("max conc.", "records", "msgs/s", "ideal", "of ideal", "vs pyrallel best", "CPU ms/rec",
                "startup s")
    cpu_heads = ("threads", "records", "msgs/s", "wall ms/rec", "CPU ms/rec", "vs 1 thread", "", "")
    rows = []
    for (section, client, lab, c), _ in bench.runs.items():
        r = bench.pick(section, client, lab, c)
        assert r is not None
        cpu = f"{r['cpu_seconds'] / r['messages'] * 1000:.3f}" if r.get("cpu_seconds") else ""
        if section == IO_WORKLOAD:
            best = best_pyrallel(bench, c)
            cells = [str(c), f"{r['messages']:,}", f"{r['msgs_per_s']:,.0f}", f"{ideal(c):,.0f}",
                     f"{r['msgs_per_s'] / ideal(c):.2f}",
                     f"{r['msgs_per_s'] / best['msgs_per_s']:.2f}x" if best and client in ALONE_OF
                     else "", cpu, f"{r['startup_seconds']:.2f}"]
        else:
            one = bench.pick(section, client, lab, 1)
            cells = [str(c), f"{r['messages']:,}", f"{r['msgs_per_s']:,.0f}", f"{1000 / r['msgs_per_s']:.3f}",
                     cpu, f"{r['msgs_per_s'] / one['msgs_per_s']:.2f}x" if one and c != 1 else "", "", ""]
        name = f"{client}  [{lab}, Python {r['python']}, GIL {r['gil']}]"
        rows.append((section, name, cells))
    if not rows:
        print("\nno results")
        return
    width_name = max(len(r[1]) for r in rows)
    widths = [max(len(io_heads[i]), len(cpu_heads[i]), *(len(r[2][i]) for r in rows)) + 2 for i in range(8)]
    print(f"\nthe median of {bench.args.repeat} run(s) per I/O-bound row, the best of {bench.args.cpu_repeat} per "
          f"CPU-bound row; tansu on loopback; timed from the first handler call to the end of the last "
          f"counted one")
    current = ""
    rule = "-" * (width_name + sum(widths))
    for sec, name, cells in sorted(rows, key=lambda r: (r[0] != IO_WORKLOAD, r[0])):
        if sec != current:
            current = sec
            heads = io_heads if sec == IO_WORKLOAD else cpu_heads
            print(f"\n{sec}")
            print(f"{'client':<{width_name}}" + "".join(f"{h:>{w}}" for h, w in zip(heads, widths)))
            print(rule)
        print(f"{name:<{width_name}}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
    print(rule)
    print("of ideal: msgs/s over min(concurrency, keys) / 10 ms (100/s for the poll loop); vs pyrallel "
          "best: over the faster pyrallel-consumer engine at the same concurrency; CPU ms/rec: CPU "
          "time of the worker process (and pyrallel's worker processes) per record while timed; "
          "startup: from creating the consumer to the first handler call (group join, first fetch).")
    for note in summary(bench, rounds) + bench.notes:
        print(note)


def best_pyrallel(bench: Bench, c: int) -> Optional[Result]:
    found = [r for r in (bench.pick(IO_WORKLOAD, client, "pyrallel venv", c)
                         for client in (PYRALLEL_ASYNC, PYRALLEL_PROCESS)) if r is not None]
    return max(found, key=lambda r: float(r["msgs_per_s"])) if found else None


def summary(bench: Bench, rounds: int) -> List[str]:
    """The ratios the goals are stated in, and the CPU-bound rows' per-record cost."""
    out = []
    for client in (OURS_THREADS, OURS_AIO):
        for c in CONCURRENCY:
            r = bench.pick(IO_WORKLOAD, client, THIS, c)
            if r is None:
                continue
            share = r["msgs_per_s"] / ideal(c)
            line = f"{client} at {c}: {share:.2f} of ideal"
            if c == max(CONCURRENCY):
                line += " (goal 0.90: " + ("met)" if share >= 0.9 else "MISSED)")
            alone = bench.pick(IO_WORKLOAD, ALONE_OF[client], THIS, c)
            if alone:
                line += f", {r['msgs_per_s'] / alone['msgs_per_s']:.2f} of {ALONE_OF[client].split(' (')[0]}"
            best = best_pyrallel(bench, c)
            if best:
                ratio = r["msgs_per_s"] / best["msgs_per_s"]
                line += (f"; {ratio:.2f}x pyrallel-consumer's best engine ({best['engine']}, "
                         f"{best['msgs_per_s']:,.0f} msgs/s; goal 2x: " + ("met)" if ratio >= 2 else "MISSED)"))
            poll = bench.pick(IO_WORKLOAD, OURS_POLL, THIS, 1)
            if poll:
                line += f"; {r['msgs_per_s'] / poll['msgs_per_s']:.0f}x the plain poll loop"
            stats = r.get("stats") or {}
            if stats.get("pauses"):
                line += f"; {stats['pauses']} partition pauses"
            out.append(line)
    # The consumer's own work per record, an upper bound: all CPU of the 64-wide I/O row (owner,
    # dispatcher, the workers' bookkeeping and their sleep calls) over its records.
    io64 = bench.pick(IO_WORKLOAD, OURS_THREADS, THIS, max(CONCURRENCY))
    machinery = io64["cpu_seconds"] / io64["messages"] if io64 and io64.get("cpu_seconds") else None
    section = cpu_workload(rounds)
    for lab in (THIS, GIL, FREE, FREE_GIL):
        alone1, alone2 = (bench.pick(section, ALONE, lab, c) for c in (1, 2))
        ours1, ours2 = (bench.pick(section, OURS_THREADS, lab, c) for c in (1, 2))
        procs2 = bench.pick(section, ALONE_PROCESSES, lab, 2)
        if not (alone1 and ours1):
            continue
        python = f"Python {alone1['python']} (GIL {alone1['gil']})"
        rate1 = ours1["msgs_per_s"]
        line = (f"CPU-bound on {python}: {1000 / alone1['msgs_per_s']:.3f} ms per record for the hash loop alone, "
                f"{1000 / rate1:.3f} ms through ParallelConsumer on 1 thread")
        if alone2 and ours2:
            line += (f"; 2 threads run {alone2['msgs_per_s'] / alone1['msgs_per_s']:.2f}x one alone and "
                     f"{ours2['msgs_per_s'] / rate1:.2f}x one through ParallelConsumer")
        if procs2:
            line += (f"; 2 processes (the machine's ceiling for work that shares nothing) run "
                     f"{procs2['msgs_per_s'] / alone1['msgs_per_s']:.2f}x one thread alone")
        out.append(line)
        ceiling = f", capped by the consumer's serial work per record (at most {machinery * 1e6:.0f} µs " \
                  f"here: {1 / machinery:,.0f} msgs/s)" if machinery else ""
        if alone1["gil"] == "on":
            out.append(f"  16 cores, {python}: about {rate1:,.0f} msgs/s whatever max_concurrency: the GIL runs "
                       f"one handler at a time, so threads add nothing to CPU-bound handlers; a free-threaded "
                       f"build would give up to 16 x that = {16 * rate1:,.0f} msgs/s at max_concurrency 16 if the "
                       f"handler scales{ceiling}")
        else:
            # (at most 1: a faster second thread is the noise of a shared machine, not a gain)
            scale = min(1.0, ours2["msgs_per_s"] / rate1 / 2) if ours2 else 1.0
            guess = 16 * scale * rate1
            if machinery:
                guess = min(guess, 1 / machinery)
            out.append(f"  16 cores, {python}: about {guess:,.0f} msgs/s at max_concurrency 16 (16 x one "
                       f"thread's rate x the {scale:.2f} per-thread efficiency measured at 2 threads{ceiling})")
    return out


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    rounds = calibrate_rounds()
    n_fill = round(ideal(max(CONCURRENCY)) * args.io_seconds * 1.25)  # no row reads the topic's tail
    with TansuBroker() as broker:
        # The CPU-bound rows read a topic of just their records, so that the broker serves no
        # prefetch while they are timed (on 2 cores it would take CPU from the second thread).
        topics = {IO_WORKLOAD: common.fresh_topic("bench-parallel"),
                  cpu_workload(rounds): common.fresh_topic("bench-parallel-cpu")}
        for topic, n in zip(topics.values(), (n_fill, args.cpu_n)):
            fill(broker.bootstrap_servers, topic, n)
        print(f"filled {topics[IO_WORKLOAD]} with {n_fill:,} records and {topics[cpu_workload(rounds)]} with "
              f"{args.cpu_n:,} ({PARTITIONS} partitions, {KEYS} keys); CPU-bound handler: {rounds:,} FNV-1a "
              f"rounds (about {CPU_RECORD_MS} ms when calibrated; the table has what the runs took)", flush=True)
        bench = Bench(args, broker.bootstrap_servers, topics)
        if args.only != "cpu":
            io_rows(bench)
        if args.only != "io":
            cpu_rows(bench, rounds)
    print_table(bench, rounds)
    print(f"parallel bench took {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
