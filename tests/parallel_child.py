"""Consumer processes for the parallel consumer's process-level tests, run as
``python tests/parallel_child.py MODE ...``:

* ``ours BOOTSTRAP TOPIC GROUP LOG KILL_AT PAUSE``: a ``ParallelConsumer`` (key order, 32 at once,
  the default commit interval) whose handler sleeps and logs ``start``/``end`` lines to LOG.
* ``pyrallel ...`` (same arguments): pyrallel-consumer 1.0.0's ``PyrallelConsumer`` with its asyncio
  engine (key order, 32 in flight, the finished offsets in the commit metadata) and the same handler
  as a coroutine. It runs under an interpreter with pyrallel-consumer and upstream confluent-kafka
  (``.pyrallel-venv``) and imports nothing of this project.
* ``backpressure BOOTSTRAP TOPIC GROUP SECONDS SLEEP_MS``: a ``ParallelConsumer`` (4 at once, the
  default bounds) with a slow handler, for SECONDS after the first record finished; then one JSON
  line on stdout: the RSS before run(), the max_waiting in force, samples of the RSS and ``stats()``.

The log lines are ``start|end PARTITION OFFSET KEY``, each one ``os.write`` to an ``O_APPEND`` file:
whole lines, in the order they happened, and still there after a SIGKILL. With KILL_AT > 0 the
process SIGKILLs itself right after its KILL_AT-th ``end`` line, a kill point counted in records
and so the same for both consumers; with 0 it runs until SIGTERM. PAUSE is the handler's sleep in
milliseconds, ``BASE:SLOW:EVERY``: SLOW for every EVERY-th offset of a partition, BASE for the others.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from typing import Any, Dict, List

# Group timeouts that keep a restart short on the mock cluster: it waits for a killed member
# until its session expires, and completes no join with session.timeout.ms under 3000.
GROUP_CONF = {"session.timeout.ms": 3000, "heartbeat.interval.ms": 500}
# How long the backpressure run may take at most, group join included.
BACKPRESSURE_DEADLINE = 60.0


class Log:
    """The handler's events, appended to a file; the SIGKILL after the KILL_AT-th end."""

    def __init__(self, path: str, kill_at: int) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.kill_at = kill_at
        self.ends = 0
        self.lock = threading.Lock()

    def write(self, what: str, partition: int, offset: int, key: bytes) -> None:
        os.write(self.fd, f"{what} {partition} {offset} {key.decode()}\n".encode())

    def end(self, partition: int, offset: int, key: bytes) -> None:
        with self.lock:
            self.write("end", partition, offset, key)
            self.ends += 1
            if self.ends == self.kill_at:
                os.kill(os.getpid(), signal.SIGKILL)


class Pause:
    """The handler's sleep for an offset, in seconds (``BASE:SLOW:EVERY`` milliseconds)."""

    def __init__(self, spec: str) -> None:
        base, slow, every = spec.split(":")
        self.base, self.slow, self.every = float(base) / 1000, float(slow) / 1000, int(every)

    def __call__(self, offset: int) -> float:
        return self.slow if offset % self.every == self.every - 1 else self.base


def ours(bootstrap: str, topic: str, group: str, log_path: str, kill_at: str, pause_spec: str) -> None:
    from confluent_kafka.parallel import ParallelConsumer

    log, pause = Log(log_path, int(kill_at)), Pause(pause_spec)

    def handler(msg: Any) -> None:
        log.write("start", msg.partition(), msg.offset(), msg.key())
        time.sleep(pause(msg.offset()))
        log.end(msg.partition(), msg.offset(), msg.key())

    pc = ParallelConsumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                           **GROUP_CONF}, ordering="key", max_concurrency=32)
    pc.subscribe([topic])
    pc.run(handler)  # returns on SIGTERM, once what is in process finished and is committed


def pyrallel(bootstrap: str, topic: str, group: str, log_path: str, kill_at: str, pause_spec: str) -> None:
    import asyncio

    from pyrallel_consumer import ExecutionMode, KafkaConfig, OrderingMode, PyrallelConsumer

    class Config(KafkaConfig):
        # pyrallel-consumer sets session.timeout.ms only: librdkafka's 3 s heartbeat would not
        # fit in the 3 s session.
        def get_consumer_config(self) -> Dict[str, Any]:
            return {**super().get_consumer_config(), **GROUP_CONF}

    config = Config(BOOTSTRAP_SERVERS=bootstrap, CONSUMER_GROUP=group, AUTO_OFFSET_RESET="earliest",
                    SESSION_TIMEOUT_MS=GROUP_CONF["session.timeout.ms"], dlq_enabled=False)
    config.parallel_consumer.ordering_mode = OrderingMode.KEY_HASH
    # Its counterpart of our commit metadata (the default, contiguous_only, commits the offset only).
    config.parallel_consumer.rebalance_state_strategy = "metadata_snapshot"
    config.parallel_consumer.execution.mode = ExecutionMode.ASYNC
    config.parallel_consumer.execution.max_in_flight = 32
    log, pause = Log(log_path, int(kill_at)), Pause(pause_spec)

    async def worker(item: Any) -> None:
        log.write("start", item.tp.partition, item.offset, item.key)
        await asyncio.sleep(pause(item.offset))
        log.end(item.tp.partition, item.offset, item.key)

    async def main() -> None:
        consumer = PyrallelConsumer(config=config, worker=worker, topic=topic)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await consumer.start()
        try:
            await stop.wait()
        finally:
            await consumer.stop()

    asyncio.run(main())


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def backpressure(bootstrap: str, topic: str, group: str, seconds: str, sleep_ms: str) -> None:
    from confluent_kafka.parallel import ParallelConsumer

    pause = float(sleep_ms) / 1000
    pc = ParallelConsumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                           "session.timeout.ms": 6000, "heartbeat.interval.ms": 1000},
                          ordering="key", max_concurrency=4)
    pc.subscribe([topic])
    samples: List[Dict[str, Any]] = []

    def sample() -> None:
        deadline = time.monotonic() + BACKPRESSURE_DEADLINE
        until = deadline
        while time.monotonic() < min(until, deadline):
            stats = pc.stats()
            samples.append({"rss": rss_bytes(), "waiting": stats["waiting"], "pauses": stats["pauses"],
                            "processed": stats["processed"],
                            "partitions": {name: {"waiting": p["waiting"], "paused": p["paused"]}
                                           for name, p in stats["partitions"].items()}})
            if stats["processed"] and until == deadline:
                until = time.monotonic() + float(seconds)
            time.sleep(0.05)
        pc.stop()

    baseline = rss_bytes()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    pc.run(lambda msg: time.sleep(pause))
    sampler.join(10)
    bound = pc._options.max_waiting  # noqa: SLF001 - the default this run had
    print(json.dumps({"baseline": baseline, "max_waiting": bound, "samples": samples}), flush=True)


if __name__ == "__main__":
    {"ours": ours, "pyrallel": pyrallel, "backpressure": backpressure}[sys.argv[1]](*sys.argv[2:])
