"""Where PySpark's ``df.write`` / ``df.writeStream`` meet a Python data source differently from
Spark's own Kafka connector, and how :func:`~confluent_kafka.spark.register` closes the gap.

* Save mode. Spark's Kafka sink takes ``ErrorIfExists`` (the default of ``df.write``) and
  ``Append``, and refuses ``Overwrite`` and ``Ignore``. Spark hands a Python data source only
  ``Append`` and ``Overwrite`` and refuses the default with ``UNSUPPORTED_DATA_SOURCE_SAVE_MODE``
  before any of its code runs. The default is therefore taken as ``append`` here, as Spark's
  Kafka sink takes it; ``Ignore`` is refused with the Kafka sink's reasons.
* Threads. Spark finds a Python data source through the *calling thread's* active session, and
  a thread that PySpark did not start has none on its JVM side, so ``save()`` and ``start()``
  from a thread pool fail with ``DATA_SOURCE_NOT_FOUND``. Here the thread gets the session of
  the DataFrame being written as its active one.

Both act only on the errors Spark raises for a format name registered by
:func:`~confluent_kafka.spark.register`, before anything was written (Spark raises them while it
analyses the write), and retry the same call once. Every other write is left untouched.
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Dict, Optional, Set

#: The format names :func:`confluent_kafka.spark.register` registered in this process.
registered_names: Set[str] = set()

_lock = threading.Lock()
_installed = False

#: Spark's Kafka sink's answer to the save modes it refuses.
REFUSED_MODE = ("save mode {mode} is not allowed for Kafka (as with Spark's Kafka sink): Kafka "
                "topics cannot be overwritten or skipped; the allowed save modes are Append and "
                "ErrorIfExists (the default), which both append")


def _condition(exc: BaseException) -> Optional[str]:
    """The error condition of a PySpark exception or of a Py4J error wrapping a SparkThrowable."""
    get = getattr(exc, "getCondition", None)
    if get is not None:
        try:
            condition = get()
            return None if condition is None else str(condition)
        except Exception:  # noqa: BLE001 - an exception without a condition
            return None
    java = getattr(exc, "java_exception", None)
    if java is not None:
        try:
            return str(java.getCondition())
        except Exception:  # noqa: BLE001 - not a SparkThrowable
            return None
    return None


def _parameters(exc: BaseException) -> Dict[str, str]:
    """The message parameters of a PySpark exception or of a Py4J-wrapped SparkThrowable."""
    try:
        get = getattr(exc, "getMessageParameters", None)
        if get is not None:
            return dict(get() or {})
        java = getattr(exc, "java_exception", None)
        if java is not None:
            params = java.getMessageParameters()
            return {str(k): str(params.get(k)) for k in params.keySet()}
    except Exception:  # noqa: BLE001 - no parameters to read
        pass
    return {}


def _ours(name: Optional[str]) -> bool:
    return name is not None and name.strip('"`').lower() in registered_names


def set_active_session(spark: Any) -> bool:
    """Make ``spark`` the JVM-side active session of the calling thread when the thread has
    none; returns whether it was set."""
    from pyspark.sql import SparkSession

    jvm = spark._jvm
    get_class = getattr(SparkSession, "_get_j_spark_session_class", None)
    cls = get_class(jvm) if get_class is not None else jvm.SparkSession
    if cls.getActiveSession().isDefined():
        return False
    cls.setActiveSession(spark._jsparkSession)
    return True


def _retry_on_missing_session(writer: Any, exc: BaseException) -> bool:
    """Whether ``exc`` is Spark missing a format of ours for want of an active session (then
    fixed: the caller retries)."""
    if _condition(exc) != "DATA_SOURCE_NOT_FOUND" or not _ours(_parameters(exc).get("provider")):
        return False
    return set_active_session(writer._spark)


def _save_mode_error(exc: BaseException) -> Optional[str]:
    """The save mode Spark refused to a format of ours (``ErrorIfExists``, ``Ignore``), if that
    is what ``exc`` is."""
    if _condition(exc) != "UNSUPPORTED_DATA_SOURCE_SAVE_MODE":
        return None
    params = _parameters(exc)
    if not _ours(params.get("source")):
        return None
    return params.get("createMode", "").strip('"') or None


def _analysis_error(message: str) -> Exception:
    """An ``AnalysisException`` saying ``message``, as Spark raises for a write it refuses
    (a ValueError where this PySpark cannot make one)."""
    try:
        from pyspark.errors import AnalysisException

        return AnalysisException(message=message)
    except Exception:  # noqa: BLE001 - another PySpark's constructor
        return ValueError(message)


def _wrap_save(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def save(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return original(self, *args, **kwargs)
        except Exception as exc:
            if _retry_on_missing_session(self, exc):
                try:
                    return original(self, *args, **kwargs)
                except Exception as again:
                    exc = again
            mode = _save_mode_error(exc)
            if mode is None:
                raise exc
            if mode.lower() != "errorifexists":
                raise _analysis_error(REFUSED_MODE.format(mode=mode)) from exc
            # The arguments were applied to the JVM writer by the first call; only the mode changes.
            self.mode("append")
            path = args[0] if args else kwargs.get("path")
            return original(self, path)

    return save


def _wrap_start(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def start(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return original(self, *args, **kwargs)
        except Exception as exc:
            if not _retry_on_missing_session(self, exc):
                raise
            return original(self, *args, **kwargs)

    return start


def install(name: str) -> None:
    """Remember ``name`` as a format of ours and, once per process, wrap PySpark's classic
    ``DataFrameWriter.save`` and ``DataStreamWriter.start`` as the module docstring says."""
    global _installed
    with _lock:
        registered_names.add(name.lower())
        if _installed:
            return
        from pyspark.sql.readwriter import DataFrameWriter
        from pyspark.sql.streaming.readwriter import DataStreamWriter

        DataFrameWriter.save = _wrap_save(DataFrameWriter.save)  # type: ignore[method-assign]
        DataStreamWriter.start = _wrap_start(DataStreamWriter.start)  # type: ignore[method-assign]
        _installed = True
