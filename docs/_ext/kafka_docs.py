"""Sphinx directives of this documentation, and the definition of the public API it covers.

* ``optional-toctree``: a toctree whose entries may be missing (pages are written in parallel
  and land at different times); a missing page is dropped instead of warned about. With
  ``:rest:`` it also lists every top-level page that no earlier ``optional-toctree`` of the
  same document named, so a new page is never left out of the navigation.
* ``undocumented-modules``: an autodoc section for every public module that no page under
  ``api/`` documents, so a newly added module is in the reference from its first day.
* ``kafka-error-codes``: the table of ``KafkaError`` codes, read from the extension itself.

``public_modules()`` and ``public_names()`` say what "public" means; the docs tests use them
to check that every public name is in the API reference.
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pkgutil
import re
from types import ModuleType
from typing import Any, Dict, List, Set

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.directives.other import TocTree
from sphinx.util.docutils import SphinxDirective

PACKAGE = "confluent_kafka"
# Modules (with everything under them) that are not a Python API: ``cimpl`` holds only what the
# package re-exports elsewhere; ``cli`` is the ``confluent-kafka`` command-line tool, whose
# modules are its implementation and whose interface is the command line (docs/cli.md).
# ``schema_registry.common`` is the Schema Registry's shared core (upstream's layout): every name a
# user needs from it is re-exported, and documented, by the public modules (``schema_registry``,
# ``.avro``, ``.json_schema``, ``.protobuf``, ``.serde``), and its ``__all__`` lists helpers.
# ``compat`` holds the kafka-python/aiokafka facades: other libraries' APIs under their own names
# (TopicPartition, KafkaError, ...), described by docs/kafka_python.md and docs/aiokafka.md and checked against those
# libraries by tests/facades, not part of this package's own reference.
NOT_API = {"confluent_kafka.cimpl", "confluent_kafka.__main__", "confluent_kafka.cli",
           "confluent_kafka.schema_registry.common", "confluent_kafka.compat"}


def is_api_module(name: str) -> bool:
    """Whether module ``name`` is part of the Python API: no part of its dotted name starts
    with ``_``, and neither it nor a package above it is in ``NOT_API``."""
    parts = name.split(".")
    if any(part.startswith("_") for part in parts):
        return False
    return not any(".".join(parts[:i]) in NOT_API for i in range(1, len(parts) + 1))


def public_modules() -> List[str]:
    """The package and every submodule that :func:`is_api_module` accepts."""
    pkg = importlib.import_module(PACKAGE)
    found = [PACKAGE]
    for info in pkgutil.walk_packages(pkg.__path__, PACKAGE + "."):
        name = info.name
        if not is_api_module(name):
            continue
        found.append(name)
    return sorted(found)


def public_names(module: ModuleType) -> List[str]:
    """``__all__`` if the module has one, else what it defines (not what it imports)."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return list(declared)
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        if getattr(value, "__module__", module.__name__) != module.__name__:
            continue
        names.append(name)
    return sorted(names)


# ---- optional-toctree -----------------------------------------------------------------------

class OptionalTocTree(TocTree):
    """A toctree that skips entries naming no document (see the module docstring)."""

    option_spec = dict(TocTree.option_spec, rest=directives.flag)

    def run(self) -> List[nodes.Node]:
        named: Set[str] = self.env.temp_data.setdefault("optional_toctree_named", set())
        entries = [line.strip() for line in self.content if line.strip()]
        named.update(entries)
        kept = [entry for entry in entries if entry in self.env.found_docs]
        if "rest" in self.options:
            kept += sorted(
                doc for doc in self.env.found_docs
                if "/" not in doc and doc not in named and doc != self.env.docname
            )
        if not kept:
            return []
        self.content = StringList(kept, source=self.content.source(0) if self.content else "")
        return super().run()


# ---- undocumented-modules -------------------------------------------------------------------

# A page documents a module when it holds an automodule, py:module or currentmodule for it.
MODULE_DIRECTIVE = re.compile(r"(?:automodule|py:module|currentmodule)\}?:{0,2}[ \t]+([\w.]+)")


def modules_with_pages(api_dir: pathlib.Path) -> Set[str]:
    """The modules that some page under ``api/`` documents (read from the files themselves,
    since Sphinx reads pages in no fixed order)."""
    found: Set[str] = set()
    for page in api_dir.glob("*.md"):
        found.update(MODULE_DIRECTIVE.findall(page.read_text(encoding="utf-8")))
    return found


class UndocumentedModules(SphinxDirective):
    """Autodoc every public module that no page under ``api/`` documents."""

    has_content = False

    def run(self) -> List[nodes.Node]:
        covered = modules_with_pages(pathlib.Path(self.env.srcdir) / "api")
        lines: List[str] = []
        for name in public_modules():
            if name in covered:
                continue
            # autodoc emits reStructuredText, so it runs inside eval-rst.
            lines += [f"## `{name}`", "", "```{eval-rst}", f".. automodule:: {name}", "   :members:", "```", ""]
        if not lines:
            return []
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(StringList(lines, source="undocumented-modules"), self.content_offset,
                                container, match_titles=True)
        return list(container.children)


# ---- kafka-error-codes ----------------------------------------------------------------------

def error_codes() -> Dict[str, int]:
    """``KafkaError``'s code constants, by name, in code order."""
    from confluent_kafka import KafkaError

    codes = {name: value for name, value in vars(KafkaError).items()
             if isinstance(value, int) and not isinstance(value, bool) and name.lstrip("_").isupper()}
    return dict(sorted(codes.items(), key=lambda item: item[1]))


class KafkaErrorCodes(SphinxDirective):
    """A table: constant name, value, librdkafka's description."""

    has_content = False

    def run(self) -> List[nodes.Node]:
        from confluent_kafka import KafkaError

        table = nodes.table(classes=["kafka-error-codes"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (30, 10, 60):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        body = nodes.tbody()
        group += head
        group += body
        head += self._row(["Constant", "Code", "Meaning"])
        for name, code in error_codes().items():
            body += self._row([f"KafkaError.{name}", str(code), KafkaError(code).str()], literal_first=True)
        return [table]

    @staticmethod
    def _row(cells: List[str], literal_first: bool = False) -> nodes.row:
        row = nodes.row()
        for i, text in enumerate(cells):
            entry = nodes.entry()
            para = nodes.paragraph()
            para += nodes.literal(text=text) if (literal_first and i == 0) else nodes.Text(text)
            entry += para
            row += entry
        return row


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_directive("optional-toctree", OptionalTocTree)
    app.add_directive("undocumented-modules", UndocumentedModules)
    app.add_directive("kafka-error-codes", KafkaErrorCodes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
