"""Converting between :class:`decimal.Decimal` and ``confluent.type.Decimal``: the value is the
unscaled integer as minimal big-endian two's-complement bytes (what Java's
``BigInteger.toByteArray()`` gives), the scale the number of fractional digits (negative for
values such as ``1E+2``), the precision the unscaled value's digit count."""

from __future__ import annotations

from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal

from . import decimal_pb2

__all__ = ["from_proto_decimal", "to_proto_decimal", "unscaled_to_bytes"]

# Exact arithmetic over the whole int32 scale range a Decimal message can carry.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def from_proto_decimal(msg: "decimal_pb2.Decimal") -> Decimal:
    """The :class:`~decimal.Decimal` a ``confluent.type.Decimal`` holds (its precision is not
    applied: writers set it to the unscaled value's own digit count).

    :param msg: the message.
    :returns: ``unscaled * 10 ** -scale``, exactly.
    """
    unscaled = int.from_bytes(msg.value, "big", signed=True) if msg.value else 0
    return Decimal(unscaled).scaleb(-int(msg.scale), context=_EXACT)


def to_proto_decimal(d: Decimal) -> "decimal_pb2.Decimal":
    """A ``confluent.type.Decimal`` holding ``d`` exactly, at ``d``'s own scale.

    :param d: a finite decimal.
    :returns: the message.
    :raises ValueError: for an infinite or NaN decimal.
    """
    sign, digits, exponent = d.as_tuple()
    if not isinstance(exponent, int):
        raise ValueError(f"cannot convert non-finite Decimal '{d}' to confluent.type.Decimal")
    unscaled = 0
    for digit in digits:
        unscaled = unscaled * 10 + digit
    return decimal_pb2.Decimal(value=unscaled_to_bytes(-unscaled if sign else unscaled),
                               precision=len(digits), scale=-exponent)


def unscaled_to_bytes(unscaled: int) -> bytes:
    """The minimal big-endian two's-complement bytes of an integer (at least one byte).

    :param unscaled: the integer.
    :returns: its bytes, as Java's ``BigInteger.toByteArray()`` writes them.
    """
    magnitude_bits = unscaled.bit_length() if unscaled >= 0 else (-unscaled - 1).bit_length()
    return unscaled.to_bytes(magnitude_bits // 8 + 1, "big", signed=True)
