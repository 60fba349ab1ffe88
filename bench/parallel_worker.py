"""One parallel-consumer benchmark run in its own process; prints one JSON object on stdout.

Runs under this project's interpreter (engines ``threads``, ``aio``, ``poll``, ``alone``), under
pyrallel-consumer's (``pyrallel-async``, ``pyrallel-process``: its own Python 3.12 virtualenv with
upstream confluent-kafka) or under a free-threaded one, so it imports nothing from this repository.

Every engine reads an already filled topic from its beginning with a fresh group.id and runs the
same handler on each record until N records were handled (or --timeout passed):

  --work io    time.sleep(0.01), or asyncio.sleep(0.01) for the asyncio engines
  --work cpu   ROUNDS rounds of FNV-1a over 32 bytes, in pure Python: CPU work of about
               1-2 ms that holds the GIL where there is one

The clock runs from the start of the first handler call to the end of the N-th handler call to
finish, so joining the group and the first fetch are not measured (that time is startup_seconds,
counted from the consumer's creation). Engines:

  threads            confluent_kafka.parallel.ParallelConsumer(max_concurrency=C, ordering=O)
  aio                confluent_kafka.parallel.AIOParallelConsumer, the same options
  poll               a plain Consumer: poll() and the handler, one record at a time
  alone              no Kafka: C threads run the handler N times between them (the interpreter's
                     own ceiling)
  alone-processes    no Kafka: C processes run it N times between them (the machine's: work that
                     shares nothing, as threads could without a GIL)
  alone-aio          no Kafka: C asyncio tasks await asyncio.sleep(0.01) N times between them
                     (the event loop's own ceiling: its timers fire up to a millisecond late)
  pyrallel-async     pyrallel_consumer with ExecutionMode.ASYNC, max_in_flight=C
  pyrallel-process   pyrallel_consumer with ExecutionMode.PROCESS, process_count=C and
                     max_in_flight=C, micro-batches of --batch records (1: each record goes to a
                     free process at once; pyrallel's default 64 hands a process up to 64 records
                     to run one after the other)

    python bench/parallel_worker.py --bootstrap 127.0.0.1:PORT --topic T -n 20000 \\
        --engine threads --concurrency 64 --ordering key --work io
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
import uuid
from typing import Any, Dict, List, Optional

SLEEP = 0.01  # the I/O-bound handler's wait
# tansu completes a join in about half of session.timeout.ms (tests/conftest.py): keep it short.
GROUP_TIMEOUTS = {"session.timeout.ms": 6000, "heartbeat.interval.ms": 1000}
# pyrallel-consumer's names for the orderings
PYRALLEL_ORDERING = {"key": "key_hash", "partition": "partition", "unordered": "unordered"}


def burn(rounds: int) -> int:
    """The CPU-bound handler's work: ROUNDS rounds of 64-bit FNV-1a over 32 bytes, in pure Python.

    Pure-Python arithmetic on local variables: with the GIL one thread runs it at a time, without
    it threads share nothing. (Chained hashlib.sha256 calls, the first choice, do not scale on
    3.13t: threads calling one shared builtin contend on its reference count, 1.24x on 2 threads
    where 2 processes reach 2.0x.)"""
    data = bytes(range(32))
    h = 0xCBF29CE484222325
    for _ in range(rounds):
        for b in data:
            h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class Tally:
    """When the first handler call started, how many finished, and when the run's last counted
    call finished: the N-th, or the first to finish WINDOW seconds after the first call started
    (a slow engine is measured over that window instead of N records). For the threads of this
    process."""

    def __init__(self, n: int, window: float) -> None:
        self.n = n
        self.window = window
        self.count = 0
        self.counted = 0
        self.first = 0.0
        self.last = 0.0
        self.cpu_first = 0.0
        self.cpu_last = 0.0
        self.done = threading.Event()
        self._lock = threading.Lock()

    def start(self) -> None:
        if not self.first:
            with self._lock:
                if not self.first:
                    self.first = time.monotonic()
                    self.cpu_first = tree_cpu()

    def end(self) -> bool:
        """Count a finished call; True once the run is over (the caller may then stop)."""
        with self._lock:
            self.count += 1
            if not self.last and (self.count == self.n or time.monotonic() - self.first >= self.window):
                self.close()
            return bool(self.last)

    def close(self) -> None:
        self.last = time.monotonic()
        self.cpu_last = tree_cpu()
        self.counted = self.count
        self.done.set()

    def result(self) -> Dict[str, Any]:
        if not self.first:
            return {"messages": 0, "complete": False, "seconds": 0.0, "cpu_seconds": 0.0, "first_call": 0.0}
        if not self.last:  # timed out
            self.close()
        return {"messages": self.counted, "complete": self.counted >= self.n,
                "seconds": self.last - self.first, "cpu_seconds": self.cpu_last - self.cpu_first,
                "first_call": self.first}


class SharedTally(Tally):
    """A Tally whose count and first-call time live in shared memory, made before pyrallel's
    process engine forks its workers (which inherit it). The parent process watches the count
    and closes the run (wait_closed)."""

    def __init__(self, n: int, window: float) -> None:
        super().__init__(n, window)
        self._shared_lock = multiprocessing.Lock()
        self._count = multiprocessing.Value("q", 0, lock=False)
        self._times = multiprocessing.Array("d", 2, lock=False)  # first start, N-th end

    def start(self) -> None:
        if not self._times[0]:
            with self._shared_lock:
                if not self._times[0]:
                    self._times[0] = time.monotonic()

    def end(self) -> bool:
        with self._shared_lock:
            self._count.value += 1
            if self._count.value == self.n:
                self._times[1] = time.monotonic()
        return False

    def close(self) -> None:
        super().close()
        self.counted = min(self._count.value, self.n)
        if self._times[1]:
            self.last = self._times[1]  # the N-th call's own end, not when it was seen

    async def wait_closed(self, timeout: float) -> None:
        """Poll the shared count (every 5 ms) until the run is over; the CPU seconds of the
        processes are read when the first call and the end are seen."""
        deadline = time.monotonic() + timeout
        while not self.last and time.monotonic() < deadline:
            if self._times[0] and not self.first:
                self.first, self.cpu_first = self._times[0], tree_cpu()
            count = self._count.value
            if self.first and (count >= self.n or time.monotonic() - self.first >= self.window):
                self.close()
                return
            await asyncio.sleep(0.005)


SHARED: Optional[SharedTally] = None  # the tally of the process engines, inherited by their workers


def tree_cpu() -> float:
    """CPU seconds of this process and of its live child processes (pyrallel's workers)."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for child in multiprocessing.active_children():
        try:
            with open(f"/proc/{child.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
    return total


def gil_state() -> str:
    is_enabled = getattr(sys, "_is_gil_enabled", None)
    return "on" if is_enabled is None or is_enabled() else "off"


def version_string(v: Any) -> str:
    """version() is a str in some releases and a (str, int) tuple in others."""
    return str(v[0] if isinstance(v, tuple) else v)


# -- this project's engines -------------------------------------------------------------------


def consumer_conf(args: argparse.Namespace) -> Dict[str, Any]:
    return dict(GROUP_TIMEOUTS, **{"bootstrap.servers": args.bootstrap,
                                   "group.id": f"bench-parallel-{uuid.uuid4().hex[:12]}",
                                   "auto.offset.reset": "earliest"})


def sync_handler(args: argparse.Namespace, tally: Tally, on_done: Any) -> Any:
    rounds = args.rounds

    def handle(_msg: Any) -> None:
        tally.start()
        if rounds:
            burn(rounds)
        else:
            time.sleep(SLEEP)
        if tally.end():
            on_done()
    return handle


def run_threads(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    from confluent_kafka.parallel import ParallelConsumer

    pc = ParallelConsumer(consumer_conf(args), ordering=args.ordering, max_concurrency=args.concurrency)
    pc.subscribe([args.topic])
    timer = threading.Timer(args.timeout, pc.stop)
    timer.daemon = True
    timer.start()
    try:
        pc.run(sync_handler(args, tally, pc.stop))
    finally:
        timer.cancel()
    return {"stats": summary(pc.stats())}


def run_aio(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    from confluent_kafka.parallel import AIOParallelConsumer  # ImportError: the orchestrator skips the row

    async def main() -> Dict[str, Any]:
        pc = AIOParallelConsumer(consumer_conf(args), ordering=args.ordering, max_concurrency=args.concurrency)
        pc.subscribe([args.topic])

        async def handle(_msg: Any) -> None:
            tally.start()
            await asyncio.sleep(SLEEP)
            if tally.end():
                pc.stop()
        timer = asyncio.get_running_loop().call_later(args.timeout, pc.stop)
        try:
            await pc.run(handle)
        finally:
            timer.cancel()
        return {"stats": summary(pc.stats())}
    return asyncio.run(main())


def run_poll(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    from confluent_kafka import Consumer

    consumer = Consumer(consumer_conf(args))
    consumer.subscribe([args.topic])
    handle = sync_handler(args, tally, lambda: None)
    deadline = time.monotonic() + args.timeout
    try:
        while not tally.done.is_set() and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error() is not None:
                continue
            handle(msg)
    finally:
        consumer.close()
    return {}


def run_alone(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    handle = sync_handler(args, tally, lambda: None)
    threads = [threading.Thread(target=lambda k=k: [handle(None) for _ in range(k)])
               for k in shares(args.n, args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {}


def run_alone_processes(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    fork = multiprocessing.get_context("fork")  # the children inherit SHARED
    procs = [fork.Process(target=burn_share, args=(args.rounds, k)) for k in shares(args.n, args.concurrency)]
    for p in procs:
        p.start()
    try:
        asyncio.run(tally.wait_closed(args.timeout))  # type: ignore[attr-defined]
    finally:
        for p in procs:
            p.join(args.timeout)
            if p.is_alive():
                p.kill()
                p.join()
    return {"cpu_seconds": 0.0}  # the children's CPU is not read reliably as they exit


def burn_share(rounds: int, k: int) -> None:
    """One process of alone-processes: k records' work, counted in the shared tally."""
    assert SHARED is not None
    for _ in range(k):
        SHARED.start()
        burn(rounds)
        SHARED.end()


def run_alone_aio(args: argparse.Namespace, tally: Tally) -> Dict[str, Any]:
    """C asyncio tasks share N awaits of asyncio.sleep(0.01): the event loop's own ceiling."""
    async def task(k: int) -> None:
        for _ in range(k):
            tally.start()
            await asyncio.sleep(SLEEP)
            tally.end()

    async def main() -> None:
        await asyncio.gather(*(task(k) for k in shares(args.n, args.concurrency)))
    asyncio.run(main())
    return {}


def shares(n: int, ways: int) -> List[int]:
    return [n // ways + (1 if i < n % ways else 0) for i in range(ways)]


def summary(stats: Dict[str, Any]) -> Dict[str, Any]:
    """The counters of ParallelConsumer.stats() worth keeping (not the per-partition detail)."""
    keep = ("processed", "retries", "failed", "commits", "pauses", "latency_ms")
    return {k: stats[k] for k in keep if k in stats}


# -- pyrallel-consumer ------------------------------------------------------------------------

def pyrallel_process_handler(_item: Any) -> None:
    """pyrallel's process-engine worker: module level, so it pickles by reference."""
    assert SHARED is not None
    SHARED.start()
    time.sleep(SLEEP)
    SHARED.end()


def run_pyrallel(args: argparse.Namespace, tally: Any) -> Dict[str, Any]:
    from pyrallel_consumer import (ExecutionConfig, ExecutionMode, KafkaConfig, OrderingMode,
                                   ParallelConsumerConfig, PyrallelConsumer)
    from pyrallel_consumer.config import ProcessConfig

    os.chdir(tempfile.mkdtemp(prefix="bench-pyrallel-"))  # pydantic-settings reads a .env from there
    process = args.engine == "pyrallel-process"
    execution = ExecutionConfig(
        mode=ExecutionMode.PROCESS if process else ExecutionMode.ASYNC, max_in_flight=args.concurrency,
        process_config=ProcessConfig(process_count=args.concurrency, batch_size=args.batch))
    config = KafkaConfig(
        BOOTSTRAP_SERVERS=args.bootstrap, CONSUMER_GROUP=f"bench-parallel-{uuid.uuid4().hex[:12]}",
        AUTO_OFFSET_RESET="earliest", SESSION_TIMEOUT_MS=GROUP_TIMEOUTS["session.timeout.ms"],
        dlq_enabled=False,  # this project's ParallelConsumer has no dead-letter topic by default
        parallel_consumer=ParallelConsumerConfig(ordering_mode=OrderingMode(PYRALLEL_ORDERING[args.ordering]),
                                                 execution=execution))

    async def handle(_item: Any) -> None:
        tally.start()
        await asyncio.sleep(SLEEP)
        tally.end()

    async def main() -> Dict[str, Any]:
        pc = PyrallelConsumer(config, pyrallel_process_handler if process else handle, args.topic)
        await pc.start()
        try:
            if process:
                await tally.wait_closed(args.timeout)
            else:
                await asyncio.wait_for(asyncio.to_thread(tally.done.wait, args.timeout), args.timeout + 1)
        finally:
            await pc.stop()
        return {}
    return asyncio.run(main())


ENGINES = {"threads": run_threads, "aio": run_aio, "poll": run_poll, "alone": run_alone, "alone-aio": run_alone_aio,
           "alone-processes": run_alone_processes, "pyrallel-async": run_pyrallel, "pyrallel-process": run_pyrallel}


def main() -> int:
    global SHARED
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", default="")
    ap.add_argument("--topic", default="")
    ap.add_argument("-n", type=int, required=True)
    ap.add_argument("--engine", choices=tuple(ENGINES), required=True)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--ordering", choices=tuple(PYRALLEL_ORDERING), default="key")
    ap.add_argument("--work", choices=("io", "cpu"), default="io")
    ap.add_argument("--rounds", type=int, default=0, help="FNV-1a rounds (of 32 bytes) per record of --work cpu")
    ap.add_argument("--batch", type=int, default=1, help="pyrallel-process: records per micro-batch")
    ap.add_argument("--window", type=float, default=10.0,
                    help="seconds after the first handler call after which the run ends even short of N")
    ap.add_argument("--timeout", type=float, default=60.0, help="bound on the whole run, seconds")
    args = ap.parse_args()
    if args.work == "io":
        args.rounds = 0
    elif args.rounds < 1 or args.engine.startswith("pyrallel"):
        ap.error("--work cpu needs --rounds, and runs on this project's engines only")

    created = time.monotonic()
    if args.engine in ("pyrallel-process", "alone-processes"):
        SHARED = SharedTally(args.n, args.window)
        tally: Tally = SHARED
    else:
        tally = Tally(args.n, args.window)
    extra = ENGINES[args.engine](args, tally)
    result = tally.result()
    module, version = "", "no Kafka"
    if not args.engine.startswith("alone"):
        import confluent_kafka
        module = confluent_kafka.__file__
        version = f"confluent_kafka {version_string(confluent_kafka.version())}"
        if args.engine.startswith("pyrallel"):
            from importlib.metadata import version as dist_version
            version = f"pyrallel-consumer {dist_version('pyrallel-consumer')} on {version}"
    first = result.pop("first_call")
    result.update(extra, engine=args.engine, concurrency=args.concurrency, ordering=args.ordering,
                  work=args.work, rounds=args.rounds, module=module, version=version,
                  python=sys.version.split()[0], gil=gil_state(),
                  startup_seconds=(first - created) if first else None,
                  peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0)
    if result["seconds"] > 0:
        result["msgs_per_s"] = result["messages"] / result["seconds"]
    json.dump(result, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
