"""Every public method of the listed classes documents its parameters and result in Sphinx
field form: a ``:param name:`` for each parameter (self, ``*args`` and ``**kwargs`` aside) and a
``:returns:`` unless the method returns None.

Whether a method returns None is read from its annotation; for the C types (no annotations at
run time) from the matching stub in ``cimpl.pyi``.
"""

import ast
import inspect
import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import confluent_kafka
from confluent_kafka import cimpl
from confluent_kafka import serialization
from confluent_kafka.admin import AdminClient
from confluent_kafka.aio import AIOConsumer, AIOProducer
from confluent_kafka.deserializing_consumer import DeserializingConsumer
from confluent_kafka.serializing_producer import SerializingProducer

C_CLASSES = [
    cimpl.Producer,
    cimpl.Consumer,
    cimpl.Message,
    cimpl.KafkaError,
    cimpl._AdminClientImpl,
    cimpl.MockCluster,
    cimpl.ArrowBatch,
]

PY_CLASSES = [
    AdminClient,
    AIOProducer,
    AIOConsumer,
    SerializingProducer,
    DeserializingConsumer,
    serialization.SerializationContext,
    serialization.Serializer,
    serialization.Deserializer,
    serialization.SerializerBuilder,
    serialization.DeserializerBuilder,
    serialization.IntegerSerializer,
    serialization.IntegerDeserializer,
    serialization.DoubleSerializer,
    serialization.DoubleDeserializer,
    serialization.StringSerializer,
    serialization.StringDeserializer,
]

# Classes whose own public methods number at least this many (guards against a listing that
# silently checks nothing, e.g. after a rename).
MIN_METHODS = {
    cimpl.Producer: 12,
    cimpl.Consumer: 25,
    cimpl.Message: 18,
    cimpl.KafkaError: 6,
    cimpl._AdminClientImpl: 3,
    cimpl.MockCluster: 9,
    cimpl.ArrowBatch: 1,
    AdminClient: 20,
    AIOProducer: 15,
    AIOConsumer: 25,
    DeserializingConsumer: 2,
}


def _stub_returns() -> Dict[Tuple[str, str], str]:
    """(class, method) -> the return annotation's source text, from cimpl.pyi."""
    path = Path(confluent_kafka.__file__).parent / "cimpl.pyi"
    tree = ast.parse(path.read_text())
    out: Dict[Tuple[str, str], str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.returns is not None:
                    out[(node.name, f.name)] = ast.unparse(f.returns)
    return out


_STUBS = _stub_returns()


def _c_returns_none(cls: type, name: str, sig: inspect.Signature) -> bool:
    return _STUBS.get((cls.__name__, name)) == "None"


def _py_returns_none(cls: type, name: str, sig: inspect.Signature) -> bool:
    ann = sig.return_annotation
    return ann is None or ann is type(None) or ann == "None"


def _public_methods(cls: type) -> List[Tuple[str, Callable[..., Any], inspect.Signature]]:
    """The class's public methods, with those it takes from a private base (``_ClientCalls``)."""
    out = []
    seen = set()
    members = [(name, attr) for klass in cls.__mro__ if klass is cls or klass.__name__.startswith("_")
               for name, attr in vars(klass).items()]
    for name, attr in members:
        if name.startswith("_") or name in seen:
            continue
        seen.add(name)
        func = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
        if isinstance(func, property) or not callable(func):
            continue
        try:
            sig = inspect.signature(func)
        except (ValueError, TypeError):
            continue
        out.append((name, func, sig))
    return out


def missing_fields(cls: type, returns_none: Callable[[type, str, inspect.Signature], bool]) -> List[str]:
    """The fields each public method of cls lacks, as 'Class.method: what'."""
    problems = []
    for name, func, sig in _public_methods(cls):
        doc = inspect.getdoc(func) or ""
        for p in sig.parameters.values():
            if p.name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if not re.search(r"^:param (\S+ )?%s:" % re.escape(p.name), doc, re.M):
                problems.append(f"{cls.__name__}.{name}: no :param {p.name}:")
        if not returns_none(cls, name, sig) and not re.search(r"^:returns?:", doc, re.M):
            problems.append(f"{cls.__name__}.{name}: no :returns:")
    return problems


@pytest.mark.parametrize("cls", C_CLASSES, ids=lambda c: c.__name__)
def test_c_type_methods_document_fields(cls: type) -> None:
    assert missing_fields(cls, _c_returns_none) == []


@pytest.mark.parametrize("cls", PY_CLASSES, ids=lambda c: c.__name__)
def test_python_methods_document_fields(cls: type) -> None:
    assert missing_fields(cls, _py_returns_none) == []


@pytest.mark.parametrize("cls", list(MIN_METHODS), ids=lambda c: c.__name__)
def test_listing_checks_methods(cls: type) -> None:
    assert len(_public_methods(cls)) >= MIN_METHODS[cls]


def test_admin_poll_and_close_fields() -> None:
    # No text signature (as upstream), so the generic check skips them: check them by name.
    poll_doc = inspect.getdoc(cimpl._AdminClientImpl.poll) or ""
    assert re.search(r"^:param timeout:", poll_doc, re.M)
    assert re.search(r"^:returns:", poll_doc, re.M)
    assert re.search(r"^:returns:", inspect.getdoc(cimpl._AdminClientImpl.close) or "", re.M)


def test_c_signatures_are_text_signatures() -> None:
    # The fields follow the docstring's text signature, which must still parse.
    assert str(inspect.signature(cimpl.Producer.produce)).startswith("(self, /, topic, value=None")
    assert str(inspect.signature(cimpl.Consumer.poll)) == "(self, /, timeout=-1)"
    assert str(inspect.signature(cimpl.Message.set_key)) == "(self, key, /)"


def test_checker_notices_a_lost_field() -> None:
    class Sample:
        def complete(self, a: int, *args: Any, **kw: Any) -> int:
            """Do it.

            :param a: the a.
            :returns: a number.
            """
            return a

        def lost_param(self, a: int, b: Optional[int] = None) -> None:
            """Do it.

            :param a: the a.
            """

        def lost_returns(self) -> int:
            """Do it."""
            return 1

        def typed_param(self, t: float) -> None:
            """Do it.

            :param float t: the t.
            """

        def _private(self, x: int) -> int:
            return x

    assert missing_fields(Sample, _py_returns_none) == [
        "Sample.lost_param: no :param b:",
        "Sample.lost_returns: no :returns:",
    ]
