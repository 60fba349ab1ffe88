"""KMS drivers by key URL prefix: ``register_kms_driver`` adds one (each driver module's
``register()`` does), ``get_kms_driver`` finds the one for a KEK's URL."""

from __future__ import annotations

import abc
import os
import threading
from typing import Any, Dict, List, Optional

from ...common.serde import RuleError

__all__ = ["KmsDriver", "register_kms_driver", "get_kms_driver", "reset_kms_drivers"]


class KmsDriver(metaclass=abc.ABCMeta):
    """Makes Tink KMS clients for the key URLs of one prefix (``local-kms://``, ``aws-kms://``...)."""

    @abc.abstractmethod
    def get_key_url_prefix(self) -> str:
        """The prefix of the key URLs this driver serves.

        :returns: e.g. ``aws-kms://``.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def new_kms_client(self, conf: Dict[str, Any], key_url: str) -> Any:
        """A ``tink.KmsClient`` for ``key_url``.

        :param conf: the rule configuration (and the KEK's KMS properties).
        :param key_url: the key URL.
        :returns: the client.
        """
        raise NotImplementedError()


_drivers: List[KmsDriver] = []
_drivers_lock = threading.Lock()


def register_kms_driver(driver: KmsDriver) -> None:
    """Add a driver (drivers registered first win for a URL several serve).

    :param driver: the driver.
    """
    with _drivers_lock:
        _drivers.append(driver)


def get_kms_driver(key_url: str) -> KmsDriver:
    """The first registered driver serving ``key_url``.

    :param key_url: e.g. ``local-kms://mykey``.
    :returns: the driver.
    :raises RuleError: when none does.
    """
    with _drivers_lock:
        for driver in _drivers:
            if key_url.startswith(driver.get_key_url_prefix()):
                return driver
    raise RuleError("no KMS driver found for key URL: " + key_url)


def reset_kms_drivers() -> None:
    """Forget every registered driver (for tests)."""
    with _drivers_lock:
        _drivers.clear()


class _BuiltInKmsDriver(KmsDriver):
    """What this package's drivers share: the prefix they serve (``_prefix``) and ``register()``."""

    _prefix = ""

    def get_key_url_prefix(self) -> str:
        return self._prefix

    @classmethod
    def register(cls) -> None:
        """Register the driver."""
        register_kms_driver(cls())


def _setting(conf: Dict[str, Any], key: str, env: str) -> Optional[str]:
    """A driver setting: ``conf[key]``, else the environment variable ``env`` (None without either)."""
    value = conf.get(key)
    return value if value is not None else os.getenv(env)


def _require(module: str, extra_hint: str) -> Any:
    """Import an optional SDK a driver needs, saying what to install when it is missing."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this KMS driver needs {extra_hint} (pip install 'confluent-kafka[rules]'): {exc}") from exc
