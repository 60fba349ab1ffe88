"""``produce``: send messages read from stdin or files, one per delimiter."""

from __future__ import annotations

import argparse
import os
import sys
from typing import BinaryIO, Iterator, List, Optional, Tuple

from ..cimpl import Producer
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
    parse_escapes,
)
from ._handoff import HandoffWriter, fd_is_pipe
from ._output import Console

DESCRIPTION = """\
Produce messages to a topic. Each message is a piece of the input (stdin, or the FILEs)
ending at the delimiter (a newline by default); with -K the text before the first key
delimiter is the key.

Without a cluster (no -b and no $KAFKA_BOOTSTRAP_SERVERS) produce starts an embedded mock
cluster. When stdout is a pipe it announces that cluster on it, so a 'confluent-kafka consume'
reading the pipe finds it, and keeps the cluster up until that reader exits:

    seq 5 | confluent-kafka produce -t demo | confluent-kafka consume -t demo
"""

EPILOG = """\
exit status: 0 every message delivered; 1 some message failed (the errors are printed);
2 bad arguments; 130 interrupted.
"""


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register the ``produce`` subcommand."""
    p = sub.add_parser("produce", help="produce messages from stdin or files", description=DESCRIPTION,
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-t", "--topic", required=True, help="topic to produce to")
    p.add_argument("-p", "--partition", type=int, default=-1, help="partition (default: the partitioner picks)")
    p.add_argument("-k", "--key", help="key of every message")
    p.add_argument("-K", "--key-delimiter", metavar="DELIM",
                   help="split each message at the first DELIM into key and value (no DELIM: null key)")
    p.add_argument("-D", "--delimiter", default=r"\n", metavar="DELIM",
                   help=r"message delimiter, escapes like \n \t \0 \xHH allowed (default: \n)")
    p.add_argument("-H", "--header", action="append", default=[], metavar="NAME=VALUE",
                   help="a header on every message (repeatable)")
    p.add_argument("--whole-file", action="store_true", help="send each FILE as one message")
    p.add_argument("--partitions", type=int, default=1, metavar="N",
                   help="partitions of the topic in the embedded mock cluster (default: 1)")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="give up waiting for deliveries after this long (default: message.timeout.ms)")
    p.add_argument("files", nargs="*", metavar="FILE", help="input files; '-' is stdin (default: stdin)")
    add_common_options(p)
    p.set_defaults(run=run)


def _chunks(f: BinaryIO, delim: bytes, size: int = 1 << 16) -> Iterator[bytes]:
    """The pieces of ``f`` between delimiters, read as they arrive (no trailing empty piece)."""
    read = getattr(f, "read1", f.read)
    buf = b""
    while True:
        data = read(size)
        if not data:
            break
        buf += data
        if delim in data or delim in buf[-len(data) - len(delim):]:
            parts = buf.split(delim)
            buf = parts.pop()
            yield from parts
    if buf:
        yield buf


def _inputs(files: List[str]) -> List[Tuple[str, BinaryIO]]:
    """Open every input up front, so a missing file fails before anything is produced."""
    opened: List[Tuple[str, BinaryIO]] = []
    for name in files or ["-"]:
        if name == "-":
            opened.append(("<stdin>", sys.stdin.buffer))
            continue
        try:
            opened.append((name, open(name, "rb")))
        except OSError as e:
            for n, f in opened:
                if n != "<stdin>":
                    f.close()
            raise CliError(f"cannot read {name}: {e.strerror}", EXIT_USAGE) from e
    return opened


def _messages(inputs: List[Tuple[str, BinaryIO]], delim: bytes, whole: bool) -> Iterator[bytes]:
    for name, f in inputs:
        try:
            if whole:
                yield f.read()
            else:
                yield from _chunks(f, delim)
        finally:
            if name != "<stdin>":
                f.close()


def _headers(specs: List[str]) -> Optional[List[Tuple[str, bytes]]]:
    out = []
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name:
            raise CliError(f"-H: expected NAME=VALUE, got {spec!r}", EXIT_USAGE)
        out.append((name, parse_escapes(value).encode()))
    return out or None


def run(args: argparse.Namespace) -> int:
    """Produce, report, and (embedded cluster behind a pipe) keep the cluster for the reader."""
    console = console_for(args)
    delim = parse_escapes(args.delimiter).encode()
    if not delim:
        raise CliError("the delimiter must not be empty", EXIT_USAGE)
    key_delim = parse_escapes(args.key_delimiter).encode() if args.key_delimiter else None
    if key_delim == b"":
        raise CliError("the key delimiter must not be empty", EXIT_USAGE)
    if args.partitions < 1:
        raise CliError("--partitions must be at least 1", EXIT_USAGE)
    headers = _headers(args.header)
    fixed_key = args.key.encode() if args.key is not None else None
    inputs = _inputs(args.files)

    bootstrap = args.bootstrap_servers or os.environ.get(BOOTSTRAP_ENV, "").strip()
    cluster = None
    handoff: Optional[HandoffWriter] = None
    if not bootstrap:
        from ..testing import MockCluster

        cluster = MockCluster(num_brokers=1)
        cluster.create_topic(args.topic, args.partitions, 1)
        bootstrap = cluster.bootstrap_servers
        if fd_is_pipe(sys.stdout.fileno()):
            handoff = HandoffWriter(sys.stdout.fileno())
            handoff.announce(bootstrap)
        else:
            console.note(f"no cluster given: producing to an embedded mock cluster ({bootstrap}) that ends "
                         f"with this command; pipe into 'confluent-kafka consume -t {args.topic}' to read "
                         f"the messages back, or start a lasting one with 'confluent-kafka mock'")
    try:
        return _produce_all(args, console, bootstrap, inputs, delim, key_delim, fixed_key, headers, handoff)
    finally:
        if cluster is not None:
            cluster.close()


def _produce_all(args: argparse.Namespace, console: Console, bootstrap: str,
                 inputs: List[Tuple[str, BinaryIO]], delim: bytes, key_delim: Optional[bytes],
                 fixed_key: Optional[bytes], headers: Optional[List[Tuple[str, bytes]]],
                 handoff: Optional[HandoffWriter]) -> int:
    tally = DeliveryTally()
    producer = Producer(client_conf(args, bootstrap, on_delivery=tally))
    sent = 0
    try:
        with console.progress(f"producing to {args.topic}") as bar:
            for value in _messages(inputs, delim, args.whole_file):
                key = fixed_key
                if key_delim is not None:
                    k, sep, v = value.partition(key_delim)
                    key, value = (k, v) if sep else (None, value)
                while True:
                    try:
                        producer.produce(args.topic, value, key, partition=args.partition, headers=headers)
                        break
                    except BufferError:  # local queue full: serve delivery reports to make room
                        producer.poll(0.1)
                sent += 1
                bar.update()
                if sent % 1000 == 0:
                    producer.poll(0)
            left = producer.flush(-1 if args.timeout is None else args.timeout)
    finally:
        producer.close(0)
    failures, delivered = tally.failures, tally.delivered
    if failures:
        kinds = sorted({f"{e.name()} ({e.str()})" for e in failures})
        console.error(f"{len(failures)} of {sent} messages were not delivered to {args.topic}: {'; '.join(kinds)}")
    elif left:
        console.error(f"{left} of {sent} messages were still undelivered after {args.timeout} s")
    else:
        console.success(f"produced {delivered} messages to {args.topic}")
    if handoff is not None:
        if handoff.done(delivered):
            handoff.wait_for_reader_to_close()
    return EXIT_ERROR if failures or left else EXIT_OK
