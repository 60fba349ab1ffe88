"""Run the scenarios of one module and print what they observed, as JSON on stdout.

    python runner.py MODULE                 every ``scenario_*`` and ``dump_*`` of scenarios/MODULE.py
    python runner.py MODULE --crossed FILE  every ``crossed_*``, each given FILE's entry for it

The same file runs under this project's interpreter and under the upstream wheel's, so it uses
nothing but the standard library and ``confluent_kafka``. A scenario that raises is an
observation too (its exception's type and text), never a crash of the run.
"""
from __future__ import annotations

import importlib
import json
import pathlib
import sys
import traceback

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "scenarios")]

from observe import raised  # noqa: E402


def main(argv: list[str]) -> int:
    module = importlib.import_module(argv[1])
    prefixes, given = ("scenario_", "dump_"), None
    if len(argv) == 4 and argv[2] == "--crossed":
        prefixes, given = ("crossed_",), json.loads(pathlib.Path(argv[3]).read_text())
    results = {}
    for name in sorted(vars(module)):
        if not name.startswith(prefixes):
            continue
        fn = getattr(module, name)
        try:
            results[name] = fn(given[name]) if given is not None else fn()
        except Exception as exc:  # noqa: BLE001 - the exception is the observation
            results[name] = {"scenario raised": raised(exc), "where": traceback.format_exc(limit=-2)}
    json.dump(results, sys.stdout, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
