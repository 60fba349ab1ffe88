"""The Variant binary encoding (Apache Parquet's, as Spark and Confluent's other clients write
it): a semi-structured value stored as two byte strings, a *metadata* dictionary of object
keys and a self-describing *value*.

:class:`Variant` reads one (navigating objects and arrays without copying), :func:`parse_json`
and :class:`VariantBuilder` write one, and :meth:`Variant.to_json` renders it as JSON the way
Confluent's Java client does (ISO-8601 temporals with seconds always present, ``NaN`` and
``Infinity`` as bare words, decimals in plain notation, binary as base64).

Encoding summary. Every value starts with a header byte: its low two bits are the *basic
type* (0 primitive, 1 short string, 2 object, 3 array) and the upper six the type info. A
primitive's type info is its type id (null, true, false, int8/16/32/64, double, decimal4/8/16,
date, timestamp, timestamp without zone, float, binary, string, time, nanosecond timestamps,
uuid); little-endian payload bytes follow. A short string keeps its length (< 64) in the type
info. Objects and arrays hold a count, field ids (objects), offsets and then the data; fields
are sorted by key. The metadata is a version byte (with the offset width), the key count, the
key offsets and the UTF-8 keys.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import json
import math
import struct
import uuid as uuid_mod
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["VariantError", "VariantType", "Variant", "VariantBuilder", "from_bytes", "to_json_string",
           "parse_json"]

# -- the format's constants --------------------------------------------------------------------

BASIC_TYPE_BITS = 2
BASIC_TYPE_MASK = 0x3
TYPE_INFO_MASK = 0x3F
MAX_SHORT_STR_SIZE = 0x3F

PRIMITIVE, SHORT_STR, OBJECT, ARRAY = 0, 1, 2, 3

NULL, TRUE, FALSE = 0, 1, 2
INT1, INT2, INT4, INT8 = 3, 4, 5, 6
DOUBLE = 7
DECIMAL4, DECIMAL8, DECIMAL16 = 8, 9, 10
DATE = 11
TIMESTAMP = 12
TIMESTAMP_NTZ = 13
FLOAT = 14
BINARY = 15
LONG_STR = 16
TIME = 17
TIMESTAMP_NANOS = 18
TIMESTAMP_NANOS_NTZ = 19
UUID = 20

VERSION = 1
VERSION_MASK = 0x0F

U8_MAX = 0xFF
U16_MAX = 0xFFFF
U24_MAX = 0xFFFFFF
U32_SIZE = 4
UUID_SIZE = 16

MAX_DECIMAL4_PRECISION = 9
MAX_DECIMAL8_PRECISION = 18
MAX_DECIMAL16_PRECISION = 38

_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
_EPOCH_DATE = datetime.date(1970, 1, 1)
_MIN_EPOCH_DAY = (datetime.date(1, 1, 1) - _EPOCH_DATE).days
_MAX_EPOCH_DAY = (datetime.date(9999, 12, 31) - _EPOCH_DATE).days
_MICROS_PER_DAY = 86_400_000_000


class VariantError(ValueError):
    """A Variant that is malformed, or a value the encoding cannot hold."""


class VariantType(Enum):
    """What a Variant value is. The integer, decimal and timestamp widths stay distinct."""

    OBJECT = "OBJECT"
    ARRAY = "ARRAY"
    NULL = "NULL"
    BOOLEAN = "BOOLEAN"
    BYTE = "BYTE"
    SHORT = "SHORT"
    INT = "INT"
    LONG = "LONG"
    STRING = "STRING"
    DOUBLE = "DOUBLE"
    DECIMAL4 = "DECIMAL4"
    DECIMAL8 = "DECIMAL8"
    DECIMAL16 = "DECIMAL16"
    DATE = "DATE"
    TIMESTAMP_TZ = "TIMESTAMP_TZ"
    TIMESTAMP_NTZ = "TIMESTAMP_NTZ"
    FLOAT = "FLOAT"
    BINARY = "BINARY"
    TIME = "TIME"
    TIMESTAMP_NANOS_TZ = "TIMESTAMP_NANOS_TZ"
    TIMESTAMP_NANOS_NTZ = "TIMESTAMP_NANOS_NTZ"
    UUID = "UUID"


_PRIMITIVE_TYPES = {
    NULL: VariantType.NULL, TRUE: VariantType.BOOLEAN, FALSE: VariantType.BOOLEAN, INT1: VariantType.BYTE,
    INT2: VariantType.SHORT, INT4: VariantType.INT, INT8: VariantType.LONG, DOUBLE: VariantType.DOUBLE,
    DECIMAL4: VariantType.DECIMAL4, DECIMAL8: VariantType.DECIMAL8, DECIMAL16: VariantType.DECIMAL16,
    DATE: VariantType.DATE, TIMESTAMP: VariantType.TIMESTAMP_TZ, TIMESTAMP_NTZ: VariantType.TIMESTAMP_NTZ,
    FLOAT: VariantType.FLOAT, BINARY: VariantType.BINARY, LONG_STR: VariantType.STRING, TIME: VariantType.TIME,
    TIMESTAMP_NANOS: VariantType.TIMESTAMP_NANOS_TZ, TIMESTAMP_NANOS_NTZ: VariantType.TIMESTAMP_NANOS_NTZ,
    UUID: VariantType.UUID,
}

# Which integer type ids a getter accepts, with their widths: each getter widens the narrower ones.
_INT_WIDTHS = {INT1: 1, INT2: 2, INT4: 4, INT8: 8}
_LONG_BACKED = {INT1: 1, INT2: 2, INT4: 4, INT8: 8, DATE: 4, TIMESTAMP: 8, TIMESTAMP_NTZ: 8, TIME: 8,
                TIMESTAMP_NANOS: 8, TIMESTAMP_NANOS_NTZ: 8}
_DECIMAL_WIDTHS = {DECIMAL4: (4, MAX_DECIMAL4_PRECISION), DECIMAL8: (8, MAX_DECIMAL8_PRECISION),
                   DECIMAL16: (16, MAX_DECIMAL16_PRECISION)}


def _bounds(data: bytes, pos: int, size: int = 1) -> None:
    if pos < 0 or size < 0 or pos + size > len(data) or (size == 0 and pos > len(data)):
        raise VariantError("malformed variant: index out of bounds")


def _uint(data: bytes, pos: int, size: int) -> int:
    _bounds(data, pos, size)
    return int.from_bytes(data[pos:pos + size], "little")


def _sint(data: bytes, pos: int, size: int) -> int:
    _bounds(data, pos, size)
    return int.from_bytes(data[pos:pos + size], "little", signed=True)


def _width(value: int) -> int:
    """The fewest bytes (1 to 4) holding an unsigned ``value``."""
    if value <= U8_MAX:
        return 1
    if value <= U16_MAX:
        return 2
    if value <= U24_MAX:
        return 3
    return 4


def _metadata_key(metadata: bytes, key_id: int) -> str:
    _bounds(metadata, 0)
    offset_size = ((metadata[0] >> 6) & 0x3) + 1
    count = _uint(metadata, 1, offset_size)
    if key_id >= count:
        raise VariantError("malformed variant: field id out of range")
    strings = 1 + (count + 2) * offset_size
    start = _uint(metadata, 1 + (key_id + 1) * offset_size, offset_size)
    end = _uint(metadata, 1 + (key_id + 2) * offset_size, offset_size)
    if start > end:
        raise VariantError("malformed variant: non-monotonic metadata offsets")
    _bounds(metadata, strings + start, end - start)
    return metadata[strings + start:strings + end].decode("utf-8")


# -- JSON rendering of scalars -------------------------------------------------------------------


def _fraction(nanos: int) -> str:
    # Java's grouping: no fraction, or 3, 6 or 9 digits.
    if nanos == 0:
        return ""
    if nanos % 1_000_000 == 0:
        return f".{nanos // 1_000_000:03d}"
    if nanos % 1_000 == 0:
        return f".{nanos // 1_000:06d}"
    return f".{nanos:09d}"


def _date_time(total_nanos: int) -> str:
    seconds, nanos = divmod(total_nanos, 1_000_000_000)
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}{}".format(
        moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second, _fraction(nanos))


def _time_of_day(micros: int) -> str:
    if not 0 <= micros < _MICROS_PER_DAY:
        raise VariantError("time microseconds of day (%d) must be in range [0, %d]" % (micros, _MICROS_PER_DAY - 1))
    seconds, rest = divmod(micros, 1_000_000)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{_fraction(rest * 1000)}"


def _date(days: int) -> str:
    if not _MIN_EPOCH_DAY <= days <= _MAX_EPOCH_DAY:
        raise VariantError("date epoch day (%d) must be in range [%d, %d]" % (days, _MIN_EPOCH_DAY, _MAX_EPOCH_DAY))
    return (_EPOCH_DATE + datetime.timedelta(days=days)).isoformat()


def _special_float(x: float) -> Optional[str]:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x.is_integer() and abs(x) < 1e16 and not (x == 0.0 and math.copysign(1.0, x) < 0):
        return f"{int(x)}.0"
    return None


def _double_json(x: float) -> str:
    return _special_float(x) or repr(x)


def _float_json(x: float) -> str:
    # The shortest decimal that reads back as the same 32-bit float (as Java's Float.toString).
    special = _special_float(x)
    if special is not None:
        return special
    for digits in range(1, 10):
        text = "%.*g" % (digits, x)
        try:
            if struct.unpack("<f", struct.pack("<f", float(text)))[0] == x:
                return repr(float(text))
        except OverflowError:
            continue
    return repr(x)


# -- reading ------------------------------------------------------------------------------------


class Variant:
    """A Variant value: ``value`` and ``metadata`` bytes, read from position ``pos`` of
    ``value``. Fields and elements navigated to share the parent's bytes.

    :param value: the value bytes.
    :param metadata: the metadata bytes.
    :param pos: where this value starts in ``value``.
    :raises VariantError: when the metadata is empty or of another version.
    """

    _BINARY_SEARCH_THRESHOLD = 32

    def __init__(self, value: bytes, metadata: bytes, pos: int = 0) -> None:
        self.value = bytes(value)
        self.metadata = bytes(metadata)
        self.pos = pos
        _bounds(self.metadata, 0)
        if self.metadata[0] & VERSION_MASK != VERSION:
            raise VariantError("unsupported variant metadata version: %d" % (self.metadata[0] & VERSION_MASK))

    def standalone_value_bytes(self) -> bytes:
        """This value's bytes from its own start (a navigated value's bytes begin at ``pos``
        of the shared buffer): what to write when storing it on its own.

        :returns: the bytes.
        """
        return self.value[self.pos:] if self.pos else self.value

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Variant):
            return NotImplemented
        return self.metadata == other.metadata and self.standalone_value_bytes() == other.standalone_value_bytes()

    def __hash__(self) -> int:
        return hash((self.standalone_value_bytes(), self.metadata))

    def __repr__(self) -> str:
        try:
            shown = self.to_json()
        except VariantError:
            shown = "<malformed>"
        return f"Variant({shown})"

    def _header(self) -> Tuple[int, int]:
        _bounds(self.value, self.pos)
        byte = self.value[self.pos]
        return byte & BASIC_TYPE_MASK, (byte >> BASIC_TYPE_BITS) & TYPE_INFO_MASK

    def _primitive(self) -> int:
        basic, info = self._header()
        if basic != PRIMITIVE:
            raise VariantError("expected a primitive variant value")
        return info

    def get_type(self) -> VariantType:
        """What this value is.

        :returns: its type.
        :raises VariantError: for an unknown primitive type id.
        """
        basic, info = self._header()
        if basic == SHORT_STR:
            return VariantType.STRING
        if basic == OBJECT:
            return VariantType.OBJECT
        if basic == ARRAY:
            return VariantType.ARRAY
        found = _PRIMITIVE_TYPES.get(info)
        if found is None:
            raise VariantError("unknown variant primitive type: %d" % info)
        return found

    def get_boolean(self) -> bool:
        """:returns: the boolean.
        :raises VariantError: when the value is not one."""
        info = self._primitive()
        if info not in (TRUE, FALSE):
            raise VariantError("variant is not a boolean")
        return info == TRUE

    def _integer(self, accepted: Dict[int, int], what: str) -> int:
        info = self._primitive()
        size = accepted.get(info)
        if size is None:
            raise VariantError(f"variant is not {what}")
        return _sint(self.value, self.pos + 1, size)

    def get_byte(self) -> int:
        """:returns: the 8-bit integer.
        :raises VariantError: for any other type (wider integers too)."""
        return self._integer({INT1: 1}, "a byte-width integer")

    def get_short(self) -> int:
        """:returns: the integer, of 16 bits or fewer.
        :raises VariantError: for any other type."""
        return self._integer({INT1: 1, INT2: 2}, "a short-width integer")

    def get_int(self) -> int:
        """:returns: the integer, of 32 bits or fewer.
        :raises VariantError: for any other type."""
        return self._integer({INT1: 1, INT2: 2, INT4: 4}, "an int-width integer")

    def get_long(self) -> int:
        """:returns: the integer of any width, or the raw number behind a date (days), time
            (microseconds) or timestamp (micro- or nanoseconds).
        :raises VariantError: for any other type."""
        return self._integer(_LONG_BACKED, "an integer-backed type")

    def get_float(self) -> float:
        """:returns: the 32-bit float (a double is not narrowed).
        :raises VariantError: for any other type."""
        if self._primitive() != FLOAT:
            raise VariantError("variant is not a float")
        _bounds(self.value, self.pos + 1, 4)
        return float(struct.unpack_from("<f", self.value, self.pos + 1)[0])

    def get_double(self) -> float:
        """:returns: the 64-bit double (a float is not widened).
        :raises VariantError: for any other type."""
        if self._primitive() != DOUBLE:
            raise VariantError("variant is not a double")
        _bounds(self.value, self.pos + 1, 8)
        return float(struct.unpack_from("<d", self.value, self.pos + 1)[0])

    def get_decimal(self) -> decimal.Decimal:
        """:returns: the decimal, exactly.
        :raises VariantError: for any other type, or digits or scale past the width's precision."""
        info = self._primitive()
        if info not in _DECIMAL_WIDTHS:
            raise VariantError("variant is not a decimal")
        size, precision = _DECIMAL_WIDTHS[info]
        _bounds(self.value, self.pos + 1)
        scale = self.value[self.pos + 1]
        unscaled = _sint(self.value, self.pos + 2, size)
        if abs(unscaled) >= 10 ** precision or scale > precision:
            raise VariantError("malformed variant: decimal out of range")
        return decimal.Decimal(unscaled).scaleb(-scale, context=_EXACT)

    def _sized(self, info: int) -> Tuple[int, int]:
        length = _uint(self.value, self.pos + 1, U32_SIZE)
        start = self.pos + 1 + U32_SIZE
        _bounds(self.value, start, length)
        return start, length

    def get_binary(self) -> bytes:
        """:returns: the bytes.
        :raises VariantError: for any other type."""
        info = self._primitive()
        if info != BINARY:
            raise VariantError("variant is not binary")
        start, length = self._sized(info)
        return self.value[start:start + length]

    def get_uuid(self) -> uuid_mod.UUID:
        """:returns: the UUID.
        :raises VariantError: for any other type."""
        if self._primitive() != UUID:
            raise VariantError("variant is not a uuid")
        _bounds(self.value, self.pos + 1, UUID_SIZE)
        return uuid_mod.UUID(bytes=self.value[self.pos + 1:self.pos + 1 + UUID_SIZE])

    def get_string(self) -> str:
        """:returns: the string (short or long form).
        :raises VariantError: for any other type."""
        basic, info = self._header()
        if basic == SHORT_STR:
            start, length = self.pos + 1, info
            _bounds(self.value, start, length)
        elif basic == PRIMITIVE and info == LONG_STR:
            start, length = self._sized(info)
        else:
            raise VariantError("variant is not a string")
        return self.value[start:start + length].decode("utf-8")

    # Objects: [header][count: 1 or 4 bytes][field ids][count + 1 offsets][data].
    def _object_layout(self) -> Tuple[int, int, int, int, int, int]:
        basic, info = self._header()
        if basic != OBJECT:
            raise VariantError("variant is not an object")
        count_size = U32_SIZE if (info >> 4) & 0x1 else 1
        id_size = ((info >> 2) & 0x3) + 1
        offset_size = (info & 0x3) + 1
        count = _uint(self.value, self.pos + 1, count_size)
        ids = self.pos + 1 + count_size
        offsets = ids + count * id_size
        data = offsets + (count + 1) * offset_size
        return count, id_size, offset_size, ids, offsets, data

    # Arrays: [header][count: 1 or 4 bytes][count + 1 offsets][data].
    def _array_layout(self) -> Tuple[int, int, int, int]:
        basic, info = self._header()
        if basic != ARRAY:
            raise VariantError("variant is not an array")
        count_size = U32_SIZE if (info >> 2) & 0x1 else 1
        offset_size = (info & 0x3) + 1
        count = _uint(self.value, self.pos + 1, count_size)
        offsets = self.pos + 1 + count_size
        return count, offset_size, offsets, offsets + (count + 1) * offset_size

    def num_object_fields(self) -> int:
        """:returns: how many fields this object has.
        :raises VariantError: when it is not an object."""
        return self._object_layout()[0]

    def num_array_elements(self) -> int:
        """:returns: how many elements this array has.
        :raises VariantError: when it is not an array."""
        return self._array_layout()[0]

    def _field(self, index: int) -> Tuple[str, "Variant"]:
        count, id_size, offset_size, ids, offsets, data = self._object_layout()
        key_id = _uint(self.value, ids + index * id_size, id_size)
        offset = _uint(self.value, offsets + index * offset_size, offset_size)
        return _metadata_key(self.metadata, key_id), Variant(self.value, self.metadata, data + offset)

    def get_field_by_key(self, key: str) -> Optional["Variant"]:
        """The object's field named ``key``.

        :param key: the field's name.
        :returns: its value, or None when the object has no such field.
        :raises VariantError: when this is not an object.
        """
        count = self._object_layout()[0]
        if count < self._BINARY_SEARCH_THRESHOLD:
            for i in range(count):
                name, value = self._field(i)
                if name == key:
                    return value
            return None
        low, high = 0, count - 1  # fields are sorted by key
        while low <= high:
            mid = (low + high) // 2
            name, value = self._field(mid)
            if name == key:
                return value
            if name < key:
                low = mid + 1
            else:
                high = mid - 1
        return None

    def get_field_at_index(self, idx: int) -> Tuple[str, "Variant"]:
        """The object's field at ``idx`` (fields are in key order).

        :param idx: the position.
        :returns: (key, value).
        :raises VariantError: when this is not an object, or ``idx`` is out of range.
        """
        return self._field(idx)

    def get_element_at_index(self, index: int) -> Optional["Variant"]:
        """The array's element at ``index``.

        :param index: the position.
        :returns: the element, or None when out of range.
        :raises VariantError: when this is not an array.
        """
        count, offset_size, offsets, data = self._array_layout()
        if not 0 <= index < count:
            return None
        return Variant(self.value, self.metadata, data + _uint(self.value, offsets + index * offset_size,
                                                               offset_size))

    def to_json(self) -> str:
        """This value as JSON text (see the module's docstring for how each type renders).

        :returns: the JSON.
        :raises VariantError: for a malformed value, or a date or time out of range.
        """
        kind = self.get_type()
        if kind == VariantType.OBJECT:
            fields = (self.get_field_at_index(i) for i in range(self.num_object_fields()))
            return "{" + ",".join(json.dumps(key, ensure_ascii=False) + ":" + value.to_json()
                                  for key, value in fields) + "}"
        if kind == VariantType.ARRAY:
            items = []
            for i in range(self.num_array_elements()):
                element = self.get_element_at_index(i)
                assert element is not None
                items.append(element.to_json())
            return "[" + ",".join(items) + "]"
        render = _JSON_RENDERERS.get(kind)
        if render is None:  # pragma: no cover - every type has a renderer
            raise VariantError("unsupported variant type for JSON: %s" % kind)
        return render(self)


