"""The public names of upstream's modules and classes, and the parameters of their callables.

``dump_*`` lists what this side has; ``crossed_*`` looks up upstream's list on each side. On the
upstream side that reproduces its own list; on ours every name missing, of another kind, or with
other parameters shows up as a difference.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Any

from observe import kind

MODULES = [
    "confluent_kafka",
    "confluent_kafka.cimpl",
    "confluent_kafka.admin",
    "confluent_kafka.serialization",
    "confluent_kafka.aio",
    "confluent_kafka.error",
    "confluent_kafka.serializing_producer",
    "confluent_kafka.deserializing_consumer",
    "confluent_kafka.schema_registry",
    "confluent_kafka.schema_registry.avro",
    "confluent_kafka.schema_registry.json_schema",
    "confluent_kafka.schema_registry.protobuf",
    "confluent_kafka.schema_registry.serde",
    "confluent_kafka.schema_registry.schema_registry_client",
    "confluent_kafka.schema_registry.error",
    "confluent_kafka.schema_registry.rules.cel.cel_executor",
    "confluent_kafka.schema_registry.rules.jsonata.jsonata_executor",
    "confluent_kafka.schema_registry.rules.encryption.encrypt_executor",
    "confluent_kafka.schema_registry.rules.encryption.awskms.aws_driver",
    # The legacy (deprecated) Avro API.
    "confluent_kafka.avro",
    "confluent_kafka.avro.error",
    "confluent_kafka.avro.load",
    "confluent_kafka.avro.serializer",
    "confluent_kafka.avro.serializer.message_serializer",
    "confluent_kafka.avro.cached_schema_registry_client",
]

# Upstream's internal plumbing that leaks into module namespaces through imports; no caller
# imports it from there.
PRIVATE_HELPERS = {"confluent_kafka._serde_builder"}


def _params(obj: Any) -> Any:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name] for p in sig.parameters.values()]


def _describe(obj: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"kind": kind(obj)}
    if isinstance(obj, int) and not isinstance(obj, bool):
        found["value"] = int(obj)
    if inspect.isclass(obj):
        found["members"] = sorted(n for n in dir(obj) if not n.startswith("_"))
    return found


def _own(obj: Any) -> bool:
    """Whether a module attribute is the package's own name rather than a helper it imported
    (typing constructs, standard-library modules and classes)."""
    if isinstance(obj, bool) or type(obj).__module__ == "typing" or type(obj).__name__ == "TypeVar":
        return False
    if inspect.ismodule(obj):
        return obj.__name__.startswith("confluent_kafka")
    owner = getattr(obj, "__module__", None)
    if owner in PRIVATE_HELPERS:
        return False
    if owner is None or not (inspect.isclass(obj) or callable(obj)):
        return True
    return owner.startswith("confluent_kafka") or owner == "cimpl"


# Upstream internals left out of the comparison, each for a reason (docs/migration.md lists them).
NOT_COMPARED = {
    # The C base class of AdminClient: its request methods take a concurrent future and are
    # reached through AdminClient, which has every one of them (the class itself is here).
    "_AdminClientImpl": "members",
    # A ContextVar upstream's callbacks use to detect re-entry; no caller reads it.
    "_reentry_identity_var": "name",
}

# Modules whose underscore names code in the wild imports (``from confluent_kafka.admin import
# _ElectionType``); elsewhere only names without a leading underscore are compared.
UNDERSCORE_NAMES_USED = {"confluent_kafka.admin", "confluent_kafka.cimpl"}


def _names(module_name: str) -> dict[str, Any]:
    module = importlib.import_module(module_name)
    private = "__" if module_name in UNDERSCORE_NAMES_USED else "_"
    public = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith(private)]
    return {name: _describe(getattr(module, name)) for name in public
            if hasattr(module, name) and _own(getattr(module, name))}


def _lookup(module_name: str, upstream: dict[str, Any]) -> dict[str, Any]:
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        return {"import": str(exc)}
    seen: dict[str, Any] = {}
    for name, described in upstream.items():
        if NOT_COMPARED.get(name) == "name":
            continue
        if NOT_COMPARED.get(name) == "members":
            described = {k: v for k, v in described.items() if k != "members"}
        if not hasattr(module, name):
            seen[name] = "missing"
            continue
        obj = getattr(module, name)
        mine = _describe(obj)
        if "members" not in described:
            mine.pop("members", None)
        else:
            mine["members"] = [m for m in described["members"] if hasattr(obj, m)]
        seen[name] = mine
    return seen


def _signatures(module_name: str) -> dict[str, Any]:
    module = importlib.import_module(module_name)
    found: dict[str, Any] = {}
    for name in dir(module):
        obj = getattr(module, name)
        if name.startswith("_") or not _own(obj) or inspect.ismodule(obj):
            continue
        if inspect.isclass(obj):
            for member in sorted(vars(obj)):
                if (not member.startswith("_") or member == "__init__") and hasattr(obj, member):
                    found[f"{name}.{member}"] = _params(getattr(obj, member))
        elif callable(obj):
            found[name] = _params(obj)
    return found


def _resolve(module_name: str, dotted: str) -> Any:
    obj: Any = importlib.import_module(module_name)
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _accepts(upstream: list[list[str]], ours: list[list[str]] | None) -> Any:
    """Whether every call that upstream's parameters accept binds the same way to ours: each
    named parameter at the same position and under the same name, no new required parameter.
    Upstream's ``*args``/``**kwargs`` pass-throughs promise nothing to check. True, or what
    differs."""
    if ours is None:
        return "parameters not introspectable"
    if {"VAR_POSITIONAL", "VAR_KEYWORD"} <= {k for _, k in ours}:
        return True  # ours passes everything through too
    problems = []
    mine = {name: (i, k) for i, (name, k) in enumerate(ours)}
    for i, (name, k) in enumerate(upstream):
        if k.startswith("VAR_") or (i == 0 and name in ("self", "cls")):
            continue
        at, how = mine.get(name, (None, None))
        if k == "KEYWORD_ONLY" and how not in ("KEYWORD_ONLY", "POSITIONAL_OR_KEYWORD"):
            problems.append(f"keyword {name!r} not accepted")
        elif k == "POSITIONAL_OR_KEYWORD" and (at != i or how != "POSITIONAL_OR_KEYWORD"):
            problems.append(f"{name!r} not positional-or-keyword at {i}")
        elif k == "POSITIONAL_ONLY" and (i >= len(ours) or ours[i][1] not in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")):
            problems.append(f"no positional parameter at {i}")
    return problems or True


def _compare_signatures(module_name: str, upstream: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for dotted, params in upstream.items():
        if params is None:
            continue  # upstream's own callable does not say its parameters (a C method)
        try:
            seen[dotted] = _accepts(params, _params(_resolve(module_name, dotted)))
        except (ImportError, AttributeError):
            seen[dotted] = "missing"
    return seen


for _module in MODULES:
    _key = _module.replace(".", "_")
    globals()[f"dump_names_{_key}"] = lambda m=_module: _names(m)
    globals()[f"crossed_names_{_key}"] = lambda given, m=_module: _lookup(m, given["upstream"])
    globals()[f"dump_signatures_{_key}"] = lambda m=_module: _signatures(m)
    globals()[f"crossed_signatures_{_key}"] = lambda given, m=_module: _compare_signatures(m, given["upstream"])
