"""``consume``: print messages from topics, from any start point, optionally stopping at the end."""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from datetime import datetime
from typing import Callable, Dict, List, Optional, Tuple

from ..cimpl import (
    OFFSET_BEGINNING,
    OFFSET_END,
    OFFSET_STORED,
    Consumer,
    KafkaError,
    KafkaException,
    Message,
    TopicPartition,
)
from ._common import (
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    Cluster,
    add_common_options,
    client_conf,
    console_for,
    find_cluster,
    parse_escapes,
)
from ._format import FORMAT_HELP, compile_format, json_line
from ._output import Console

DESCRIPTION = """\
Consume messages and write them to stdout, one per line by default (see -f).

Without -G it reads every partition of the topics (or those given with -p) from the -o start
point, committing nothing. With -G GROUP it joins that consumer group, gets partitions assigned,
and commits what it read.

Without -b or $KAFKA_BOOTSTRAP_SERVERS, it reads the embedded mock cluster announced on stdin by
'confluent-kafka produce'; it then stops by itself once it has read everything produced.
"""

EPILOG = FORMAT_HELP + """
start points (-o): beginning, end, stored (the group's committed offset), N (an absolute
offset), -N (N messages before the end); or --from-time TIME (epoch ms or ISO 8601).

exit status: 0 done (end reached with -e, -c count reached, or the reader of stdout went away);
1 a Kafka error or a missing topic; 2 bad arguments or no cluster; 130 interrupted.
"""

_TOPIC_ERRORS = (KafkaError.UNKNOWN_TOPIC_OR_PART, KafkaError._UNKNOWN_TOPIC, KafkaError._UNKNOWN_PARTITION,
                 KafkaError.TOPIC_AUTHORIZATION_FAILED, KafkaError.GROUP_AUTHORIZATION_FAILED)

TPKey = Tuple[str, int]


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register the ``consume`` subcommand."""
    p = sub.add_parser("consume", help="consume messages to stdout", description=DESCRIPTION, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-t", "--topic", action="append", required=True, help="topic to read (repeatable)")
    p.add_argument("-G", "--group", help="join this consumer group instead of reading every partition")
    p.add_argument("-p", "--partition", type=int, action="append", help="only this partition (repeatable; not with -G)")
    p.add_argument("-o", "--offset", default="beginning",
                   help="where to start: beginning (default), end, stored, N or -N")
    p.add_argument("--from-time", metavar="TIME", help="start at the first message at or after TIME")
    p.add_argument("-e", "--exit-at-end", action="store_true", help="stop when every partition has been read to its end")
    p.add_argument("-c", "--count", type=int, metavar="N", help="stop after N messages")
    p.add_argument("--idle-timeout", type=float, metavar="SECONDS", help="stop after SECONDS without a message")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("-f", "--format", help=r"output format, e.g. '%%t[%%p]@%%o %%k=%%s\n'")
    fmt.add_argument("-J", "--json", action="store_true", help="one JSON object per message")
    p.add_argument("-K", "--key-delimiter", metavar="DELIM", help="print the key, DELIM, then the value")
    p.add_argument("-D", "--delimiter", default=r"\n", metavar="DELIM", help=r"end of each message (default: \n)")
    p.add_argument("--null", default="", metavar="TEXT", help="what a null key or value prints as (default: nothing)")
    add_common_options(p)
    p.set_defaults(run=run)


def _parse_time(text: str) -> int:
    """Epoch milliseconds from ``text`` (an integer, or ISO 8601; local time if no zone)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CliError(f"--from-time: not epoch milliseconds or ISO 8601: {text!r}", EXIT_USAGE) from None
    return int(dt.timestamp() * 1000)


def _renderer(args: argparse.Namespace) -> Callable[[Message], bytes]:
    if args.json:
        return json_line
    null = parse_escapes(args.null).encode()
    if args.format is not None:
        return compile_format(args.format, null)
    delim = args.delimiter.replace("%", "%%")
    if args.key_delimiter is not None:
        return compile_format("%k" + args.key_delimiter.replace("%", "%%") + "%s" + delim, null)
    return compile_format("%s" + delim, null)


def _start_offset(spec: str) -> Optional[int]:
    """The offset for a -o spec that needs no lookup; None for -N (relative to the end)."""
    named = {"beginning": OFFSET_BEGINNING, "earliest": OFFSET_BEGINNING, "end": OFFSET_END,
             "latest": OFFSET_END, "stored": OFFSET_STORED}
    if spec in named:
        return named[spec]
    try:
        n = int(spec)
    except ValueError:
        raise CliError(f"-o: expected beginning, end, stored, N or -N, got {spec!r}", EXIT_USAGE) from None
    return n if n >= 0 else None


def _partitions(consumer: Consumer, args: argparse.Namespace) -> List[TopicPartition]:
    """Every wanted partition of the topics; a missing topic or partition is an error."""
    out: List[TopicPartition] = []
    for topic in args.topic:
        md = consumer.list_topics(topic, timeout=10)
        t = md.topics.get(topic)
        if t is None or t.error is not None or not t.partitions:
            reason = f" ({t.error.str()})" if t is not None and t.error is not None else ""
            raise CliError(f"topic {topic} does not exist{reason}")
        ids = sorted(t.partitions)
        wanted = args.partition or ids
        missing = sorted(set(wanted) - set(ids))
        if missing:
            raise CliError(f"topic {topic} has no partition {missing[0]} (it has {len(ids)})")
        out.extend(TopicPartition(topic, p) for p in wanted)
    return out


