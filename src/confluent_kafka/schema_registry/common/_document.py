"""The base of the registry's JSON-document values (schemas, rules, KEKs, DEKs...): each reads
and writes its document by a table of its fields."""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, NamedTuple, Optional, Tuple, Type, TypeVar, cast

T = TypeVar("T")


class Field(NamedTuple):
    """One field of a document: the attribute ``attr`` is the document's ``key``. ``out`` turns
    the attribute's value into the document's and ``into`` the document's into the attribute's
    (None: as they are; both are given None too); ``always``: written even when None (else left
    out); ``missing``: what an absent key reads as."""

    attr: str
    key: str
    out: Optional[Callable[[Any], Any]] = None
    into: Optional[Callable[[Any], Any]] = None
    always: bool = False
    missing: Any = None


def _opt(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert`` for a value that may be None (None stays None)."""
    return lambda value: None if value is None else convert(value)


def _value(member: Any) -> Any:
    """An enum member's value."""
    return member.value


def _to_dict(document: Any) -> Any:
    """A document's ``to_dict()``."""
    return document.to_dict()


class _Document:
    """A value the registry sends or takes as a JSON document, field by field as its ``_fields``
    say (a subclass with more to do writes its own methods); the documentation of both methods
    is this class's (``help()`` and the API pages show it on each)."""

    __slots__ = ()  # the attrs subclasses stay slotted
    _fields: ClassVar[Tuple[Field, ...]] = ()

    def to_dict(self) -> Dict[str, Any]:
        """This object as the registry's JSON document (camelCase keys; unset fields left out).

        :returns: the document.
        """
        out: Dict[str, Any] = {}
        for f in self._fields:
            value = getattr(self, f.attr)
            if f.out is not None:
                value = f.out(value)
            if value is not None or f.always:
                out[f.key] = value
        return out

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        """The object of a registry's JSON document.

        :param src_dict: the document.
        :returns: the object.
        """
        return cast(T, cast(Any, cls)(**_arguments(cast(Any, cls)._fields, src_dict)))


def _arguments(fields: Tuple[Field, ...], src_dict: Dict[str, Any]) -> Dict[str, Any]:
    """The constructor arguments that ``fields`` read from the document ``src_dict``."""
    args: Dict[str, Any] = {}
    for f in fields:
        value = src_dict.get(f.key, f.missing)
        args[f.attr] = value if f.into is None else f.into(value)
    return args


class _Mapping(_Document):
    """A document that is a single map, kept in the attrs field named by ``_field``. (Each
    subclass writes its own ``__hash__``: attrs would leave an inherited one out.)"""

    __slots__ = ()
    _field: ClassVar[str]

    def to_dict(self) -> Dict[str, Any]:
        return dict(getattr(self, self._field))

    @classmethod
    def from_dict(cls: Type[T], src_dict: Dict[str, Any]) -> T:
        return cls(**{cls._field: dict(src_dict)})  # type: ignore[attr-defined]
