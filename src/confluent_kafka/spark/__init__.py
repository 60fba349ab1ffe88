"""Kafka for PySpark through this package's client, with no JVM connector.

* Spark 4: :func:`register` a Python data source, then use it as Spark's own Kafka source and
  sink, with the same options and schema::

      from confluent_kafka.spark import register
      register(spark)                                  # format "confluent_kafka"
      df.write.format("confluent_kafka").option("kafka.bootstrap.servers", "...").option("topic", "t").save()
      spark.read.format("confluent_kafka").option("kafka.bootstrap.servers", "...").option("subscribe", "t").load()

* Spark 3.3+: :func:`write` and :func:`read`, the same on ``mapInArrow``.

Executors keep one producer per Python worker process, flush it at the end of every task, and
fail the task on any delivery error (at-least-once). Data moves as Arrow batches.
"""

from __future__ import annotations

from typing import Any, Optional

from ._functions import read, write

__all__ = ["register", "read", "write", "DEFAULT_NAME"]

#: The format name :func:`register` uses unless told otherwise.
DEFAULT_NAME = "confluent_kafka"


def register(spark: Any, name: Optional[str] = None) -> str:
    """Register the Kafka data source with ``spark`` (Spark 4+); returns its format name.

    ``name`` defaults to ``"confluent_kafka"`` (Spark keeps ``"kafka"`` for its own connector).
    Writes to that format then behave as with Spark's Kafka sink where PySpark would differ:
    ``save()`` in the default save mode appends, and ``save()`` / ``start()`` work from any
    thread (PySpark's ``DataFrameWriter.save`` and ``DataStreamWriter.start`` are wrapped, once
    per process, to act on Spark's errors for this format only).

    :param spark: the ``SparkSession`` to register with.
    :param name: the format name; ``"confluent_kafka"`` when None.
    :returns: the format name.
    :raises ValueError: when ``name`` is not a non-empty string.
    """
    from ._source import KafkaDataSource
    from ._writers_patch import install

    cls: Any = KafkaDataSource
    if name is not None and name != DEFAULT_NAME:
        if not isinstance(name, str) or not name:
            raise ValueError(f"name must be a non-empty string, not {name!r}")
        fixed = name
        cls = type("KafkaDataSource_" + name.replace(".", "_"), (KafkaDataSource,),
                   {"name": classmethod(lambda _cls: fixed), "__module__": KafkaDataSource.__module__})
    spark.dataSource.register(cls)
    install(str(cls.name()))
    return str(cls.name())
