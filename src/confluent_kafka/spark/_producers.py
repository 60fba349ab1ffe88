"""One producer per Python worker process and configuration, made on first use.

Spark forks its Python workers from a daemon and reuses each for many tasks, then ends it with
``os._exit`` (no finalizers, no atexit). So a producer is never made before the fork (only
inside a task), is cached by configuration *and* process id (a child of a fork never touches
its parent's), and every task flushes what it produced before it reports success.
"""

from __future__ import annotations

import os
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from .. import Producer

_Key = Tuple[Tuple[str, str], ...]

_cache: Dict[_Key, Producer] = {}
_owner_pid = os.getpid()
# Producers inherited through a fork: kept referenced so that they are never torn down in a
# process whose librdkafka threads did not survive the fork.
_inherited: List[Producer] = []


def _key(conf: Mapping[str, str]) -> _Key:
    return tuple(sorted((str(k), str(v)) for k, v in conf.items()))


def _check_pid() -> None:
    global _owner_pid
    pid = os.getpid()
    if pid != _owner_pid:
        _inherited.extend(_cache.values())
        _cache.clear()
        _owner_pid = pid


def get(conf: Mapping[str, str], init: Optional[Callable[[Producer], None]] = None) -> Producer:
    """This process's producer for ``conf``, made now if there is none; ``init`` runs once on a
    new producer (``init_transactions``), and a producer whose ``init`` failed is not kept."""
    _check_pid()
    key = _key(conf)
    producer = _cache.get(key)
    if producer is None:
        producer = Producer(dict(conf))
        if init is not None:
            try:
                init(producer)
            except BaseException:
                producer.close(5.0)
                raise
        _cache[key] = producer
    return producer


def discard(conf: Mapping[str, str]) -> None:
    """Drop the producer for ``conf`` (after a failed task): what it still holds is purged, so
    that nothing of a failed task is delivered later or counted against the next one."""
    _check_pid()
    producer = _cache.pop(_key(conf), None)
    if producer is None:
        return
    try:
        producer.purge(in_queue=True, in_flight=True, blocking=False)
        producer.poll(0)
    finally:
        producer.close(5.0)


def cached() -> int:
    """How many producers this process holds (for tests and diagnostics)."""
    _check_pid()
    return len(_cache)
