"""Where this package differs from upstream on purpose, scenario by scenario, and why.

Each entry is ``"module::scenario": "reason"``. The differential test asserts that an entry still
differs, so the list never outlives the difference. Every entry is also described in README.md
("Where it differs from upstream") and docs/migration.md, and our side is pinned by a unit test.
"""
from __future__ import annotations

DIFFERENCES: dict[str, str] = {
    "errors::scenario_error_compared_with_non_ints":
        "Comparing a KafkaError with a non-int (None, str, float, object) returns False/NotImplemented "
        "(so ==/!= work and ordering raises the usual TypeError); upstream raises SystemError or TypeError, "
        "or leaks an exception into the next call. hash(KafkaError(-1)) is -2, not SystemError.",
    "errors::scenario_error_keyword_code":
        "KafkaError(code=...) is accepted besides KafkaError(error=...): upstream's own type stubs name the "
        "parameter `code`, but its runtime refuses that keyword.",
    "errors::scenario_kafka_exception_pickle":
        "KafkaException pickles (it lives in confluent_kafka.cimpl); upstream's class claims a module named "
        "`cimpl` that cannot be imported, so pickling it fails.",
    "clients::scenario_timeout_none":
        "timeout=None means wait without limit (as in kafka-python and the asyncio layer); upstream raises "
        "TypeError('must be real number, not NoneType'). Code that works upstream never passes None.",
    "clients::scenario_timeout_nan":
        "A NaN timeout raises ValueError('timeout must not be NaN'); upstream converts NaN to a C int, which "
        "is undefined behaviour (poll may wait or not).",
    "clients::scenario_producer_close_arguments":
        "Producer.close(timeout=...) bounds how long close() delivers what is queued, so its argument is "
        "checked like any timeout; upstream's close() takes no timeout and ignores whatever it is given.",
}
