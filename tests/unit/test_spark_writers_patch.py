"""The save() / start() wrappers that register() installs, on stand-ins for PySpark's writers
and errors (no Spark): they act only on Spark's errors for a format of ours."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

pytest.importorskip("pyspark")

from confluent_kafka.spark import _writers_patch as patch  # noqa: E402


class SparkError(Exception):
    """What PySpark raises: a condition and message parameters."""

    def __init__(self, condition: str, **params: str) -> None:
        super().__init__(condition)
        self.condition, self.params = condition, params

    def getCondition(self) -> str:
        return self.condition

    def getMessageParameters(self) -> Dict[str, str]:
        return self.params


class JavaError(Exception):
    """What Py4J raises for a JVM exception PySpark does not convert."""

    def __init__(self, condition: str, **params: str) -> None:
        super().__init__(condition)

        class Java:
            def getCondition(self) -> str:
                return condition

            def getMessageParameters(self) -> Any:
                class JMap(dict):
                    def keySet(self) -> List[str]:
                        return list(self)

                return JMap(params)

        self.java_exception = Java()


class Writer:
    """A DataFrameWriter stand-in: ``save`` raises the queued errors, then succeeds."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.calls: List[Any] = []
        self.modes: List[str] = []
        self._spark = object()

    def mode(self, m: str) -> "Writer":
        self.modes.append(m)
        return self

    def _save(self, path: Optional[str] = None, **kwargs: Any) -> str:
        self.calls.append((path, kwargs))
        if self.errors:
            raise self.errors.pop(0)
        return "saved"


@pytest.fixture
def save(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(patch, "registered_names", {"confluent_kafka"})
    sessions: List[object] = []
    monkeypatch.setattr(patch, "set_active_session", lambda spark: sessions.append(spark) or True)
    wrapped = patch._wrap_save(Writer._save)
    wrapped.sessions = sessions  # type: ignore[attr-defined]
    return wrapped


def test_the_default_mode_appends_for_our_format(save: Any) -> None:
    w = Writer(SparkError("UNSUPPORTED_DATA_SOURCE_SAVE_MODE", source='"confluent_kafka"',
                          createMode='"ErrorIfExists"'))
    assert save(w, "p", mode="error") == "saved"
    assert w.modes == ["append"] and [c[0] for c in w.calls] == ["p", "p"]


def test_ignore_is_refused_with_the_kafka_sinks_reasons(save: Any) -> None:
    w = Writer(SparkError("UNSUPPORTED_DATA_SOURCE_SAVE_MODE", source='"confluent_kafka"', createMode='"Ignore"'))
    with pytest.raises(Exception, match="save mode Ignore is not allowed for Kafka") as info:
        save(w)
    assert isinstance(info.value.__cause__, SparkError) and w.modes == []


def test_other_formats_and_errors_are_left_alone(save: Any) -> None:
    other = SparkError("UNSUPPORTED_DATA_SOURCE_SAVE_MODE", source='"someone_else"', createMode='"ErrorIfExists"')
    with pytest.raises(SparkError):
        save(Writer(other))
    with pytest.raises(RuntimeError):
        save(Writer(RuntimeError("boom")))
    with pytest.raises(JavaError):
        save(Writer(JavaError("DATA_SOURCE_NOT_FOUND", provider="parquet2")))
    assert save.sessions == []


def test_a_thread_without_a_session_gets_the_writers_then_retries(save: Any) -> None:
    w = Writer(JavaError("DATA_SOURCE_NOT_FOUND", provider="CONFLUENT_KAFKA"),
               SparkError("UNSUPPORTED_DATA_SOURCE_SAVE_MODE", source='"confluent_kafka"',
                          createMode='"ErrorIfExists"'))
    assert save(w) == "saved"
    assert save.sessions == [w._spark] and w.modes == ["append"] and len(w.calls) == 3


def test_start_retries_once_with_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patch, "registered_names", {"confluent_kafka"})
    monkeypatch.setattr(patch, "set_active_session", lambda spark: True)
    start = patch._wrap_start(Writer._save)
    w = Writer(JavaError("DATA_SOURCE_NOT_FOUND", provider="confluent_kafka"))
    assert start(w) == "saved" and len(w.calls) == 2
    # a thread that had a session already: nothing to fix, the error stands
    monkeypatch.setattr(patch, "set_active_session", lambda spark: False)
    with pytest.raises(JavaError):
        start(Writer(JavaError("DATA_SOURCE_NOT_FOUND", provider="confluent_kafka")))