def _quoted(text: str) -> str:
    return '"' + text + '"'


_JSON_RENDERERS: Dict[VariantType, Callable[[Variant], str]] = {
    VariantType.NULL: lambda v: "null",
    VariantType.BOOLEAN: lambda v: "true" if v.get_boolean() else "false",
    VariantType.STRING: lambda v: json.dumps(v.get_string(), ensure_ascii=False),
    VariantType.BYTE: lambda v: str(v.get_long()),
    VariantType.SHORT: lambda v: str(v.get_long()),
    VariantType.INT: lambda v: str(v.get_long()),
    VariantType.LONG: lambda v: str(v.get_long()),
    VariantType.FLOAT: lambda v: _float_json(v.get_float()),
    VariantType.DOUBLE: lambda v: _double_json(v.get_double()),
    VariantType.DECIMAL4: lambda v: format(v.get_decimal(), "f"),
    VariantType.DECIMAL8: lambda v: format(v.get_decimal(), "f"),
    VariantType.DECIMAL16: lambda v: format(v.get_decimal(), "f"),
    VariantType.DATE: lambda v: _quoted(_date(v.get_long())),
    VariantType.TIMESTAMP_TZ: lambda v: _quoted(_date_time(v.get_long() * 1000) + "Z"),
    VariantType.TIMESTAMP_NTZ: lambda v: _quoted(_date_time(v.get_long() * 1000)),
    VariantType.TIMESTAMP_NANOS_TZ: lambda v: _quoted(_date_time(v.get_long()) + "Z"),
    VariantType.TIMESTAMP_NANOS_NTZ: lambda v: _quoted(_date_time(v.get_long())),
    VariantType.TIME: lambda v: _quoted(_time_of_day(v.get_long())),
    VariantType.BINARY: lambda v: _quoted(base64.b64encode(v.get_binary()).decode("ascii")),
    VariantType.UUID: lambda v: _quoted(str(v.get_uuid())),
}


