"""The documentation builds without a single warning, and its API reference covers every
public name of the package (so a name added without documentation fails here)."""

from __future__ import annotations

import enum
import importlib
import inspect
import posixpath
from typing import Dict, Iterator, List, Set, Tuple

import pytest

pytest.importorskip("sphinx", reason="Sphinx is installed by the test extra on Python >= 3.11 only")
pytest.importorskip("myst_parser", reason="myst-parser is installed by the test extra on Python >= 3.11 only")
from sphinx.util.inventory import InventoryFile  # noqa: E402

from docs_paths import DocsBuild  # noqa: E402
from kafka_docs import public_modules, public_names  # noqa: E402

# Members every class has from its base, documented by Python itself.
INHERITED_NOISE = set(dir(object)) | set(dir(BaseException))


def documented_objects(docs_build: DocsBuild) -> Set[str]:
    """Every Python object the built docs describe, by dotted name (from objects.inv)."""
    with open(docs_build.outdir / "objects.inv", "rb") as f:
        inventory = InventoryFile.load(f, "", posixpath.join)
    names: Set[str] = set()
    for role, entries in inventory.items():
        if role.startswith("py:"):
            names.update(entries)
    return names


def public_objects() -> Iterator[Tuple[str, object]]:
    """(dotted name, object) of every public name of every public module."""
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in public_names(module):
            yield f"{module_name}.{name}", getattr(module, name)


def public_members(cls: type) -> List[str]:
    """The public methods, properties and attributes a user sees on a class."""
    if issubclass(cls, enum.Enum):
        return [member.name for member in cls]
    members = []
    for name in dir(cls):
        if name.startswith("_") or name in INHERITED_NOISE:
            continue
        value = inspect.getattr_static(cls, name)
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            continue  # constants such as KafkaError's codes, listed in their own table
        members.append(name)
    return members


def member_doc(cls: type, name: str) -> str:
    """A member's docstring; a __slots__ attribute's comes from a __slots__ dict, or from an
    ``:ivar name:`` / ``:param name:`` field of its class's docstring (the fields of data classes
    made with slots); a method overriding a documented one has the docstring it overrides, as
    ``inspect.getdoc`` and autodoc give it."""
    for klass in cls.__mro__:
        slots = vars(klass).get("__slots__")
        if isinstance(slots, dict) and name in slots:
            return str(slots[name] or "")
    value = inspect.getattr_static(cls, name)
    if type(value).__name__ == "member_descriptor" and not getattr(value, "__doc__", None):
        for klass in cls.__mro__:
            doc = vars(klass).get("__doc__") or ""
            if f":ivar {name}:" in doc or f":param {name}:" in doc:
                return name
        return ""
    own = getattr(value, "__doc__", None) or ""
    if own or not callable(getattr(value, "__func__", value)):
        return own
    for klass in cls.__mro__[1:]:
        inherited = getattr(vars(klass).get(name), "__doc__", None)
        if inherited:
            return str(inherited)
    return ""


def test_build_has_no_warnings(docs_build: DocsBuild) -> None:
    assert docs_build.returncode == 0, f"sphinx-build -W failed:\n{docs_build.output}"
    assert (docs_build.outdir / "index.html").is_file()
    assert (docs_build.outdir / "api" / "confluent_kafka.html").is_file()


def documented_names(docs_build: DocsBuild) -> Dict[str, Set[str]]:
    """Public dotted name -> the dotted names under which the docs may describe that object.

    A class or function re-exported by several modules counts as documented under any of its
    public names; a plain value (a constant) only under its own.
    """
    names_of: Dict[int, Set[str]] = {}
    for dotted, obj in public_objects():
        if inspect.isclass(obj) or inspect.isroutine(obj):
            names_of.setdefault(id(obj), set()).add(dotted)
    return {
        dotted: names_of[id(obj)] if (inspect.isclass(obj) or inspect.isroutine(obj)) else {dotted}
        for dotted, obj in public_objects()
    }


def test_every_public_name_is_in_the_api_reference(docs_build: DocsBuild) -> None:
    documented = documented_objects(docs_build)
    missing = sorted(dotted for dotted, aliases in documented_names(docs_build).items()
                     if not aliases & documented)
    assert not missing, f"public names missing from docs/api/*.md: {missing}"


def class_names() -> Dict[int, Set[str]]:
    """id(class) -> every public dotted name of that class."""
    names: Dict[int, Set[str]] = {}
    for dotted, obj in public_objects():
        if inspect.isclass(obj):
            names.setdefault(id(obj), set()).add(dotted)
    return names


def test_every_public_member_is_in_the_api_reference(docs_build: DocsBuild) -> None:
    """A member counts as documented on the class or on a public base class it inherits it
    from unchanged (a subclass's entry links its bases, as Python's own documentation does)."""
    documented = documented_objects(docs_build)
    names_of = class_names()
    missing = []
    for dotted, obj in public_objects():
        if not inspect.isclass(obj):
            continue
        for member in public_members(obj):
            # The classes on which the member is this very object (an override is not its base's).
            value = inspect.getattr_static(obj, member)
            owners = [klass for klass in obj.__mro__
                      if inspect.getattr_static(klass, member, None) is value]
            if not any(f"{alias}.{member}" in documented
                       for klass in owners for alias in names_of.get(id(klass), ())):
                missing.append(f"{dotted}.{member}")
    assert not missing, f"public members missing from the API reference: {missing}"


def test_every_public_name_has_a_docstring() -> None:
    undocumented = []
    for dotted, obj in public_objects():
        if not (inspect.isclass(obj) or inspect.isroutine(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            undocumented.append(dotted)
        if inspect.isclass(obj) and not issubclass(obj, enum.Enum):
            for member in public_members(obj):
                if not member_doc(obj, member).strip():
                    undocumented.append(f"{dotted}.{member}")
    assert not undocumented, f"public names without a docstring: {sorted(set(undocumented))}"


@pytest.mark.parametrize("page", ["index", "quickstart", "configuration", "producer", "consumer",
                                  "delivery-guarantees", "transactions", "admin", "migration", "api",
                                  "serialization", "cli", "api/confluent_kafka.serialization",
                                  "api/confluent_kafka.error"])
def test_page_is_built(docs_build: DocsBuild, page: str) -> None:
    html = (docs_build.outdir / f"{page}.html").read_text(encoding="utf-8")
    assert "<h1>" in html
