"""The parallel consumer's options, checked before anything starts."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Callable, Dict, FrozenSet, Mapping, Optional, Tuple

from ._offsets import DEFAULT_METADATA_LIMIT

ORDERINGS = ("key", "partition", "unordered")
FAILURE_POLICIES = ("stop", "skip", "dead_letter")


@dataclass(frozen=True)
class Options:
    """See docs/parallel.md for what each option does and why its default is what it is."""

    ordering: str = "key"
    max_concurrency: int = 16
    # A commit (a small record in the group's offsets topic) at most every 10 ms, one at a time and
    # only with progress: what a crash repeats is what finished in the last few milliseconds. At
    # 0.1 s, four SIGKILLs of tests/mock/test_parallel_kill.py repeated about 400 records; at 10 ms,
    # about 70.
    commit_interval: float = 0.01
    # Half of it must outlast the fetch a resumed partition waits for (up to about a second).
    max_waiting: int = 5000
    max_waiting_bytes: int = 64 * 1024 * 1024
    max_attempts: int = 3
    retry_backoff: float = 0.1
    max_retry_backoff: float = 5.0
    on_failure: str = "stop"
    dead_letter_topic: Optional[str] = None
    dead_letter_config: Optional[Mapping[str, Any]] = None
    revoke_timeout: float = 30.0
    stats_cb: Optional[Callable[[Dict[str, Any]], None]] = None
    stats_interval: float = 5.0
    metadata_limit: int = DEFAULT_METADATA_LIMIT

    def __post_init__(self) -> None:
        _choice("ordering", self.ordering, ORDERINGS)
        _choice("on_failure", self.on_failure, FAILURE_POLICIES)
        _integer("max_concurrency", self.max_concurrency, 1)
        _integer("max_waiting", self.max_waiting, 1)
        _integer("max_waiting_bytes", self.max_waiting_bytes, 1)
        _integer("max_attempts", self.max_attempts, 1)
        _integer("metadata_limit", self.metadata_limit, 0)
        _seconds("commit_interval", self.commit_interval, positive=True)
        _seconds("retry_backoff", self.retry_backoff)
        _seconds("max_retry_backoff", self.max_retry_backoff)
        _seconds("revoke_timeout", self.revoke_timeout)
        _seconds("stats_interval", self.stats_interval, positive=True)
        if self.stats_cb is not None and not callable(self.stats_cb):
            raise TypeError(f"stats_cb must be callable, not {type(self.stats_cb).__name__}")
        if self.dead_letter_topic is not None and (
                not isinstance(self.dead_letter_topic, str) or not self.dead_letter_topic):
            raise TypeError(f"dead_letter_topic must be a non-empty str, not {self.dead_letter_topic!r}")
        if self.on_failure == "dead_letter" and self.dead_letter_topic is None:
            raise ValueError("on_failure='dead_letter' needs dead_letter_topic, the topic failed records go to")
        if self.dead_letter_config is not None and not isinstance(self.dead_letter_config, Mapping):
            raise TypeError("dead_letter_config must be a dict of producer configuration, "
                            f"not {type(self.dead_letter_config).__name__}")

    @classmethod
    def names(cls) -> FrozenSet[str]:
        return frozenset(f.name for f in fields(cls))

    def backoff(self, attempt: int) -> float:
        """The wait before retry number ``attempt`` (1 for the first): doubling, capped."""
        return float(min(self.max_retry_backoff, self.retry_backoff * (2 ** (attempt - 1))))


def _choice(name: str, value: Any, allowed: Tuple[str, ...]) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, one of {', '.join(map(repr, allowed))}; got {value!r}")
    if value not in allowed:
        raise ValueError(f"unknown {name} {value!r}: expected one of {', '.join(map(repr, allowed))}")


def _integer(name: str, value: Any, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")


def _seconds(name: str, value: Any, positive: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    if math.isnan(value) or value < 0 or (positive and value == 0) or math.isinf(value):
        raise ValueError(f"{name} must be a finite number of seconds {'above' if positive else 'from'} 0, got {value}")


def consumer_config(user_conf: Any, on_commit: Callable[..., None], max_waiting: int) -> Dict[str, Any]:
    """The Consumer's configuration: the user's, with commits left to the parallel consumer."""
    if not isinstance(user_conf, Mapping):
        raise TypeError(f"the configuration must be a dict, not {type(user_conf).__name__}")
    conf: Dict[str, Any] = dict(user_conf)
    if "group.id" not in conf:
        raise ValueError("the configuration needs a group.id: the parallel consumer commits to a group")
    auto = conf.get("enable.auto.commit", False)
    if auto not in (False, "false", "False", 0):
        raise ValueError("enable.auto.commit must be false (or left out): the parallel consumer commits "
                         "only records that finished, and an automatic commit would skip unfinished ones")
    user_on_commit = conf.pop("on_commit", None)
    if user_on_commit is not None and not callable(user_on_commit):
        raise TypeError("on_commit must be callable")

    def chained(err: Any, partitions: Any) -> None:
        on_commit(err, partitions)
        if user_on_commit is not None:
            user_on_commit(err, partitions)

    conf["enable.auto.commit"] = False
    conf["on_commit"] = chained
    # Records wait in the dispatcher, bounded by max_waiting; librdkafka's own prefetch (100,000
    # records a partition, 64 MB, fetches of 50 MB by default) would otherwise hold far more behind
    # a slow handler: small records fill a 50 MB fetch by the hundred thousand.
    conf.setdefault("queued.max.messages.kbytes", 8192)
    conf.setdefault("queued.min.messages", max_waiting)
    if "fetch.max.bytes" not in conf:
        conf["fetch.max.bytes"] = max(1 << 20, _int(conf.get("message.max.bytes"), 1_000_000))
    return conf


def _int(value: Any, default: int) -> int:
    """A configuration value as librdkafka reads a number (int or its text), or the default."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# Keys of the consumer's configuration that the dead-letter producer shares: where the cluster is
# and how to reach it.
_SHARED_PREFIXES = ("bootstrap.servers", "security.", "ssl.", "sasl.", "client.", "socket.",
                    "broker.", "api.version", "metadata.", "oauth_cb", "error_cb", "logger",
                    "enable.ssl", "https.", "log_level", "debug")


def dead_letter_config(consumer_conf: Mapping[str, Any], overrides: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    """The dead-letter producer's configuration: the consumer's connection settings, acks=all."""
    conf: Dict[str, Any] = {k: v for k, v in consumer_conf.items() if k.startswith(_SHARED_PREFIXES)}
    conf.update({"acks": "all", "enable.idempotence": True, "delivery.timeout.ms": 30000})
    conf.update(overrides or {})
    return conf
