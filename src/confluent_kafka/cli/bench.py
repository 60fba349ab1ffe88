"""``bench``: measure produce and consume throughput against a cluster or an embedded one."""

from __future__ import annotations

import argparse
import os
import time
import uuid
from typing import Any, Dict

from ..cimpl import OFFSET_BEGINNING, Consumer, KafkaError, KafkaException, Producer, TopicPartition
from ._admin import print_json, print_lines
from ._common import (
    BOOTSTRAP_ENV,
    DeliveryTally,
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_common_options,
    client_conf,
    console_for,
)
from ._output import Console, table

_MOCK_PARTITION_BYTES = 2 << 20  # well within what a mock partition keeps (about 5 MiB of log)

DESCRIPTION = """\
Produce --messages messages of --size bytes to a topic, then read them all back, and report
messages/s and MB/s of each phase. Without -b (or $KAFKA_BOOTSTRAP_SERVERS) it runs against an
embedded mock cluster, which measures the client rather than a broker.
"""


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register the ``bench`` subcommand."""
    p = sub.add_parser("bench", help="measure produce and consume throughput", description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="exit status: 0 every message produced and read back; 1 otherwise; "
                              "2 bad arguments; 130 interrupted.")
    p.add_argument("-n", "--messages", type=int, default=100_000, metavar="N", help="messages (default: 100000)")
    p.add_argument("-s", "--size", type=int, default=100, metavar="BYTES", help="value size (default: 100)")
    p.add_argument("--partitions", type=int, default=4, metavar="N",
                   help="partitions of the topic when bench creates it (default: 4)")
    p.add_argument("-t", "--topic", help="topic to use (default: a new one)")
    p.add_argument("--only", choices=("produce", "consume"),
                   help="run one phase (consume reads what the topic holds)")
    p.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                   help="give up a phase after this long (default: 300)")
    p.add_argument("--json", action="store_true", help="JSON output")
    add_common_options(p)
    p.set_defaults(run=run)


def _result(phase: str, count: int, nbytes: int, seconds: float) -> Dict[str, Any]:
    secs = max(seconds, 1e-9)
    return {"phase": phase, "messages": count, "mb": nbytes / 1e6, "seconds": seconds,
            "msgs_per_s": count / secs, "mb_per_s": nbytes / 1e6 / secs}


def _create_topic(args: argparse.Namespace, bootstrap: str, topic: str, console: Console) -> None:
    """Create the topic with --partitions; fall back to auto-creation if the cluster refuses."""
    from ..admin import AdminClient, NewTopic

    with AdminClient(client_conf(args, bootstrap)) as admin:
        fut = admin.create_topics([NewTopic(topic, args.partitions, -1)], request_timeout=15,
                                  operation_timeout=15)[topic]
        try:
            fut.result(20)
        except KafkaException as e:
            if e.args[0].code() != KafkaError.TOPIC_ALREADY_EXISTS:
                console.warn(f"could not create {topic} ({e.args[0].str()}); relying on auto-creation")
        except Exception:
            console.warn(f"could not create {topic} in time; relying on auto-creation")


def _produce(args: argparse.Namespace, bootstrap: str, topic: str, console: Console) -> Dict[str, Any]:
    payload = os.urandom(args.size)
    tally = DeliveryTally()
    producer = Producer(client_conf(args, bootstrap, **{"linger.ms": 5, "on_delivery": tally}))
    deadline = time.monotonic() + args.timeout
    try:
        start = time.perf_counter()
        with console.progress("producing", total=args.messages) as bar:
            for i in range(args.messages):
                while True:
                    try:
                        producer.produce(topic, payload)
                        break
                    except BufferError:
                        producer.poll(0.05)
                        if time.monotonic() > deadline:
                            raise CliError(f"timed out producing message {i}") from None
                if i % 1000 == 999:
                    producer.poll(0)
                    bar.update(1000)
            left = producer.flush(max(0.0, deadline - time.monotonic()))
        seconds = time.perf_counter() - start
    finally:
        producer.close(0)
    failed = tally.failures
    if failed or left:
        reason = failed[0].str() if failed else f"{left} still queued at the deadline"
        raise CliError(f"{len(failed) + left} of {args.messages} messages not delivered: {reason}")
    return _result("produce", tally.delivered, tally.delivered * args.size, seconds)


def _consume(args: argparse.Namespace, bootstrap: str, topic: str, console: Console) -> Dict[str, Any]:
    consumer = Consumer(client_conf(args, bootstrap, **{
        "group.id": f"confluent-kafka-bench-{uuid.uuid4().hex[:8]}", "enable.auto.commit": False,
        "enable.partition.eof": True, "auto.offset.reset": "earliest"}))
    try:
        md = consumer.list_topics(topic, timeout=30).topics.get(topic)
        if md is None or md.error is not None or not md.partitions:
            raise CliError(f"topic {topic} does not exist")
        parts = [TopicPartition(topic, p, OFFSET_BEGINNING) for p in sorted(md.partitions)]
        ends = {tp.partition: consumer.get_watermark_offsets(tp, timeout=30)[1] for tp in parts}
        consumer.assign(parts)
        at_end: Dict[int, int] = {}
        count = nbytes = 0
        deadline = time.monotonic() + args.timeout
        start = time.perf_counter()
        with console.progress("consuming", total=None) as bar:
            while len(at_end) < len(parts) or any(at_end[p] < ends[p] for p in ends):
                if time.monotonic() > deadline:
                    raise CliError(f"timed out after reading {count} messages")
                batch = consumer.consume(10_000, 0.5)
                n = 0
                for m in batch:
                    err = m.error()
                    if err is None:
                        n += 1
                        nbytes += len(m)
                        at_end.pop(m.partition() or 0, None)
                    elif err.code() == KafkaError._PARTITION_EOF:
                        at_end[m.partition() or 0] = m.offset() or 0
                    else:
                        raise KafkaException(err)
                count += n
                bar.update(n)
        seconds = time.perf_counter() - start
    finally:
        consumer.close()
    return _result("consume", count, nbytes, seconds)


def run(args: argparse.Namespace) -> int:
    """Run the phases and print the results."""
    console = console_for(args)
    if args.messages < 1 or args.size < 0 or args.partitions < 1:
        raise CliError("--messages and --partitions must be at least 1, --size at least 0", EXIT_USAGE)
    topic = args.topic or f"confluent-kafka-bench-{uuid.uuid4().hex[:8]}"
    bootstrap = args.bootstrap_servers or os.environ.get(BOOTSTRAP_ENV, "").strip()
    cluster = None
    if not bootstrap:
        from ..testing import MockCluster

        # The mock cluster keeps only about 5 MiB of log per partition: spread the data over
        # enough partitions that all of it can be read back.
        needed = -(-(args.messages * (args.size + 70)) // _MOCK_PARTITION_BYTES)
        if needed > args.partitions:
            console.note(f"using {needed} partitions so that the embedded cluster keeps every message")
            args.partitions = needed
        cluster = MockCluster(num_brokers=1)
        cluster.create_topic(topic, args.partitions, 1)
        bootstrap = cluster.bootstrap_servers
        console.note(f"no cluster given: using an embedded mock cluster ({bootstrap})")
    elif args.topic is None:
        _create_topic(args, bootstrap, topic, console)
    results = []
    try:
        if args.only in (None, "produce"):
            results.append(_produce(args, bootstrap, topic, console))
        if args.only in (None, "consume"):
            results.append(_consume(args, bootstrap, topic, console))
    finally:
        if cluster is not None:
            cluster.close()
    if args.json:
        print_json({"topic": topic, "size": args.size, "results": results})
    else:
        print_lines(table(console, ["PHASE", "MESSAGES", "MB", "SECONDS", "MSGS/S", "MB/S"],
                          [(r["phase"], r["messages"], f"{r['mb']:.1f}", f"{r['seconds']:.2f}",
                            f"{r['msgs_per_s']:,.0f}", f"{r['mb_per_s']:.1f}") for r in results]))
    code = EXIT_OK
    if args.only is None and results[1]["messages"] < results[0]["messages"]:
        console.error(f"read back {results[1]['messages']} of {results[0]['messages']} messages"
                      + (" (the mock cluster keeps about 5 MiB per partition)" if cluster is not None else ""))
        code = EXIT_ERROR
    return code
