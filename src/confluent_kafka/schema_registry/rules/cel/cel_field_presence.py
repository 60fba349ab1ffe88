"""The CEL program runner the rule executors use."""

from __future__ import annotations

import celpy  # type: ignore[import-untyped,unused-ignore]

__all__ = ["InterpretedRunner"]


class InterpretedRunner(celpy.InterpretedRunner):  # type: ignore[misc,unused-ignore]
    """cel-python's interpreting runner (the executors' ``runner_class``)."""
