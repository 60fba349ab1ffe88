"""The codec of each ``valueFormat`` / ``keyFormat``: ``avro``, ``json`` or ``protobuf``.

Each format's module offers a ``ColumnDecoder`` (``decode(column) -> (array, {row: why})``,
``plan.arrow_type``), a ``ColumnEncoder`` (``encode(column) -> binary array``), the Spark type
of a reader schema and ``check_writable``; this module picks by the column's format, so that a
key and a value of different formats mix.
"""

from __future__ import annotations

from typing import Any, Dict

from . import _avro_codec
from ._registry import RegistryOptions, ResolvedSchema


def _module(fmt: str) -> Any:
    if fmt == "json":
        from . import _json_codec

        return _json_codec
    if fmt == "protobuf":
        from . import _protobuf_codec

        return _protobuf_codec
    return _avro_codec


def spark_type(resolved: ResolvedSchema) -> Any:
    """The Spark type a column decoded into ``resolved`` has."""
    if resolved.format == "avro":
        from ._avro_types import read_plan

        return read_plan(resolved.schema).spark_type
    return _module(resolved.format).read_plan(resolved).spark_type


def check_writable(resolved: ResolvedSchema, dtype: Any) -> None:
    """Refuse, before any task runs, a column of Spark type ``dtype`` that ``resolved`` cannot
    encode; raises ValueError naming the field."""
    _module(resolved.format).check_writable(resolved, dtype)


class BatchDecoder(_avro_codec.BatchDecoder):
    """The Avro batch decoder, with each column decoded by the codec of its format."""

    def __init__(self, registry: RegistryOptions, resolved: Dict[str, ResolvedSchema],
                 registry_client: Any = None) -> None:
        self.mode = registry.mode
        self.columns = {name: _module(r.format).ColumnDecoder(r, registry, registry_client)
                        for name, r in resolved.items()}


class BatchEncoder(_avro_codec.BatchEncoder):
    """The Avro batch encoder, with each column encoded by the codec of its format."""

    def __init__(self, resolved: Dict[str, ResolvedSchema], spark_types: Dict[str, Any]) -> None:
        self.columns = {name: _module(r.format).ColumnEncoder(r, spark_types[name]) for name, r in resolved.items()}
