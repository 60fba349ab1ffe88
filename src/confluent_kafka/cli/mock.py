"""``mock``: serve an in-process mock cluster until stopped, for any client to use."""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Tuple

from ._common import BOOTSTRAP_ENV, EXIT_OK, EXIT_USAGE, CliError, console_for

DESCRIPTION = f"""\
Start librdkafka's mock Kafka cluster on loopback, print its bootstrap address as the first line
of stdout, and serve it until interrupted (Ctrl-C, SIGTERM) or for --for seconds. Any client can
use it meanwhile:

    confluent-kafka mock --topic demo:3 > /tmp/addr &
    export {BOOTSTRAP_ENV}=$(head -1 /tmp/addr)

The cluster keeps its data in memory, about 5 MiB per partition; it does not implement the
topic or group administration requests (topics create/delete/describe work through --topic
and through auto-creation, which makes 4 partitions).
"""


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register the ``mock`` subcommand."""
    p = sub.add_parser("mock", help="serve a mock cluster and print its address", description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       epilog="exit status: 0 stopped by a signal or --for; 2 bad arguments.")
    p.add_argument("--brokers", type=int, default=1, metavar="N", help="number of brokers (default: 1)")
    p.add_argument("--topic", action="append", default=[], metavar="NAME[:PARTITIONS]",
                   help="create this topic (repeatable; default 1 partition)")
    p.add_argument("--for", dest="duration", type=float, metavar="SECONDS", help="stop after SECONDS")
    p.add_argument("--color", "--colour", dest="color", choices=("auto", "always", "never"), default="auto",
                   help="colour output: auto, always, never")
    p.add_argument("-q", "--quiet", action="store_true", help="no notes on stderr")
    p.set_defaults(run=run)


def _topics(specs: List[str]) -> List[Tuple[str, int]]:
    out = []
    for spec in specs:
        name, _, count = spec.partition(":")
        try:
            n = int(count) if count else 1
        except ValueError:
            n = 0
        if not name or n < 1:
            raise CliError(f"--topic: expected NAME or NAME:PARTITIONS, got {spec!r}", EXIT_USAGE)
        out.append((name, n))
    return out


def run(args: argparse.Namespace) -> int:
    """Serve the cluster until a signal or the --for deadline."""
    from ..testing import MockCluster

    console = console_for(args)
    if args.brokers < 1:
        raise CliError("--brokers must be at least 1", EXIT_USAGE)
    if args.duration is not None and args.duration < 0:
        raise CliError("--for must not be negative", EXIT_USAGE)
    topics = _topics(args.topic)
    with MockCluster(num_brokers=args.brokers) as cluster:
        for name, partitions in topics:
            cluster.create_topic(name, partitions, 1)
        sys.stdout.write(cluster.bootstrap_servers + "\n")
        sys.stdout.flush()
        console.note(f"mock cluster with {args.brokers} broker(s) at {cluster.bootstrap_servers}; "
                     f"use -b {cluster.bootstrap_servers} or export {BOOTSTRAP_ENV}={cluster.bootstrap_servers}; "
                     f"stop with Ctrl-C")
        deadline = None if args.duration is None else time.monotonic() + args.duration
        try:
            while deadline is None or time.monotonic() < deadline:
                time.sleep(0.2 if deadline is None else max(0.0, min(0.2, deadline - time.monotonic())))
        except KeyboardInterrupt:
            pass  # Ctrl-C or SIGTERM: the normal way to stop
    console.note("mock cluster stopped")
    return EXIT_OK
