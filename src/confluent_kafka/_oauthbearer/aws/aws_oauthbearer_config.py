"""``sasl.oauthbearer.config`` for AWS IAM: what to ask STS ``GetWebIdentityToken`` for.

The value is a comma-separated list of ``key=value`` entries (librdkafka's list syntax: a
backslash escapes a comma inside a value):

=====================  ==========================================================  ==========
key                    meaning                                                     default
=====================  ==========================================================  ==========
``region``             AWS region of the STS endpoint (required)
``audience``           the token's ``aud`` claim, as the broker expects (required)
``duration_seconds``   token lifetime, 60 to 3600                                  300
``signing_algorithm``  ``ES384`` or ``RS256``                                      ``ES384``
``sts_endpoint``       another STS URL (FIPS, VPC endpoint)
``aws_debug``          ``console``: botocore's debug log to stderr; ``none``       ``none``
``tag_<name>``         a custom claim ``<name>`` in the token (at most 50)
=====================  ==========================================================  ==========

A repeated key keeps its last value. SASL extensions are not given here but in
``sasl.oauthbearer.extensions``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional

from .._kv import key_values

__all__ = [
    "CONFIG_KEY",
    "DEFAULT_SIGNING_ALGORITHM",
    "ALLOWED_SIGNING_ALGORITHMS",
    "MIN_DURATION_SECONDS",
    "MAX_DURATION_SECONDS",
    "DEFAULT_DURATION_SECONDS",
    "TAG_KEY_PREFIX",
    "MAX_TAGS",
    "AWS_DEBUG_NONE",
    "AWS_DEBUG_CONSOLE",
    "ALLOWED_AWS_DEBUG_VALUES",
    "AwsOAuthBearerConfig",
]

CONFIG_KEY: str = "sasl.oauthbearer.config"
DEFAULT_SIGNING_ALGORITHM: str = "ES384"
ALLOWED_SIGNING_ALGORITHMS = ("ES384", "RS256")
#: The token lifetimes STS accepts, in seconds.
MIN_DURATION_SECONDS: int = 60
MAX_DURATION_SECONDS: int = 3600
DEFAULT_DURATION_SECONDS: int = 300
TAG_KEY_PREFIX: str = "tag_"
#: STS takes at most this many tags per request.
MAX_TAGS: int = 50
AWS_DEBUG_NONE: str = "none"
AWS_DEBUG_CONSOLE: str = "console"
ALLOWED_AWS_DEBUG_VALUES = (AWS_DEBUG_NONE, AWS_DEBUG_CONSOLE)

# Keys whose value may not be empty (duration_seconds fails its integer check instead).
_NOT_EMPTY = ("region", "audience", "signing_algorithm", "sts_endpoint", "aws_debug")


@dataclass(frozen=True)
class AwsOAuthBearerConfig:
    """The checked contents of ``sasl.oauthbearer.config`` (see the module documentation),
    with the SASL extensions from ``sasl.oauthbearer.extensions``.

    :raises ValueError: a field is missing, empty, of the wrong type or out of range.
    """

    region: str
    audience: str
    signing_algorithm: str = DEFAULT_SIGNING_ALGORITHM
    duration_seconds: int = DEFAULT_DURATION_SECONDS
    sts_endpoint: Optional[str] = None
    aws_debug: str = AWS_DEBUG_NONE
    tags: Optional[Dict[str, str]] = None
    sasl_extensions: Optional[Dict[str, str]] = None

    def __post_init__(self) -> None:
        for name in ("region", "audience"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise ValueError(f"{CONFIG_KEY} {name!r} must not be empty.")
        if self.signing_algorithm not in ALLOWED_SIGNING_ALGORITHMS:
            raise ValueError(f"{CONFIG_KEY} 'signing_algorithm' must be 'ES384' or 'RS256'; "
                             f"got {self.signing_algorithm!r}.")
        seconds = self.duration_seconds
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise ValueError(f"{CONFIG_KEY} 'duration_seconds' must be an integer.")
        if not MIN_DURATION_SECONDS <= seconds <= MAX_DURATION_SECONDS:
            raise ValueError(f"{CONFIG_KEY} 'duration_seconds' must be between {MIN_DURATION_SECONDS} "
                             f"and {MAX_DURATION_SECONDS} inclusive; got {seconds}.")
        if self.sts_endpoint == "":
            raise ValueError(f"{CONFIG_KEY} 'sts_endpoint' must not be empty.")
        if self.aws_debug not in ALLOWED_AWS_DEBUG_VALUES:
            raise ValueError(f"{CONFIG_KEY} 'aws_debug' must be one of: none, console. "
                             f"Got {self.aws_debug!r}.")
        if self.tags is not None:
            if not isinstance(self.tags, dict):
                raise ValueError(f"{CONFIG_KEY} 'tags' must be a dict.")
            if len(self.tags) > MAX_TAGS:
                raise ValueError(f"{CONFIG_KEY} has {len(self.tags)} tags; AWS allows at most {MAX_TAGS}.")
        if self.sasl_extensions is not None and not isinstance(self.sasl_extensions, dict):
            raise ValueError("sasl_extensions, if set, must be a dict.")

    @classmethod
    def parse(cls, raw: str, sasl_extensions: Optional[Dict[str, str]] = None) -> "AwsOAuthBearerConfig":
        """Read the value of ``sasl.oauthbearer.config``.

        :param raw: the property value.
        :param sasl_extensions: the parsed ``sasl.oauthbearer.extensions``, kept as given.
        :returns: the checked configuration.
        :raises TypeError: ``raw`` is None.
        :raises ValueError: an unknown key, a malformed entry, or a value the fields refuse.
        """
        if raw is None:
            raise TypeError("raw must not be None")
        fields: Dict[str, object] = {}
        tags: Dict[str, str] = {}
        for key, value in key_values(raw, ",", CONFIG_KEY):
            if key in _NOT_EMPTY and not value:
                raise ValueError(f"{CONFIG_KEY} {key!r} must not be empty.")
            if key == "duration_seconds":
                try:
                    fields[key] = int(value)
                except ValueError as exc:
                    raise ValueError(f"{CONFIG_KEY} 'duration_seconds' must be an integer; "
                                     f"got {value!r}.") from exc
            elif key == "aws_debug":
                fields[key] = value.lower()
            elif key in _NOT_EMPTY:
                fields[key] = value
            elif key.startswith(TAG_KEY_PREFIX):
                name = key[len(TAG_KEY_PREFIX):]
                if not name:
                    raise ValueError(f"{CONFIG_KEY} tag key {key!r} has empty name.")
                tags[name] = value
            else:
                raise ValueError(f"Unknown key {key!r} in {CONFIG_KEY}.")
        for required in ("region", "audience"):
            if required not in fields:
                raise ValueError(f"{required!r} is required in {CONFIG_KEY}.")
        return cls(tags=tags or None, sasl_extensions=sasl_extensions, **fields)  # type: ignore[arg-type]
