"""``python -m confluent_kafka.compat run app.py [args...]`` (or ``run -m module [args...]``):
run an unmodified kafka-python or aiokafka program on this package.

For that process only, ``import kafka`` (and every ``kafka.*`` submodule) resolves to
:mod:`confluent_kafka.compat.kafka`, and ``import aiokafka`` to
:mod:`confluent_kafka.compat.aiokafka`; the program then runs as ``python app.py`` would, with
``sys.argv`` and ``__main__`` as it expects. Nothing is installed or changed on disk. A
``kafka.*`` or ``aiokafka.*`` module the facade does not provide (``aiokafka.cluster``,
``kafka.protocol``, ...) raises ``ModuleNotFoundError`` naming the facade and its docs page.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import pathlib
import re
import runpy
import sys
from types import ModuleType
from typing import Dict, Iterator, List, Optional, Sequence

#: public top-level name -> the facade package that stands in for it
ALIASES = {"kafka": "confluent_kafka.compat.kafka", "aiokafka": "confluent_kafka.compat.aiokafka"}
#: the distribution (as pip names it) that provides each aliased top-level name
DISTRIBUTIONS = {"kafka": "kafka-python", "aiokafka": "aiokafka"}
#: where each facade's page says which of the library's modules it lacks, and why
DOCS = {"kafka": 'docs/kafka_python.md, "What is the same, what is not"',
        "aiokafka": 'docs/aiokafka.md, "Frameworks that use aiokafka\'s internals"'}

USAGE = """usage: python -m confluent_kafka.compat run [-m module | script.py] [args ...]

Runs a kafka-python or aiokafka program unchanged on confluent_kafka: in that process,
'import kafka' and 'import aiokafka' give confluent_kafka.compat.kafka / .aiokafka."""


class _AliasLoader(importlib.abc.Loader):
    """Loads an aliased name by importing its facade module and handing out that same object."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """The facade module ran when it was imported; nothing more to do."""


def _normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


class FacadeDistribution(importlib.metadata.Distribution):
    """The installed-package metadata of an aliased name: ``importlib.metadata.version("aiokafka")``
    gives the version of aiokafka whose API the facade provides, as for the real package (programs
    and frameworks check it before choosing code paths)."""

    def __init__(self, name: str, facade: str) -> None:
        self._name = name
        self._facade = facade

    def read_text(self, filename: str) -> Optional[str]:
        if filename != "METADATA":
            return None  # no RECORD, entry points or requirements: the facade has none
        version = importlib.import_module(self._facade).__version__
        return (f"Metadata-Version: 2.1\nName: {self._name}\nVersion: {version}\n"
                f"Summary: {self._name} API over confluent_kafka ({self._facade})\n")

    def locate_file(self, path: "str | os.PathLike[str]") -> pathlib.Path:
        return pathlib.Path(importlib.import_module(self._facade).__file__ or "").parent / path


def missing(fullname: str, facade: str) -> ModuleNotFoundError:
    """The error for a module of the real library that its facade does not provide: the import
    error Python raises for a missing module (``.name`` set, so ``except ImportError`` and
    ``exc.name`` checks keep working), saying which facade lacks it and where to read why.

    :param fullname: the module the program imported (``aiokafka.cluster``).
    :param facade: the facade package that stands in for its top-level name.
    """
    head = fullname.partition(".")[0]
    where = DOCS.get(head)
    return ModuleNotFoundError(
        f"No module named {fullname!r}: the {DISTRIBUTIONS.get(head, head)} facade ({facade}) does not "
        "provide it; librdkafka owns the connections, the protocol and the group assignment, so the "
        "facade gives the library's API, not its internals" + (f". See {where}" if where else ""),
        name=fullname)


class AliasFinder(importlib.abc.MetaPathFinder):
    """A meta path finder mapping ``kafka[.x]`` / ``aiokafka[.x]`` to the facade modules, and
    answering ``importlib.metadata`` for their distributions (``kafka-python``, ``aiokafka``).
    A ``kafka.*`` / ``aiokafka.*`` module the facade lacks raises :func:`missing`'s error (the
    real library's module must not be picked up beside the facade)."""

    def __init__(self, aliases: Optional[Dict[str, str]] = None) -> None:
        self.aliases = dict(ALIASES if aliases is None else aliases)

    def target(self, fullname: str) -> Optional[str]:
        """:returns: the facade module name that stands in for ``fullname``, or None."""
        head, _, rest = fullname.partition(".")
        base: Optional[str] = self.aliases.get(head)
        if base is None:
            return None
        return base + ("." + rest if rest else "")

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> Optional[importlib.machinery.ModuleSpec]:
        name = self.target(fullname)
        if name is None:
            return None
        try:
            real = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            real = None
        if real is None:
            raise missing(fullname, self.aliases[fullname.partition(".")[0]])
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(name),
                                              is_package=real.submodule_search_locations is not None)
        return spec

    def find_distributions(self, context: importlib.metadata.DistributionFinder.Context
                           = importlib.metadata.DistributionFinder.Context()
                           ) -> Iterator[importlib.metadata.Distribution]:
        """The facades' distributions: the one asked for by name, or all of them (name None)."""
        wanted = None if context.name is None else _normalized(context.name)
        for head, facade in self.aliases.items():
            name = DISTRIBUTIONS.get(head, head)
            if wanted is None or wanted == _normalized(name):
                yield FacadeDistribution(name, facade)


def install(aliases: Optional[Dict[str, str]] = None) -> AliasFinder:
    """Put the alias finder first on ``sys.meta_path`` (for this process only).

    :param aliases: ``{name: facade module}``; default :data:`ALIASES`.
    :returns: the finder (remove it from ``sys.meta_path`` to undo).
    """
    finder = AliasFinder(aliases)
    for name in list(sys.modules):
        if finder.target(name) is not None:
            del sys.modules[name]  # an earlier real import must not shadow the facade
    sys.meta_path.insert(0, finder)
    return finder


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m confluent_kafka.compat``.

    :param argv: the arguments after the module name (default ``sys.argv[1:]``).
    :returns: the exit status (the program's own exit status propagates as SystemExit).
    """
    args: List[str] = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] != "run" or len(args) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    install()
    rest = args[1:]
    if rest[0] == "-m":
        if len(rest) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = [rest[1]] + rest[2:]
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(rest)
        sys.path[0] = os.path.dirname(os.path.abspath(rest[0]))
        runpy.run_path(rest[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
