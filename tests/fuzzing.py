"""Shared pieces of the property-based fuzz tests (tests/unit/test_fuzz_*.py).

* ``EXAMPLES``: examples per fuzz test, from ``CFL_FUZZ_EXAMPLES`` (default 40, enough for
  every strategy to reach its edge cases; set e.g. 5000 for a long run).
* ``FUZZ_SETTINGS``: the same examples on every run (derandomized), so the suite passes or fails
  the same way each time; ``CFL_FUZZ_RANDOM=1`` draws new ones, for long runs hunting new cases.
* ``DOCUMENTED``: the exceptions the public API documents for bad input.
* ``fuzz_call``: run one call under a watchdog, count it, and let only documented exceptions
  through; anything else, and any call still running after ``HANG_SECONDS``, fails the test.
* ``CASES``: calls made, per fuzz target; reported at the end of the run (see conftest).
"""

from __future__ import annotations

import collections
import os
import signal
import threading
from typing import Any, Callable, Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from confluent_kafka import KafkaException

EXAMPLES = int(os.environ.get("CFL_FUZZ_EXAMPLES", "40"))
HANG_SECONDS = 10
DOCUMENTED = (TypeError, ValueError, OverflowError, UnicodeError, KafkaException, BufferError,
              NotImplementedError)
CASES: Counter[str] = collections.Counter()

RANDOM = os.environ.get("CFL_FUZZ_RANDOM") == "1"
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                         derandomize=not RANDOM, suppress_health_check=list(HealthCheck))


class Hang(Exception):
    """A fuzzed call did not return within HANG_SECONDS."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"call still running after {HANG_SECONDS} s")


def fuzz_call(target: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; return its result, or None if it raised a documented exception."""
    CASES[target] += 1
    main = threading.current_thread() is threading.main_thread()
    if main:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_SECONDS)
    try:
        return fn(*args, **kwargs)
    except DOCUMENTED:
        return None
    finally:
        if main:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)


# ---- strategies: the odd values every argument gets tried with -------------------------------

huge_ints = st.sampled_from([2**31, -2**31 - 1, 2**63, -2**63 - 1, 2**64, 2**100, -1, -2])
odd_floats = st.sampled_from([float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 5e-324])
BAD_TEXT = ["\udcff", "\ud800x", "a\x00b", "é" * 300, "", " " * 10_000]
bad_text = st.sampled_from(BAD_TEXT)
text = st.one_of(st.text(max_size=40), bad_text)
blobs = st.one_of(st.binary(max_size=64), st.just(b"\x00" * 1_000_000))
anything = st.one_of(st.none(), st.booleans(), st.integers(), huge_ints, st.floats(), odd_floats,
                     text, blobs, st.lists(st.integers(), max_size=3),
                     st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
                     st.just(object()), st.just(bytearray(b"ba")), st.just(memoryview(b"mv")))
# Timeouts that return quickly, plus ones of the wrong kind. A negative or enormous timeout
# legitimately waits forever, so those are not drawn.
short_timeouts = st.one_of(st.floats(0, 0.02), st.integers(0, 0), st.just(float("nan")),
                           st.just("1"), st.just(b"1"), st.just([0]))
