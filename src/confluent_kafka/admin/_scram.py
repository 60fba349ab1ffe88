"""SASL/SCRAM credentials: descriptions, and the alterations that upsert or delete them."""

from __future__ import annotations

from enum import Enum
from typing import List, Optional

from .. import cimpl

__all__ = ["ScramCredentialInfo", "ScramMechanism", "UserScramCredentialAlteration",
           "UserScramCredentialDeletion", "UserScramCredentialUpsertion", "UserScramCredentialsDescription"]


class ScramMechanism(Enum):
    """A SASL/SCRAM mechanism."""

    UNKNOWN = cimpl.SCRAM_MECHANISM_UNKNOWN  #: Not known.
    SCRAM_SHA_256 = cimpl.SCRAM_MECHANISM_SHA_256  #: SCRAM-SHA-256.
    SCRAM_SHA_512 = cimpl.SCRAM_MECHANISM_SHA_512  #: SCRAM-SHA-512.

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ScramMechanism):
            return NotImplemented
        return bool(self.value < other.value)


class ScramCredentialInfo:
    """The mechanism and iteration count of one SCRAM credential.

    :param mechanism: The :class:`ScramMechanism`.
    :param iterations: The iteration count (positive).
    """

    def __init__(self, mechanism: ScramMechanism, iterations: int) -> None:
        self.mechanism = mechanism
        self.iterations = iterations


class UserScramCredentialsDescription:
    """The SCRAM credentials of one user.

    :param user: The user name.
    :param scram_credential_infos: A :class:`ScramCredentialInfo` per credential.
    """

    def __init__(self, user: str, scram_credential_infos: List[ScramCredentialInfo]) -> None:
        self.user = user
        self.scram_credential_infos = scram_credential_infos


class UserScramCredentialAlteration:
    """The base of the alterations :meth:`AdminClient.alter_user_scram_credentials` takes.

    :param user: The user name.
    """

    def __init__(self, user: str) -> None:
        self.user = user


class UserScramCredentialUpsertion(UserScramCredentialAlteration):
    """Create or replace a user's credential for one mechanism.

    :param user: The user name.
    :param scram_credential_info: The mechanism and iteration count.
    :param password: The password (bytes), hashed with the salt before it is sent.
    :param salt: The salt (bytes), or None for a random one.
    """

    def __init__(self, user: str, scram_credential_info: ScramCredentialInfo, password: bytes,
                 salt: Optional[bytes] = None) -> None:
        super().__init__(user)
        self.scram_credential_info = scram_credential_info
        self.password = password
        self.salt = salt


class UserScramCredentialDeletion(UserScramCredentialAlteration):
    """Delete a user's credential for one mechanism.

    :param user: The user name.
    :param mechanism: The :class:`ScramMechanism`.
    """

    def __init__(self, user: str, mechanism: ScramMechanism) -> None:
        super().__init__(user)
        self.mechanism = mechanism