def from_bytes(value: bytes, metadata: bytes) -> Variant:
    """The Variant of ``value`` and ``metadata``.

    :param value: the value bytes.
    :param metadata: the metadata bytes.
    :returns: the Variant.
    """
    return Variant(value, metadata)


def to_json_string(variant: Variant) -> str:
    """``variant`` as JSON text (:meth:`Variant.to_json`).

    :param variant: the Variant.
    :returns: the JSON.
    """
    return variant.to_json()


def parse_json(json_str: str) -> Variant:
    """The Variant of JSON text: integers in the narrowest of 8/16/32/64 bits (wider ones as a
    decimal of scale 0), fractional numbers as doubles, objects with their keys sorted.

    :param json_str: the JSON.
    :returns: the Variant.
    :raises ValueError: for text that is not JSON.
    """
    builder = VariantBuilder()
    builder._write_json(json.loads(json_str))
    builder._root_written = True
    return builder.build()


# -- writing ------------------------------------------------------------------------------------


class _Container:
    __slots__ = ("start", "is_object", "fields", "offsets", "key", "key_id")

    def __init__(self, start: int, is_object: bool) -> None:
        self.start = start
        self.is_object = is_object
        self.fields: List[Tuple[str, int, int]] = []  # (key, key id, offset) of an object
        self.offsets: List[int] = []  # of an array
        self.key: Optional[str] = None  # an object's key waiting for its value
        self.key_id = 0


