"""Produce messages to an in-process mock Kafka cluster, consume them back, and check every one.

Needs no broker: librdkafka's mock cluster runs inside this process. Prints what it did and
the produce and consume throughput. Exits non-zero, with the reason, if any message is lost,
duplicated, altered or out of order, or if the whole run takes longer than --timeout seconds.

    python examples/roundtrip.py [--messages 100000] [--size 100] [--partitions 4]
"""
import argparse
import faulthandler
import sys
import time

from typing import Optional, Tuple

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Message, Producer, TopicPartition, libversion
from confluent_kafka.testing import MockCluster


class RoundtripError(Exception):
    pass


def payload(index: int, size: int) -> bytes:
    """The value of message number `index`: its number, then a filler byte that depends on it."""
    head = b"%010d:" % index
    return head + bytes([97 + index % 26]) * max(0, size - len(head))


def produce(bootstrap: str, topic: str, count: int, size: int, deadline: float) -> float:
    """Produce `count` messages, wait for every delivery report; return the seconds it took."""
    delivered = 0
    failures = []

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        nonlocal delivered
        if err is not None:
            failures.append(err)
        else:
            delivered += 1

    producer = Producer({"bootstrap.servers": bootstrap, "on_delivery": on_delivery})
    try:
        start = time.perf_counter()
        for i in range(count):
            while True:
                try:
                    producer.produce(topic, payload(i, size), key=b"%d" % i)
                    break
                except BufferError:  # local queue full: serve delivery reports to make room
                    producer.poll(0.1)
                    if time.monotonic() > deadline:
                        raise RoundtripError(f"timed out producing message {i}") from None
            if i % 1000 == 0:
                producer.poll(0)
        left = producer.flush(max(0.0, deadline - time.monotonic()))
        elapsed = time.perf_counter() - start
    finally:
        producer.close()
    if left:
        raise RoundtripError(f"{left} messages still undelivered at the deadline")
    if failures:
        raise RoundtripError(f"{len(failures)} deliveries failed, first: {failures[0]}")
    if delivered != count:
        raise RoundtripError(f"{delivered} delivery reports for {count} messages")
    return elapsed


def consume(bootstrap: str, topic: str, partitions: int, count: int, size: int,
            deadline: float) -> Tuple[float, int, float]:
    """Read the topic from the beginning, checking every message.

    Returns (seconds until the first batch arrived, messages after it, seconds they took):
    the start-up (connect, look up offsets, first fetch) is reported apart from the flow.
    """
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "roundtrip-demo",
                         "enable.auto.commit": False})
    seen = bytearray(count)
    received = 0
    next_offset = [0] * partitions
    last_index = [-1] * partitions
    first_batch: Optional[Tuple[float, int]] = None
    try:
        start = time.perf_counter()
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in range(partitions)])
        while received < count:
            if time.monotonic() > deadline:
                raise RoundtripError(f"timed out after consuming {received} of {count} messages")
            batch = consumer.consume(num_messages=1000, timeout=0.1)
            if batch and first_batch is None:
                first_batch = (time.perf_counter(), len(batch))
            for msg in batch:
                err = msg.error()
                if err is not None:
                    if err.code() == KafkaError._PARTITION_EOF:
                        continue
                    raise RoundtripError(f"consume error: {err}")
                p, key, value = msg.partition(), msg.key(), msg.value()
                if p is None or key is None or value is None:
                    raise RoundtripError(f"message without partition, key or value at offset {msg.offset()}")
                index = int(key)
                if value != payload(index, size):
                    raise RoundtripError(f"message {index} arrived altered: {value[:40]!r}...")
                if seen[index]:
                    raise RoundtripError(f"message {index} arrived twice")
                if msg.offset() != next_offset[p] or index <= last_index[p]:
                    raise RoundtripError(f"message {index} out of order in partition {p} "
                                         f"(offset {msg.offset()}, expected {next_offset[p]})")
                seen[index] = 1
                next_offset[p] += 1
                last_index[p] = index
                received += 1
        end = time.perf_counter()
    finally:
        consumer.close()
    if first_batch is None:
        raise RoundtripError("no message arrived")
    first_at, first_len = first_batch
    return first_at - start, count - first_len, end - first_at


def rate(count: int, size: int, seconds: float) -> str:
    if count <= 0 or seconds <= 0:
        return f"{max(seconds, 0):.2f} s"
    return (f"{seconds:.2f} s: {count / seconds:,.0f} msgs/s, "
            f"{count * size / seconds / 1e6:.1f} MB/s")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--messages", type=int, default=100_000)
    ap.add_argument("--size", type=int, default=100, help="value size in bytes (>= 11)")
    ap.add_argument("--partitions", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=120.0, help="bound on the whole run, seconds")
    args = ap.parse_args()
    if args.messages < 1 or args.partitions < 1:
        ap.error("--messages and --partitions must be at least 1")
    deadline = time.monotonic() + args.timeout
    # Last resort should a call block past every deadline: dump where it hangs and exit.
    faulthandler.dump_traceback_later(args.timeout + 30, exit=True)

    topic = "roundtrip-demo"
    with MockCluster(num_brokers=1) as cluster:
        bootstrap = cluster.bootstrap_servers
        cluster.create_topic(topic, args.partitions, 1)
        print(f"librdkafka {libversion()[0]} mock cluster, 1 broker at {bootstrap}; "
              f"topic {topic!r} with {args.partitions} partitions")
        try:
            produced = produce(bootstrap, topic, args.messages, args.size, deadline)
            print(f"produced {args.messages:,} messages of {args.size} B, all delivery reports "
                  f"received, in {rate(args.messages, args.size, produced)}")
            startup, flowed, seconds = consume(bootstrap, topic, args.partitions, args.messages,
                                               args.size, deadline)
            print(f"consumed {args.messages:,} messages: the first batch after {startup:.2f} s "
                  f"(connect, offsets, first fetch), the other {flowed:,} in "
                  f"{rate(flowed, args.size, seconds)}")
        except RoundtripError as exc:
            print(f"FAILED: {exc}", file=sys.stderr)
            return 1
    print("verified: every message arrived once, intact, and in order within its partition")
    return 0


if __name__ == "__main__":
    sys.exit(main())
