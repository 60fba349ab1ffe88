"""Counters and handler latencies for ``stats()``; the dispatcher's lock guards them."""

from __future__ import annotations

from typing import Any, Dict, List


def _percentile(ordered: List[float], fraction: float) -> float:
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Counters:
    """What happened since the start: records processed, retried, failed; commits and pauses."""

    __slots__ = ("processed", "retries", "failed", "skipped", "dead_lettered", "skipped_on_restart",
                 "commits", "pauses", "_window", "_latencies", "_next")

    def __init__(self, window: int) -> None:
        self.processed = 0
        self.retries = 0
        self.failed = 0
        self.skipped = 0
        self.dead_lettered = 0
        self.skipped_on_restart = 0
        self.commits = 0
        self.pauses = 0
        self._window = window
        self._latencies: List[float] = []
        self._next = 0

    def latency(self, seconds: float) -> None:
        """A handler call that succeeded, and how long it took."""
        self.processed += 1
        if len(self._latencies) < self._window:
            self._latencies.append(seconds)
        else:
            self._latencies[self._next] = seconds
            self._next = (self._next + 1) % self._window

    def snapshot(self) -> Dict[str, Any]:
        ordered = sorted(self._latencies)
        latency: Dict[str, Any] = {"count": len(ordered)}
        if ordered:
            for name, fraction in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
                latency[name] = _percentile(ordered, fraction) * 1000.0
            latency["max"] = ordered[-1] * 1000.0
        return {
            "processed": self.processed, "retries": self.retries, "failed": self.failed,
            "skipped": self.skipped, "dead_lettered": self.dead_lettered,
            "skipped_on_restart": self.skipped_on_restart, "commits": self.commits,
            "pauses": self.pauses, "latency_ms": latency,
        }
