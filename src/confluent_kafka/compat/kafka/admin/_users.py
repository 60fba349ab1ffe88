"""``kafka.admin``'s SASL/SCRAM credential types."""
from __future__ import annotations

import hashlib
import os
from enum import IntEnum
from typing import Any, Optional, Union

from confluent_kafka.compat.kafka.errors import IllegalArgumentError

__all__ = ["ScramMechanism", "UserScramCredentialDeletion", "UserScramCredentialUpsertion"]


class ScramMechanism(IntEnum):
    """A SCRAM mechanism, with the Kafka protocol's numbers."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2

    @property
    def hash_name(self) -> str:
        """:returns: the hashlib name of the mechanism's hash.

        :raises KeyError: for UNKNOWN.
        """
        return {ScramMechanism.SCRAM_SHA_256: "sha256", ScramMechanism.SCRAM_SHA_512: "sha512"}[self]


def _mechanism(value: Union[ScramMechanism, int, str]) -> ScramMechanism:
    if isinstance(value, ScramMechanism):
        return value
    if isinstance(value, str):
        return ScramMechanism[value.upper().replace("-", "_")]
    return ScramMechanism(value)


class UserScramCredentialDeletion:
    """Delete a user's credential for one mechanism (a :class:`ScramMechanism`, its number or
    its name such as ``'SCRAM-SHA-256'``)."""

    def __init__(self, user: str, mechanism: Union[ScramMechanism, int, str]) -> None:
        self.user = user
        self.mechanism = _mechanism(mechanism)

    def __repr__(self) -> str:
        return f"UserScramCredentialDeletion({self.user}, {self.mechanism.name})"


class UserScramCredentialUpsertion:
    """Create or replace a user's credential for one mechanism.

    ``salted_password`` is derived here with PBKDF2-HMAC (``iterations`` rounds, default 4096;
    ``salt``, default 24 random bytes), as kafka-python does. librdkafka derives the same value
    itself from the password, so the facade keeps the password (privately) to hand it over.

    :raises IllegalArgumentError: for the UNKNOWN mechanism.
    """

    DEFAULT_ITERATIONS = 4096

    def __init__(self, user: str, mechanism: Union[ScramMechanism, int, str], password: Union[bytes, str],
                 iterations: Optional[int] = None, salt: Optional[bytes] = None) -> None:
        mech = _mechanism(mechanism)
        if mech == ScramMechanism.UNKNOWN:
            raise IllegalArgumentError("the SCRAM mechanism cannot be UNKNOWN")
        self.user = user
        self.mechanism = mech
        self.iterations = iterations if iterations is not None else self.DEFAULT_ITERATIONS
        self.salt = salt if salt is not None else os.urandom(24)
        if isinstance(password, str):
            password = password.encode("utf-8")
        self._password: Any = password
        self.salted_password = hashlib.pbkdf2_hmac(mech.hash_name, password, self.salt, self.iterations)

    def __repr__(self) -> str:
        return f"UserScramCredentialUpsertion({self.user}, {self.mechanism.name}, iterations={self.iterations})"
