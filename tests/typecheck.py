"""Environment for running mypy on code that imports confluent_kafka, in any install layout."""
from __future__ import annotations

import os
import pathlib
from typing import Dict


def mypy_env(package_dir: pathlib.Path) -> Dict[str, str]:
    """os.environ plus MYPYPATH pointing at the source tree holding ``package_dir``.

    An installed package (a wheel in site-packages) is found by mypy on its own, and mypy
    refuses a site-packages directory on MYPYPATH, so then MYPYPATH is left alone.
    """
    env = dict(os.environ)
    parent = package_dir.parent
    if parent.name not in ("site-packages", "dist-packages"):
        env["MYPYPATH"] = str(parent)
    return env
