"""A real Schema Registry (Karapace) over HTTP, on the tansu broker, for the tiers that need one.

The ``registry_url`` and ``karapace`` fixtures are registered by tests/conftest.py, so
tests/registry and tests/programs share one Karapace per session. Karapace's source is at
``../shared/vendor/karapace`` from the repository root (where CI has it; ``KARAPACE_HOME`` names
another place); without it the tests that ask for a registry skip, saying so. Each session starts
one Karapace on a free loopback port with its own schemas topic and group, and stops it at the
end.

Karapace reads and writes its schemas topic with ``confluent_kafka`` (Producer, Consumer,
AdminClient): it is a real program written for upstream's API, so by default it runs over THIS
package (``src/`` first on its ``PYTHONPATH``), and every registry test exercises our client
under it. Karapace needs Python >= 3.12; when its interpreter is not the one running the tests,
the extension is built in place for it once (scripts/build-ext.sh, a few seconds; later sessions
reuse it). ``KARAPACE_CONFLUENT_KAFKA=upstream`` runs it over the upstream wheel of its own
virtualenv instead.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Dict, Iterator, Optional

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
# KARAPACE_HOME points elsewhere (e.g. from a git worktree, whose parent has no shared/).
KARAPACE = pathlib.Path(os.environ.get("KARAPACE_HOME") or ROOT.parent / "shared" / "vendor" / "karapace")
START = KARAPACE / "start.sh"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def karapace_venv() -> pathlib.Path:
    """Where start.sh keeps (or makes) Karapace's virtualenv."""
    if os.environ.get("KARAPACE_VENV"):
        return pathlib.Path(os.environ["KARAPACE_VENV"])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(cache) / "karapace-venv"


def _at_least_312(python: str) -> bool:
    try:
        return subprocess.run([python, "-c", "import sys; assert sys.version_info >= (3, 12)"],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _karapace_python() -> Optional[str]:
    """The interpreter Karapace will run on: its virtualenv's, or (before start.sh makes the
    virtualenv) the one start.sh would choose, preferring the interpreter running the tests."""
    venv = karapace_venv()
    if (venv / ".karapace-ok").exists():
        return str(venv / "bin" / "python")
    if os.environ.get("PYTHON"):
        return os.environ["PYTHON"]
    candidates = [sys.executable, "python3.12", "python3.13"]
    for pattern in ("3.12*", "3.13*"):
        candidates += [str(p) for p in sorted((pathlib.Path.home() / ".pyenv" / "versions").glob(pattern + "/bin/python"))]
    for candidate in candidates:
        if _at_least_312(candidate):
            return candidate
    return None


def build_for(python: str) -> None:
    """Build the extension in place (src/confluent_kafka/cimpl.<abi>.so) for ``python``, unless
    it is up to date. Karapace's virtualenv has no setuptools: the build borrows this
    interpreter's (pure Python) through a directory holding only it and its helpers."""
    try:
        import setuptools

        site: Optional[str] = os.path.dirname(os.path.dirname(setuptools.__file__))
    except ImportError:  # then the target interpreter must have its own
        site = None
    with tempfile.TemporaryDirectory() as borrowed:
        for name in ("setuptools", "_distutils_hack", "pkg_resources"):
            if site is not None and os.path.isdir(os.path.join(site, name)):
                os.symlink(os.path.join(site, name), os.path.join(borrowed, name))
        env = dict(os.environ, PYTHONPATH=borrowed)
        env.setdefault("PKG_CONFIG_PATH", "/usr/local/lib/pkgconfig")
        built = subprocess.run(["bash", str(ROOT / "scripts" / "build-ext.sh"), python], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=900)
    if built.returncode != 0:
        raise RuntimeError(f"building confluent_kafka for Karapace's {python} failed:\n{built.stderr[-3000:]}")


class Karapace:
    """One Karapace process started by start.sh: its URL, the confluent_kafka it imports, and
    stop/start/restart (a restart replays the schemas topic through Karapace's consumer)."""

    def __init__(self, bootstrap: str, run_dir: pathlib.Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.run_dir = run_dir
        tag = uuid.uuid4().hex[:8]
        self.env: Dict[str, str] = dict(os.environ, KARAPACE_RUN=str(run_dir), KARAPACE_TOPIC_NAME=f"_schemas-{tag}",
                                        KARAPACE_GROUP_ID=f"schema-registry-{tag}", KARAPACE_READY_TIMEOUT="180")
        self.bootstrap = bootstrap
        #: The directory put first on Karapace's PYTHONPATH (our src/), or None for upstream's wheel.
        self.package_dir: Optional[pathlib.Path] = None
        self.python: Optional[str] = None
        if os.environ.get("KARAPACE_CONFLUENT_KAFKA", "ours") != "upstream":
            self.python = _karapace_python()
            if self.python is not None:
                build_for(self.python)
                self.package_dir = SRC
                self.env["PYTHON"] = self.python
                self.env["PYTHONPATH"] = os.pathsep.join(
                    [str(SRC)] + ([self.env["PYTHONPATH"]] if self.env.get("PYTHONPATH") else []))

    @property
    def pid(self) -> int:
        """The process id of the running Karapace."""
        return int((self.run_dir / f"karapace-{self.port}.pid").read_text().strip())

    @property
    def log(self) -> pathlib.Path:
        return self.run_dir / f"karapace-{self.port}.log"

    def start(self) -> None:
        """Start Karapace and wait until it is ready and primary.

        :raises RuntimeError: when it does not come up (with start.sh's output and the log's tail).
        """
        started = subprocess.run(["bash", str(START), self.bootstrap, str(self.port)], env=self.env,
                                 capture_output=True, text=True, timeout=600)
        if started.returncode != 0:
            tail = self.log.read_text()[-3000:] if self.log.exists() else ""
            self.stop()
            raise RuntimeError(f"Karapace did not start:\n{started.stderr[-3000:]}\n{tail}")

    def stop(self) -> None:
        """Stop Karapace (start.sh stop: SIGTERM to the recorded pid)."""
        subprocess.run(["bash", str(START), "stop", str(self.port)], env=self.env, capture_output=True, timeout=60)

    def restart(self) -> None:
        """Stop Karapace, wait for the process to go, and start it again on the same port,
        topic and group."""
        pid = self.pid
        self.stop()
        for _ in range(200):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        self.start()


@pytest.fixture(scope="session")
def karapace(kafka_bootstrap: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Karapace]:
    """The session's Karapace Schema Registry, running on ``kafka_bootstrap`` over this package."""
    if not START.exists():
        pytest.skip(f"Karapace is not at {KARAPACE} (../shared/vendor/karapace): the registry tier needs it")
    pytest.importorskip("fastavro", reason="the avro extra is not installed")
    if shutil.which("bash") is None:  # pragma: no cover - every supported platform has it
        pytest.skip("start.sh needs bash")
    server = Karapace(kafka_bootstrap, tmp_path_factory.mktemp("karapace"))
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def registry_url(karapace: Karapace) -> str:
    """The URL of a Karapace Schema Registry running on the session's tansu broker."""
    return karapace.url
