"""The ``confluent-kafka`` command-line tool (also ``python -m confluent_kafka``).

Subcommands, one module each: ``produce``, ``consume``, ``topics``, ``groups``, ``bench`` and
``mock``. :func:`main` parses the command line, runs the subcommand and turns failures into
one-line messages and exit codes: 0 success, 1 the request failed, 2 bad arguments or no
cluster, 130 interrupted (143 terminated by SIGTERM).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import List, Optional

from ..cimpl import KafkaError, KafkaException, libversion, version
from . import bench, consume, groups, mock, produce, topics
from ._common import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, BOOTSTRAP_ENV, CliError, console_for

__all__ = ["main", "build_parser"]

DESCRIPTION = f"""\
Produce, consume and administer Apache Kafka from the shell.

Every subcommand takes -b HOST:PORT (or ${BOOTSTRAP_ENV}). Without one:
  produce   starts an embedded mock cluster; behind a pipe it serves it to the next command:
              seq 5 | confluent-kafka produce -t demo | confluent-kafka consume -t demo
  bench     runs against an embedded mock cluster
  mock      serves a mock cluster until stopped and prints its address, for any client
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="confluent-kafka", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="exit status: 0 success, 1 the request failed, 2 bad arguments or no cluster, 130 interrupted, "
               "143 terminated.")
    parser.add_argument("--version", action="version",
                        version=f"confluent-kafka {version()} (librdkafka {libversion()[0]})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (produce, consume, topics, groups, bench, mock):
        module.add_parser(sub)
    return parser


_UNREACHABLE = (KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN, KafkaError._TIMED_OUT, KafkaError._RESOLVE)


def _kafka_error_text(e: KafkaException, args: argparse.Namespace) -> str:
    err = e.args[0] if e.args else None
    if not isinstance(err, KafkaError):
        return str(e)
    text = err.str()
    bootstrap = getattr(args, "bootstrap_servers", None) or os.environ.get(BOOTSTRAP_ENV)
    if err.code() in _UNREACHABLE and bootstrap:
        text += f" (is a Kafka broker listening at {bootstrap}?)"
    return text


EXIT_TERMINATED = 143  # 128 + SIGTERM
_terminated = False


def _sigterm(signum: int, frame: object) -> None:
    global _terminated
    _terminated = True
    raise KeyboardInterrupt  # unwind like Ctrl-C, so clients and clusters are closed


def main(argv: Optional[List[str]] = None) -> int:
    """Run the tool with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    console = console_for(args)
    previous = signal.signal(signal.SIGTERM, _sigterm)  # stop like Ctrl-C: clean up, then exit
    try:
        code: int = args.run(args)
        return code
    except CliError as e:
        console.error(str(e))
        return e.code
    except KafkaException as e:
        console.error(_kafka_error_text(e, args))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_TERMINATED if _terminated else EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): nothing more to do. Point stdout
        # at /dev/null so that the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_OK
    finally:
        signal.signal(signal.SIGTERM, previous)