class VariantBuilder:
    """Writes one Variant value, streaming: ``append_*`` writes a scalar and
    ``start_object``/``append_key``/``end_object`` and ``start_array``/``end_array`` a container.
    Each value goes where the writer is: the root, the next array element, or the value of the
    key just appended. :meth:`build` returns the Variant.

    :param size_limit: the most bytes the value (and the metadata) may take.
    """

    DEFAULT_SIZE_LIMIT = 16 * 1024 * 1024

    def __init__(self, size_limit: int = DEFAULT_SIZE_LIMIT) -> None:
        self.value = bytearray()
        self.dictionary: Dict[str, int] = {}
        self.dictionary_keys: List[bytes] = []
        self.size_limit = size_limit
        self._open: List[_Container] = []
        self._root_written = False

    def build(self) -> Variant:
        """The finished Variant.

        :returns: the Variant.
        :raises VariantError: when a container is still open or nothing was written.
        """
        if self._open:
            raise VariantError("cannot build with an open container")
        if not self._root_written:
            raise VariantError("cannot build an empty variant")
        return Variant(bytes(self.value), self._metadata())

    # -- scalars --

    def append_null(self) -> None:
        """Write a null."""
        self._slot()
        self._put(bytes((_primitive_header(NULL),)))

    def append_boolean(self, b: bool) -> None:
        """Write a boolean.

        :param b: the value.
        """
        self._slot()
        self._put(bytes((_primitive_header(TRUE if b else FALSE),)))

    def append_byte(self, value: int) -> None:
        """Write an 8-bit integer.

        :param value: the value.
        :raises VariantError: when it does not fit.
        """
        self._slot()
        self._fixed(INT1, value, 1)

    def append_short(self, value: int) -> None:
        """Write a 16-bit integer.

        :param value: the value.
        :raises VariantError: when it does not fit.
        """
        self._slot()
        self._fixed(INT2, value, 2)

    def append_int(self, value: int) -> None:
        """Write a 32-bit integer.

        :param value: the value.
        :raises VariantError: when it does not fit.
        """
        self._slot()
        self._fixed(INT4, value, 4)

    def append_long(self, value: int) -> None:
        """Write a 64-bit integer.

        :param value: the value.
        :raises VariantError: when it does not fit.
        """
        self._slot()
        self._fixed(INT8, value, 8)

    def append_float(self, value: float) -> None:
        """Write a 32-bit float.

        :param value: the value.
        """
        self._slot()
        self._put(bytes((_primitive_header(FLOAT),)) + struct.pack("<f", value))

    def append_double(self, value: float) -> None:
        """Write a 64-bit double.

        :param value: the value.
        """
        self._slot()
        self._double(value)

    def append_decimal(self, unscaled: Any, scale: Optional[int] = None) -> None:
        """Write a decimal: a :class:`decimal.Decimal` (no ``scale``), or an unscaled integer
        (an int, or big-endian two's-complement bytes) and its ``scale``.

        :param unscaled: the value.
        :param scale: digits after the point, for an unscaled integer.
        :raises VariantError: for a missing or extra scale, a negative scale, more than 38
            digits, or a value of another type.
        """
        self._slot()
        if isinstance(unscaled, (bytes, bytearray)):
            if scale is None:
                raise VariantError("scale is required when appending a decimal from bytes")
            self._decimal_parts(int.from_bytes(bytes(unscaled), "big", signed=True), scale)
        elif isinstance(unscaled, decimal.Decimal):
            if scale is not None:
                raise VariantError("scale must not be given with a Decimal value")
            self._decimal(unscaled)
        elif isinstance(unscaled, int) and not isinstance(unscaled, bool):
            if scale is None:
                raise VariantError("scale is required when appending an unscaled integer")
            self._decimal_parts(unscaled, scale)
        else:
            raise VariantError("invalid append_decimal arguments")

    def append_string(self, s: str) -> None:
        """Write a string.

        :param s: the value.
        """
        self._slot()
        self._string(s)

    def append_binary(self, data: bytes) -> None:
        """Write bytes.

        :param data: the value.
        """
        self._slot()
        data = bytes(data)
        self._put(bytes((_primitive_header(BINARY),)) + len(data).to_bytes(U32_SIZE, "little") + data)

    def append_uuid(self, value: Any) -> None:
        """Write a UUID.

        :param value: a :class:`uuid.UUID`, or its 16 bytes (big-endian).
        :raises VariantError: for anything but 16 bytes.
        """
        self._slot()
        raw = value.bytes if isinstance(value, uuid_mod.UUID) else bytes(value)
        if len(raw) != UUID_SIZE:
            raise VariantError("uuid must be 16 bytes")
        self._put(bytes((_primitive_header(UUID),)) + raw)

    def append_date(self, days_since_epoch: int) -> None:
        """Write a date.

        :param days_since_epoch: days since 1970-01-01.
        """
        self._slot()
        self._fixed(DATE, days_since_epoch, 4)

    def append_time(self, micros_since_midnight: int) -> None:
        """Write a time of day (no zone).

        :param micros_since_midnight: microseconds since midnight.
        """
        self._slot()
        self._fixed(TIME, micros_since_midnight, 8)

    def append_timestamp_tz(self, micros: int) -> None:
        """Write a UTC timestamp.

        :param micros: microseconds since the epoch.
        """
        self._slot()
        self._fixed(TIMESTAMP, micros, 8)

    def append_timestamp_ntz(self, micros: int) -> None:
        """Write a timestamp without zone.

        :param micros: microseconds since 1970-01-01T00:00.
        """
        self._slot()
        self._fixed(TIMESTAMP_NTZ, micros, 8)

    def append_timestamp_nanos_tz(self, nanos: int) -> None:
        """Write a UTC timestamp with nanoseconds.

        :param nanos: nanoseconds since the epoch.
        """
        self._slot()
        self._fixed(TIMESTAMP_NANOS, nanos, 8)

    def append_timestamp_nanos_ntz(self, nanos: int) -> None:
        """Write a timestamp without zone, with nanoseconds.

        :param nanos: nanoseconds since 1970-01-01T00:00.
        """
        self._slot()
        self._fixed(TIMESTAMP_NANOS_NTZ, nanos, 8)

    # -- containers --

    def start_object(self) -> None:
        """Open an object: then alternate :meth:`append_key` and a value, and close it with
        :meth:`end_object`."""
        self._slot()
        self._open.append(_Container(len(self.value), True))

    def append_key(self, key: str) -> None:
        """Name the next value of the open object.

        :param key: the field's name.
        :raises VariantError: outside an object, or twice without a value between.
        """
        if not self._open or not self._open[-1].is_object:
            raise VariantError("append_key called outside of an object")
        frame = self._open[-1]
        if frame.key is not None:
            raise VariantError("append_key called twice without an intervening value")
        frame.key, frame.key_id = key, self._key_id(key)

    def end_object(self) -> None:
        """Close the open object.

        :raises VariantError: when no object is open, or a key has no value.
        """
        if not self._open or not self._open[-1].is_object:
            raise VariantError("end_object without a matching start_object")
        frame = self._open.pop()
        if frame.key is not None:
            raise VariantError("end_object with a dangling append_key (no value)")
        self._close_object(frame.start, frame.fields)

    def start_array(self) -> None:
        """Open an array: then write its elements, and close it with :meth:`end_array`."""
        self._slot()
        self._open.append(_Container(len(self.value), False))

    def end_array(self) -> None:
        """Close the open array.

        :raises VariantError: when no array is open.
        """
        if not self._open or self._open[-1].is_object:
            raise VariantError("end_array without a matching start_array")
        frame = self._open.pop()
        self._close_array(frame.start, frame.offsets)

    # -- internals --

    def _slot(self) -> None:
        """Record where the value about to be written goes."""
        if not self._open:
            if self._root_written:
                raise VariantError("cannot append multiple root values")
            self._root_written = True
            return
        frame = self._open[-1]
        offset = len(self.value) - frame.start
        if frame.is_object:
            if frame.key is None:
                raise VariantError("a value in an object must follow append_key")
            frame.fields.append((frame.key, frame.key_id, offset))
            frame.key = None
        else:
            frame.offsets.append(offset)

    def _room(self, extra: int) -> None:
        if len(self.value) + extra > self.size_limit:
            raise VariantError("variant size limit exceeded")

    def _put(self, data: bytes) -> None:
        self._room(len(data))
        self.value.extend(data)

    def _key_id(self, key: str) -> int:
        found = self.dictionary.get(key)
        if found is None:
            found = self.dictionary[key] = len(self.dictionary_keys)
            self.dictionary_keys.append(key.encode("utf-8"))
        return found

    def _fixed(self, type_id: int, value: int, size: int) -> None:
        try:
            payload = int(value).to_bytes(size, "little", signed=True)
        except OverflowError:
            raise VariantError("integer value out of range for a %d-byte width" % size)
        self._put(bytes((_primitive_header(type_id),)) + payload)

    def _double(self, value: float) -> None:
        self._put(bytes((_primitive_header(DOUBLE),)) + struct.pack("<d", value))

    def _string(self, s: str) -> None:
        text = s.encode("utf-8")
        if len(text) > MAX_SHORT_STR_SIZE:
            self._put(bytes((_primitive_header(LONG_STR),)) + len(text).to_bytes(U32_SIZE, "little") + text)
        else:
            self._put(bytes(((len(text) << BASIC_TYPE_BITS) | SHORT_STR,)) + text)

    def _integer(self, value: int) -> bool:
        """Write ``value`` in the narrowest integer type; False when it needs more than 64 bits."""
        for type_id, size in ((INT1, 1), (INT2, 2), (INT4, 4), (INT8, 8)):
            bound = 1 << (8 * size - 1)
            if -bound <= value < bound:
                self._fixed(type_id, value, size)
                return True
        return False

    def _decimal(self, d: decimal.Decimal) -> None:
        sign, digits, exponent = d.as_tuple()
        if not isinstance(exponent, int):
            raise VariantError("cannot encode non-finite decimal")
        if len(digits) > MAX_DECIMAL16_PRECISION:
            raise VariantError("decimal exceeds maximum precision (38)")
        unscaled = int("".join(map(str, digits)) or "0")
        self._decimal_parts(-unscaled if sign else unscaled, -exponent)

    def _decimal_parts(self, unscaled: int, scale: int) -> None:
        if scale < 0:
            raise VariantError("cannot encode decimal with negative scale")
        if unscaled.bit_length() > 128:
            raise VariantError("decimal exceeds maximum precision (38)")
        digits = len(str(abs(unscaled)))
        for type_id, (size, precision) in _DECIMAL_WIDTHS.items():
            if scale <= precision and digits <= precision:
                self._put(bytes((_primitive_header(type_id), scale)) + unscaled.to_bytes(size, "little", signed=True))
                return
        raise VariantError("decimal exceeds maximum precision (38)")

    def _insert_header(self, start: int, header: bytes) -> None:
        self._room(len(header))
        self.value[start:start] = header

    def _close_array(self, start: int, offsets: List[int]) -> None:
        size = len(self.value) - start
        large = len(offsets) > U8_MAX
        offset_size = _width(size)
        header = bytearray(((int(large) << (BASIC_TYPE_BITS + 2)) | ((offset_size - 1) << BASIC_TYPE_BITS)
                            | ARRAY,))
        header += len(offsets).to_bytes(U32_SIZE if large else 1, "little")
        for offset in offsets + [size]:
            header += offset.to_bytes(offset_size, "little")
        self._insert_header(start, bytes(header))

    def _close_object(self, start: int, fields: List[Tuple[str, int, int]]) -> None:
        fields = sorted(fields, key=lambda field: field[0])
        size = len(self.value) - start
        large = len(fields) > U8_MAX
        id_size = _width(max((field[1] for field in fields), default=0))
        offset_size = _width(size)
        header = bytearray(((int(large) << (BASIC_TYPE_BITS + 4)) | ((id_size - 1) << (BASIC_TYPE_BITS + 2))
                            | ((offset_size - 1) << BASIC_TYPE_BITS) | OBJECT,))
        header += len(fields).to_bytes(U32_SIZE if large else 1, "little")
        for _, key_id, _ in fields:
            header += key_id.to_bytes(id_size, "little")
        for offset in [field[2] for field in fields] + [size]:
            header += offset.to_bytes(offset_size, "little")
        self._insert_header(start, bytes(header))

    def _metadata(self) -> bytes:
        total = sum(len(key) for key in self.dictionary_keys)
        count = len(self.dictionary_keys)
        if max(total, count) > self.size_limit:
            raise VariantError("variant size limit exceeded")
        offset_size = _width(max(total, count))
        if 1 + offset_size + (count + 1) * offset_size + total > self.size_limit:
            raise VariantError("variant size limit exceeded")
        out = bytearray((VERSION | ((offset_size - 1) << 6),))
        out += count.to_bytes(offset_size, "little")
        position = 0
        for key in self.dictionary_keys:
            out += position.to_bytes(offset_size, "little")
            position += len(key)
        out += position.to_bytes(offset_size, "little")
        for key in self.dictionary_keys:
            out += key
        return bytes(out)

    def _write_json(self, parsed: Any) -> None:
        """Write a value as parsed by :func:`json.loads` (containers recursively)."""
        if isinstance(parsed, dict):
            start, fields = len(self.value), []
            for key, item in parsed.items():
                fields.append((key, self._key_id(key), len(self.value) - start))
                self._write_json(item)
            self._close_object(start, fields)
        elif isinstance(parsed, list):
            start, offsets = len(self.value), []
            for item in parsed:
                offsets.append(len(self.value) - start)
                self._write_json(item)
            self._close_array(start, offsets)
        elif isinstance(parsed, str):
            self._string(parsed)
        elif isinstance(parsed, bool):
            self._put(bytes((_primitive_header(TRUE if parsed else FALSE),)))
        elif isinstance(parsed, int):
            if not self._integer(parsed):
                self._decimal(decimal.Decimal(parsed))
        elif isinstance(parsed, float):
            self._double(parsed)
        elif isinstance(parsed, decimal.Decimal):
            self._decimal(parsed)
        elif parsed is None:
            self._put(bytes((_primitive_header(NULL),)))
        else:
            raise VariantError("unsupported JSON value: %r" % type(parsed))


def _primitive_header(type_id: int) -> int:
    return (type_id << BASIC_TYPE_BITS) | PRIMITIVE
