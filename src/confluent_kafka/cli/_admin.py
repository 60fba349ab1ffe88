"""Helpers for the subcommands that talk to the cluster through an AdminClient."""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import Future
from typing import Any, Dict, List, Tuple, TypeVar

from ..admin import AdminClient
from ..cimpl import KafkaError, KafkaException
from ._common import Cluster, client_conf

__all__ = ["admin_client", "error_text", "print_json", "settle"]

K = TypeVar("K")


def admin_client(args: argparse.Namespace, cluster: Cluster) -> AdminClient:
    """An AdminClient for the subcommand's cluster and ``-X`` properties."""
    return AdminClient(client_conf(args, cluster.bootstrap))


def error_text(exc: BaseException) -> str:
    """One line for a failed request: the Kafka error text, or the exception's message."""
    if isinstance(exc, KafkaException) and exc.args and isinstance(exc.args[0], KafkaError):
        err: KafkaError = exc.args[0]
        return f"{err.str()} ({err.name()})"
    if isinstance(exc, TimeoutError) or type(exc).__name__ == "TimeoutError":
        return "timed out waiting for the cluster"
    return str(exc) or type(exc).__name__


def settle(futures: Dict[K, "Future[Any]"], timeout: float) -> Tuple[Dict[K, Any], Dict[K, BaseException]]:
    """Wait for every future (at most ``timeout`` seconds each): (results, failures) by key."""
    done: Dict[K, Any] = {}
    failed: Dict[K, BaseException] = {}
    for key, fut in futures.items():
        try:
            done[key] = fut.result(timeout)
        except Exception as e:  # KafkaException, or concurrent.futures.TimeoutError
            failed[key] = e
    return done, failed


def print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout."""
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False, default=str)
    sys.stdout.write("\n")


def print_lines(lines: List[str]) -> None:
    """Lines on stdout."""
    for line in lines:
        print(line)
