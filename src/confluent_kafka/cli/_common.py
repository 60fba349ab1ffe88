"""What every subcommand shares: the common options, exit codes, errors a user can act on,
client configuration and where the cluster is."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

from ..cimpl import KafkaError, Message
from ._handoff import HandoffReader
from ._output import Console, librdkafka_logger

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "BOOTSTRAP_ENV",
    "CliError",
    "Cluster",
    "add_common_options",
    "client_conf",
    "console_for",
    "find_cluster",
    "parse_escapes",
]

EXIT_OK = 0
EXIT_ERROR = 1  # the request failed: a Kafka error, undelivered messages, a missing topic
EXIT_USAGE = 2  # the command line is wrong, or there is no cluster to talk to
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)

BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS"
HANDOFF_TIMEOUT = 30.0  # seconds to wait for `produce` upstream to announce its cluster


class CliError(Exception):
    """An error to report in one line and exit with ``code``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


def add_common_options(parser: argparse.ArgumentParser) -> None:
    """The options every subcommand takes (they may come after the subcommand name)."""
    g = parser.add_argument_group("connection and output")
    g.add_argument("-b", "--bootstrap-servers", metavar="HOST:PORT[,...]",
                   help=f"brokers to connect to (default: ${BOOTSTRAP_ENV}; see 'Without a cluster' below)")
    g.add_argument("-X", "--property", metavar="KEY=VALUE", action="append", default=[],
                   help="a librdkafka client property, e.g. -X security.protocol=SSL (repeatable)")
    g.add_argument("-F", "--config-file", metavar="FILE",
                   help="read client properties from FILE (KEY=VALUE lines, # comments)")
    g.add_argument("--color", "--colour", dest="color", choices=("auto", "always", "never"), default="auto",
                   help="colour output: auto (only on a terminal, not with NO_COLOR set), always, never")
    g.add_argument("-q", "--quiet", action="store_true", help="no notes or progress bars on stderr")


def console_for(args: argparse.Namespace) -> Console:
    """The Console configured by the common options."""
    return Console(colour_mode=getattr(args, "color", "auto"), quiet=getattr(args, "quiet", False))


def _split_property(text: str, where: str) -> Tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise CliError(f"{where}: expected KEY=VALUE, got {text!r}", EXIT_USAGE)
    return key.strip(), value.strip()


def client_conf(args: argparse.Namespace, bootstrap: str, **defaults: Any) -> Dict[str, Any]:
    """Client configuration: ``defaults``, then the config file, then ``-X`` properties."""
    conf: Dict[str, Any] = {"bootstrap.servers": bootstrap, "logger": librdkafka_logger(console_for(args)),
                            **defaults}
    path = getattr(args, "config_file", None)
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise CliError(f"cannot read config file {path}: {e.strerror}", EXIT_USAGE) from e
        for n, line in enumerate(lines, 1):
            line = line.strip()
            if line and not line.startswith(("#", "!")):
                key, value = _split_property(line, f"{path}:{n}")
                conf[key] = value
    for prop in getattr(args, "property", []):
        key, value = _split_property(prop, "-X")
        conf[key] = value
    return conf


class DeliveryTally:
    """A delivery callback that counts what arrived and keeps what failed."""

    def __init__(self) -> None:
        self.delivered = 0
        self.failures: List[KafkaError] = []

    def __call__(self, err: Optional[KafkaError], msg: Message) -> None:
        if err is None:
            self.delivered += 1
        else:
            self.failures.append(err)


class Cluster:
    """Where a subcommand's clients connect: an address, and how it was found."""

    def __init__(self, bootstrap: str, handoff: Optional[HandoffReader] = None) -> None:
        self.bootstrap = bootstrap
        self.handoff = handoff


def find_cluster(args: argparse.Namespace, command: str) -> Cluster:
    """``-b``, else ``$KAFKA_BOOTSTRAP_SERVERS``, else the mock cluster announced on stdin by an
    upstream ``produce``; a usage error (exit 2) when there is none."""
    if args.bootstrap_servers:
        return Cluster(args.bootstrap_servers)
    env = os.environ.get(BOOTSTRAP_ENV, "").strip()
    if env:
        return Cluster(env)
    reader = HandoffReader.from_fd(sys.stdin.fileno() if _has_stdin() else -1, HANDOFF_TIMEOUT)
    if reader is not None:
        return Cluster(reader.bootstrap, reader)
    raise CliError(
        f"{command}: no cluster to talk to: pass -b HOST:PORT, set {BOOTSTRAP_ENV}, pipe from "
        f"'confluent-kafka produce' (which then serves an embedded mock cluster), or start one "
        f"with 'confluent-kafka mock'", EXIT_USAGE)


def _has_stdin() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.fileno() >= 0
    except (ValueError, OSError, AttributeError):
        return False


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def parse_escapes(text: str) -> str:
    r"""``text`` with the escapes ``\n \t \r \0 \\`` and ``\xHH`` turned into characters."""
    out: List[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if nxt == "x" and i + 4 <= len(text) and _is_hex(text[i + 2:i + 4]):
                out.append(chr(int(text[i + 2:i + 4], 16)))
                i += 4
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _is_hex(s: str) -> bool:
    return len(s) == 2 and all(ch in "0123456789abcdefABCDEF" for ch in s)
