"""``groups``: list and describe consumer groups, show their committed offsets and lag."""

from __future__ import annotations

import argparse
from typing import Any, Dict, List, Optional

from .. import KafkaException
from ..admin import ConsumerGroupTopicPartitions
from ..cimpl import Consumer, TopicPartition
from ._admin import admin_client, error_text, print_json, print_lines, settle
from ._common import EXIT_ERROR, EXIT_OK, CliError, Cluster, add_common_options, client_conf, console_for, find_cluster
from ._output import Console, table

EPILOG = "exit status: 0 success; 1 a request failed (each failure is printed); 2 bad arguments or no cluster."


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Register ``groups`` and its actions."""
    p = sub.add_parser("groups", help="list and describe consumer groups, their offsets and lag",
                       description="List and describe consumer groups, their committed offsets and lag.",
                       epilog=EPILOG)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    ls = actions.add_parser("list", help="consumer groups with their state", epilog=EPILOG)
    ls.set_defaults(run=run_list)
    ds = actions.add_parser("describe", help="state, coordinator and members of groups", epilog=EPILOG)
    ds.add_argument("names", nargs="+", metavar="GROUP")
    ds.set_defaults(run=run_describe)
    of = actions.add_parser("offsets", help="a group's committed offsets", epilog=EPILOG)
    lg = actions.add_parser("lag", help="how far a group is behind the end of each partition", epilog=EPILOG)
    for a in (of, lg):
        a.add_argument("name", metavar="GROUP")
        a.add_argument("-t", "--topic", action="append",
                       help="only this topic (repeatable); asks the partitions directly, which also works "
                            "where the cluster cannot list a group's offsets")
    of.set_defaults(run=run_offsets)
    lg.set_defaults(run=run_lag)
    for a in (ls, ds, of, lg):
        a.add_argument("--json", action="store_true", help="JSON output")
        a.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS",
                       help="how long to wait for the cluster (default: 30)")
        add_common_options(a)


def run_list(args: argparse.Namespace) -> int:
    """Print every consumer group with its state and type."""
    console = console_for(args)
    with admin_client(args, find_cluster(args, "groups list")) as admin:
        result = admin.list_consumer_groups(request_timeout=args.timeout).result(args.timeout + 5)
    for err in result.errors or []:
        console.error(error_text(KafkaException(err)))
    groups = sorted(result.valid or [], key=lambda g: g.group_id)
    rows = [{"group": g.group_id, "state": g.state.name if getattr(g, "state", None) is not None else None,
             "type": g.type.name if getattr(g, "type", None) is not None else None,
             "simple": g.is_simple_consumer_group} for g in groups]
    if args.json:
        print_json(rows)
    else:
        print_lines(table(console, ["GROUP", "STATE", "TYPE"], [(r["group"], r["state"], r["type"]) for r in rows]))
    return EXIT_ERROR if result.errors else EXIT_OK


def run_describe(args: argparse.Namespace) -> int:
    """Print each group's state, assignor, coordinator and members with their partitions."""
    console = console_for(args)
    with admin_client(args, find_cluster(args, "groups describe")) as admin:
        done, failed = settle(admin.describe_consumer_groups(list(args.names), request_timeout=args.timeout),
                              args.timeout + 5)
    for name, exc in failed.items():
        console.error(f"group {name}: {error_text(exc)}")
    out: List[Dict[str, Any]] = []
    for name in args.names:
        if name not in done:
            continue
        d = done[name]
        coord = d.coordinator
        out.append({
            "group": d.group_id, "state": d.state.name if d.state is not None else None,
            "assignor": d.partition_assignor,
            "coordinator": f"{coord.host}:{coord.port} (id {coord.id})" if coord is not None else None,
            "members": [{"member_id": m.member_id, "client_id": m.client_id, "host": m.host,
                         "partitions": [f"{tp.topic}[{tp.partition}]" for tp in m.assignment.topic_partitions]}
                        for m in d.members],
        })
    if args.json:
        print_json(out)
    else:
        for i, g in enumerate(out):
            if i:
                print()
            print(console.style(g["group"], "bold cyan") + f"  state {g['state']}, assignor {g['assignor'] or '-'}, "
                  f"coordinator {g['coordinator'] or '-'}")
            print_lines(table(console, ["MEMBER", "CLIENT", "HOST", "PARTITIONS"],
                              [(m["member_id"], m["client_id"], m["host"], ",".join(m["partitions"]))
                               for m in g["members"]]))
    return EXIT_ERROR if failed else EXIT_OK


