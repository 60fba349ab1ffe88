"""Import every quixstreams module whose source mentions ``confluent_kafka``.

    python quix_imports.py

Runs under this project's interpreter and under the upstream wheel's. Prints one JSON document:
the quixstreams and confluent-kafka versions, where ``confluent_kafka`` was loaded from, and for
each such module either null (it imported) or the type and text of what its import raised.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import json
import pathlib
import sys
import traceback

import quixstreams


def modules_using_confluent_kafka() -> list[str]:
    root = pathlib.Path(quixstreams.__file__).parent
    names = []
    for path in sorted(root.rglob("*.py")):
        if "confluent_kafka" in path.read_text(encoding="utf-8"):
            parts = ("quixstreams", *path.relative_to(root).with_suffix("").parts)
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def main() -> dict[str, object]:
    results: dict[str, object] = {}
    for name in modules_using_confluent_kafka():
        try:
            importlib.import_module(name)
            results[name] = None
        except Exception as exc:  # noqa: BLE001 - the failure is the observation
            results[name] = {"raised": f"{type(exc).__module__}.{type(exc).__qualname__}", "text": str(exc),
                             "where": traceback.format_exc(limit=-3)}
    import confluent_kafka

    return {
        "quixstreams": importlib.metadata.version("quixstreams"),
        "confluent_kafka_version": confluent_kafka.version(),
        "confluent_kafka_file": confluent_kafka.__file__,
        "modules": results,
    }


if __name__ == "__main__":
    json.dump(main(), sys.stdout, sort_keys=True)