def _place(consumer: Consumer, parts: List[TopicPartition], args: argparse.Namespace) -> None:
    """Set the start offset of every partition from -o or --from-time."""
    if args.from_time is not None:
        ms = _parse_time(args.from_time)
        found = consumer.offsets_for_times([TopicPartition(tp.topic, tp.partition, ms) for tp in parts], timeout=10)
        by_key = {(tp.topic, tp.partition): tp.offset for tp in found}
        for tp in parts:
            off = by_key.get((tp.topic, tp.partition), -1)
            tp.offset = off if off >= 0 else OFFSET_END
        return
    start = _start_offset(args.offset)
    for tp in parts:
        if start is not None:
            tp.offset = start
        else:
            lo, hi = consumer.get_watermark_offsets(tp, timeout=10)
            tp.offset = max(lo, hi + int(args.offset))


class _EndTracker:
    """Knows when every assigned partition has been read to its end (and, behind a pipe from
    ``produce``, to at least the end the producer left it at)."""

    def __init__(self) -> None:
        self.eof: Dict[TPKey, int] = {}
        self.target: Optional[Dict[TPKey, int]] = None

    def at_end(self, consumer: Consumer) -> bool:
        assigned = consumer.assignment()
        if not assigned:
            return False
        for tp in assigned:
            key = (tp.topic, tp.partition)
            if key not in self.eof:
                return False
            if self.target is not None and self.eof[key] < self.target.get(key, 0):
                return False
        return True

    def set_target(self, consumer: Consumer) -> None:
        self.target = {}
        for tp in consumer.assignment():
            self.target[(tp.topic, tp.partition)] = consumer.get_watermark_offsets(tp, timeout=10)[1]


def run(args: argparse.Namespace) -> int:
    """Consume until the stop condition, writing every message to stdout."""
    console = console_for(args)
    if args.group and args.partition:
        raise CliError("-p cannot be used with -G (the group assigns partitions)", EXIT_USAGE)
    if args.group and (args.from_time or _start_offset(args.offset) not in (OFFSET_BEGINNING, OFFSET_END, OFFSET_STORED)):
        raise CliError("with -G only -o beginning, end or stored can be used", EXIT_USAGE)
    if args.count is not None and args.count < 1:
        raise CliError("-c must be at least 1", EXIT_USAGE)
    render = _renderer(args)
    cluster = find_cluster(args, "consume")
    reset = "latest" if _start_offset(args.offset) == OFFSET_END else "earliest"
    conf = client_conf(args, cluster.bootstrap, **{
        "group.id": args.group or f"confluent-kafka-cli-{uuid.uuid4().hex[:12]}",
        "enable.partition.eof": True,
        "auto.offset.reset": reset,
        "enable.auto.commit": bool(args.group),
        "enable.auto.offset.store": bool(args.group),
    })
    consumer = Consumer(conf)
    try:
        if args.group:
            consumer.subscribe(args.topic)
        else:
            parts = _partitions(consumer, args)
            _place(consumer, parts, args)
            consumer.assign(parts)
        count = _loop(consumer, args, console, cluster, render)
    finally:
        consumer.close()
    console.note(f"consumed {count} messages")
    return EXIT_OK


def _loop(consumer: Consumer, args: argparse.Namespace, console: Console, cluster: Cluster,
          render: Callable[[Message], bytes]) -> int:
    out = sys.stdout.buffer
    ends = _EndTracker()
    count = 0
    last_message = time.monotonic()
    # A bar on the terminal only when the messages go elsewhere, not in between them.
    with console.progress("consuming", show=not sys.stdout.isatty()) as bar:
        while args.count is None or count < args.count:
            if cluster.handoff is not None and ends.target is None and cluster.handoff.producer_done():
                if cluster.handoff.produced is None:
                    raise CliError("the producing command ended without finishing; its mock cluster is gone")
                ends.set_target(consumer)
            if (args.exit_at_end or ends.target is not None) and ends.at_end(consumer):
                break
            if args.idle_timeout is not None and time.monotonic() - last_message > args.idle_timeout:
                break
            want = 1000 if args.count is None else min(1000, args.count - count)
            batch = consumer.consume(want, 0.2)
            written = 0
            for m in batch:
                err = m.error()
                if err is not None:
                    _on_error(console, ends, m, err)
                    continue
                ends.eof.pop((m.topic() or "", m.partition() or 0), None)
                out.write(render(m))
                written += 1
            if written:
                out.flush()
                count += written
                bar.update(written)
                last_message = time.monotonic()
    return count


def _on_error(console: Console, ends: _EndTracker, m: Message, err: KafkaError) -> None:
    code = err.code()
    if code == KafkaError._PARTITION_EOF:
        ends.eof[(m.topic() or "", m.partition() or 0)] = m.offset() or 0
    elif err.fatal():
        raise KafkaException(err)
    elif code in _TOPIC_ERRORS:
        what = f"topic {m.topic()}" if m.topic() else "the subscription"
        raise CliError(f"cannot read {what}: {err.str()}")
    else:
        console.warn(err.str())
