"""``topics``: list, create, delete and describe topics."""

from __future__ import annotations

import argparse
from typing import Any, Dict, List

from ..admin import NewTopic, OffsetSpec
from ..cimpl import KafkaError, TopicPartition
from ._admin import admin_client, error_text, print_json, print_lines, settle
from ._common import EXIT_ERROR, EXIT_OK, EXIT_USAGE, CliError, add_common_options, console_for, find_cluster
from ._output import table

EPILOG = "exit status: 0 success; 1 a request failed (each failure is printed); 2 bad arguments or no cluster."


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register ``topics`` and its actions."""
    p = sub.add_parser("topics", help="list, create, delete and describe topics",
                       description="List, create, delete and describe topics.", epilog=EPILOG)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    ls = actions.add_parser("list", help="topics with their partition counts", epilog=EPILOG)
    ls.add_argument("-a", "--all", action="store_true", help="include internal topics (names starting with __)")
    ls.add_argument("--json", action="store_true", help="JSON output")
    _timeout(ls)
    ls.set_defaults(run=run_list)

    mk = actions.add_parser("create", help="create topics", epilog=EPILOG)
    mk.add_argument("names", nargs="+", metavar="TOPIC")
    mk.add_argument("-p", "--partitions", type=int, default=-1, help="partitions (default: the broker's default)")
    mk.add_argument("-r", "--replication-factor", type=int, default=-1, help="replicas (default: the broker's)")
    mk.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE",
                    help="a topic setting, e.g. cleanup.policy=compact (repeatable)")
    mk.add_argument("--if-not-exists", action="store_true", help="a topic that already exists is not an error")
    _timeout(mk)
    mk.set_defaults(run=run_create)

    rm = actions.add_parser("delete", help="delete topics", epilog=EPILOG)
    rm.add_argument("names", nargs="+", metavar="TOPIC")
    rm.add_argument("--if-exists", action="store_true", help="a topic that does not exist is not an error")
    _timeout(rm)
    rm.set_defaults(run=run_delete)

    ds = actions.add_parser("describe", help="partitions, leaders, replicas and offsets of topics", epilog=EPILOG)
    ds.add_argument("names", nargs="+", metavar="TOPIC")
    ds.add_argument("--json", action="store_true", help="JSON output")
    _timeout(ds)
    ds.set_defaults(run=run_describe)
    for a in (ls, mk, rm, ds):
        add_common_options(a)


def _timeout(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                   help="how long to wait for the cluster (default: 30)")


def _visible(name: str, show_all: bool) -> bool:
    return show_all or not name.startswith("__")


def run_list(args: argparse.Namespace) -> int:
    """Print every topic with its partition count."""
    console = console_for(args)
    with admin_client(args, find_cluster(args, "topics list")) as admin:
        md = admin.list_topics(timeout=args.timeout)
    names = sorted(n for n in md.topics if _visible(n, args.all))
    if args.json:
        print_json([{"topic": n, "partitions": len(md.topics[n].partitions)} for n in names])
    else:
        print_lines(table(console, ["TOPIC", "PARTITIONS"], [(n, len(md.topics[n].partitions)) for n in names]))
    return EXIT_OK


def _configs(specs: List[str]) -> Dict[str, str]:
    out = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key:
            raise CliError(f"-c: expected KEY=VALUE, got {spec!r}", EXIT_USAGE)
        out[key] = value
    return out


def run_create(args: argparse.Namespace) -> int:
    """Create the topics; report each one."""
    console = console_for(args)
    configs = _configs(args.config)
    new = [NewTopic(n, num_partitions=args.partitions, replication_factor=args.replication_factor, config=configs)
           for n in args.names]
    with admin_client(args, find_cluster(args, "topics create")) as admin:
        done, failed = settle(admin.create_topics(new, operation_timeout=args.timeout,
                                                  request_timeout=args.timeout), args.timeout + 5)
    return _report(console, "created", done, failed, KafkaError.TOPIC_ALREADY_EXISTS if args.if_not_exists else None)


def run_delete(args: argparse.Namespace) -> int:
    """Delete the topics; report each one."""
    console = console_for(args)
    with admin_client(args, find_cluster(args, "topics delete")) as admin:
        done, failed = settle(admin.delete_topics(list(args.names), operation_timeout=args.timeout,
                                                  request_timeout=args.timeout), args.timeout + 5)
    return _report(console, "deleted", done, failed, KafkaError.UNKNOWN_TOPIC_OR_PART if args.if_exists else None)


def _report(console: Any, verb: str, done: Dict[str, Any], failed: Dict[str, BaseException],
            tolerated: Any) -> int:
    code = EXIT_OK
    for name in done:
        console.success(f"{verb} topic {name}")
    for name, exc in failed.items():
        err = exc.args[0] if exc.args else None
        if tolerated is not None and isinstance(err, KafkaError) and err.code() == tolerated:
            console.note(f"topic {name}: {err.str()}")
            continue
        console.error(f"topic {name}: {error_text(exc)}")
        code = EXIT_ERROR
    return code


def run_describe(args: argparse.Namespace) -> int:
    """Print each topic's partitions with leader, replicas, in-sync replicas and offsets."""
    console = console_for(args)
    code = EXIT_OK
    described: List[Dict[str, Any]] = []
    with admin_client(args, find_cluster(args, "topics describe")) as admin:
        md = admin.list_topics(timeout=args.timeout)
        for name in args.names:
            t = md.topics.get(name)
            if t is None or t.error is not None:
                console.error(f"topic {name} does not exist" + (f" ({t.error.str()})" if t is not None and t.error else ""))
                code = EXIT_ERROR
                continue
            parts = [TopicPartition(name, p) for p in sorted(t.partitions)]
            low, _ = settle(admin.list_offsets({tp: OffsetSpec.earliest() for tp in parts},
                                               request_timeout=args.timeout), args.timeout + 5)
            high, _ = settle(admin.list_offsets({tp: OffsetSpec.latest() for tp in parts},
                                                request_timeout=args.timeout), args.timeout + 5)
            rows = []
            for tp in parts:
                pm = t.partitions[tp.partition]
                lo = low[tp].offset if tp in low else None
                hi = high[tp].offset if tp in high else None
                rows.append({"partition": tp.partition, "leader": pm.leader, "replicas": list(pm.replicas),
                             "isr": list(pm.isrs), "low": lo, "high": hi,
                             "messages": hi - lo if lo is not None and hi is not None else None})
            described.append({"topic": name, "partitions": rows})
    if args.json:
        print_json(described)
        return code
    for i, d in enumerate(described):
        if i:
            print()
        print(console.style(f"{d['topic']}", "bold cyan") + f"  ({len(d['partitions'])} partitions)")
        print_lines(table(console, ["PARTITION", "LEADER", "REPLICAS", "ISR", "LOW", "HIGH", "MESSAGES"],
                          [(r["partition"], r["leader"], ",".join(map(str, r["replicas"])),
                            ",".join(map(str, r["isr"])), r["low"], r["high"], r["messages"])
                           for r in d["partitions"]]))
    return code
