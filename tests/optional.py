"""Markers for tests that need an optional package which may have no wheel for the interpreter
running them (numpy, and so pandas, on a CPython newer than their releases; see `make matrix`)."""

from __future__ import annotations

import importlib.util

import pytest


def installed(module: str) -> bool:
    """Whether ``module`` can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing
        return False


def needs(module: str, why: str = "") -> pytest.MarkDecorator:
    """Skip the test, naming ``module``, when that module is not installed.

    :param module: the module the test imports, directly or through the code under test.
    :param why: what needs it, added to the reason.
    """
    reason = f"{module} is not installed (no wheel for this interpreter?)" + (f": {why}" if why else "")
    return pytest.mark.skipif(not installed(module), reason=reason)


#: The Spark data source's Arrow code paths (framing, Avro/JSON/Protobuf batch codecs) use numpy.
needs_numpy = needs("numpy", "the Spark codecs run on numpy arrays")