def _committed(args: argparse.Namespace, cluster: Cluster) -> List[TopicPartition]:
    """The group's committed offsets, sorted: of the -t topics' partitions, or everything the
    cluster lists for the group."""
    if args.topic:
        c = Consumer(client_conf(args, cluster.bootstrap, **{"group.id": args.name, "enable.auto.commit": False}))
        try:
            parts: List[TopicPartition] = []
            for topic in args.topic:
                t = c.list_topics(topic, timeout=args.timeout).topics.get(topic)
                if t is None or t.error is not None or not t.partitions:
                    raise CliError(f"topic {topic} does not exist")
                parts.extend(TopicPartition(topic, p) for p in sorted(t.partitions))
            return sorted(c.committed(parts, timeout=args.timeout))
        finally:
            c.close()
    with admin_client(args, cluster) as admin:
        futures = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(args.name)],
                                                    request_timeout=args.timeout)
        result = futures[args.name].result(args.timeout + 5)
    return sorted(result.topic_partitions or [])


def _offset(v: int) -> Optional[int]:
    return v if v >= 0 else None


def run_offsets(args: argparse.Namespace) -> int:
    """Print the group's committed offset of every partition."""
    console = console_for(args)
    parts = _committed(args, find_cluster(args, "groups offsets"))
    if not parts and not args.topic:
        console.note(f"no committed offsets listed for group {args.name}; a cluster that cannot list a "
                     f"group's offsets (such as the mock cluster) answers with -t TOPIC")
    rows = [{"topic": tp.topic, "partition": tp.partition, "offset": _offset(tp.offset),
             "metadata": tp.metadata or None} for tp in parts]
    if args.json:
        print_json(rows)
    else:
        print_lines(table(console, ["TOPIC", "PARTITION", "COMMITTED"],
                          [(r["topic"], r["partition"], "-" if r["offset"] is None else r["offset"]) for r in rows]))
    return _partition_errors(console, parts)


def _partition_errors(console: Console, parts: List[TopicPartition]) -> int:
    code = EXIT_OK
    for tp in parts:
        if tp.error is not None:
            console.error(f"{tp.topic}[{tp.partition}]: {tp.error.str()}")
            code = EXIT_ERROR
    return code


def run_lag(args: argparse.Namespace) -> int:
    """Print committed offset, end offset and lag of every partition, and the total lag."""
    console = console_for(args)
    cluster = find_cluster(args, "groups lag")
    parts = _committed(args, cluster)
    c = Consumer(client_conf(args, cluster.bootstrap, **{"group.id": args.name, "enable.auto.commit": False}))
    rows: List[Dict[str, Any]] = []
    try:
        for tp in parts:
            lo, hi = c.get_watermark_offsets(TopicPartition(tp.topic, tp.partition), timeout=args.timeout)
            committed = _offset(tp.offset)
            # Nothing committed: the whole retained log is still to be read.
            lag = hi - (committed if committed is not None else lo)
            rows.append({"topic": tp.topic, "partition": tp.partition, "committed": committed, "end": hi,
                         "lag": max(0, lag)})
    finally:
        c.close()
    total = sum(r["lag"] for r in rows)
    if args.json:
        print_json({"group": args.name, "partitions": rows, "total_lag": total})
    else:
        print_lines(table(console, ["TOPIC", "PARTITION", "COMMITTED", "END", "LAG"],
                          [(r["topic"], r["partition"], "-" if r["committed"] is None else r["committed"],
                            r["end"], r["lag"]) for r in rows]))
        print(console.style(f"total lag {total}", "bold"))
    return _partition_errors(console, parts)
