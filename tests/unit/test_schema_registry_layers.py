"""The Schema Registry's no-I/O core (``schema_registry/common/``) depends on neither of its
shells (``_sync/``, ``_async/``); names that moved into the core keep their old import paths."""

from __future__ import annotations

import ast
import pathlib

import confluent_kafka.schema_registry as sr

COMMON = pathlib.Path(sr.__file__).parent / "common"


def _imported_modules(path: pathlib.Path) -> list:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def test_the_core_imports_no_shell() -> None:
    offending = {}
    for path in sorted(COMMON.glob("*.py")):
        shells = [m for m in _imported_modules(path) if {"_sync", "_async"} & set(m.lstrip(".").split("."))]
        if shells:
            offending[path.name] = shells
    assert offending == {}


def test_moved_names_keep_their_import_paths() -> None:
    from confluent_kafka.schema_registry import serde
    from confluent_kafka.schema_registry._async.serde import AsyncAssociatedNameStrategy
    from confluent_kafka.schema_registry._sync.serde import AssociatedNameStrategy, check_client_or_conf
    from confluent_kafka.schema_registry.common import serde as core

    assert AssociatedNameStrategy is core.AssociatedNameStrategy is serde.AssociatedNameStrategy
    assert check_client_or_conf is core.check_client_or_conf
    assert issubclass(AsyncAssociatedNameStrategy, AssociatedNameStrategy)
