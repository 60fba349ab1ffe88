"""cimpl.pyi matches the extension, and typed user code checks cleanly with mypy."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import pathlib
import subprocess
import sys
import textwrap
from typing import List, Set

import pytest

import confluent_kafka
from confluent_kafka import cimpl
from typecheck import mypy_env

PKG = pathlib.Path(confluent_kafka.__file__).parent
STUB = PKG / "cimpl.pyi"


def _stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text())


def _stub_toplevel() -> dict:
    names: dict = {}
    for node in _stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def test_py_typed_marker_present() -> None:
    assert (PKG / "py.typed").is_file()
    assert STUB.is_file()


def test_every_public_runtime_name_is_in_the_stub() -> None:
    stub = _stub_toplevel()
    public = {n for n in dir(cimpl) if not n.startswith("_")}
    missing = sorted(public - set(stub))
    assert not missing, f"names in cimpl but not in cimpl.pyi: {missing}"


def test_every_stub_name_exists_at_runtime() -> None:
    stub = {n for n in _stub_toplevel() if not n.startswith("_")}
    missing = sorted(n for n in stub if not hasattr(cimpl, n))
    assert not missing, f"names in cimpl.pyi but not in cimpl: {missing}"


def _class_members(node: ast.ClassDef) -> set:
    out = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            out.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out.add(item.target.id)
    return out


@pytest.mark.parametrize("cls", ["KafkaError", "Message", "TopicPartition", "Producer",
                                 "Consumer", "MockCluster"])
def test_class_members_match(cls: str) -> None:
    node = _stub_toplevel()[cls]
    stub_members = {m for m in _class_members(node) if not m.startswith("__")}
    runtime = getattr(cimpl, cls)
    runtime_members = {m for m in dir(runtime) if not m.startswith("__")}
    if cls == "KafkaError":
        # Error-code attributes: the stub must list every one the runtime has.
        codes = {m for m in runtime_members if isinstance(getattr(runtime, m), int)}
        assert codes <= stub_members, sorted(codes - stub_members)
    missing_in_stub = sorted(m for m in runtime_members - stub_members if not m.startswith("_")
                             or (cls == "KafkaError" and isinstance(getattr(runtime, m), int)))
    assert not missing_in_stub, f"{cls}: at runtime but not in the stub: {missing_in_stub}"
    missing_at_runtime = sorted(stub_members - runtime_members)
    assert not missing_at_runtime, f"{cls}: in the stub but not at runtime: {missing_at_runtime}"


def _stub_params(func: ast.FunctionDef) -> list:
    a = func.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    return [n for n in names if n != "self"]


@pytest.mark.parametrize("cls", ["Producer", "Consumer", "Message", "KafkaError", "MockCluster"])
def test_method_parameter_names_match_when_introspectable(cls: str) -> None:
    node = _stub_toplevel()[cls]
    runtime = getattr(cimpl, cls)
    checked = 0
    for item in node.body:
        if not isinstance(item, ast.FunctionDef) or item.name.startswith("__"):
            continue
        try:
            sig = inspect.signature(getattr(runtime, item.name))
        except (ValueError, TypeError):
            continue  # no __text_signature__: nothing to compare
        params = [p.name for p in sig.parameters.values()
                  if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        assert params == _stub_params(item), f"{cls}.{item.name}"
        checked += 1
    if checked == 0:
        pytest.skip(f"{cls} methods carry no introspectable signatures")


def test_function_parameter_names_match_when_introspectable() -> None:
    stub = _stub_toplevel()
    for name in ("murmur2", "consistent", "fnv1a", "version", "libversion"):
        try:
            sig = inspect.signature(getattr(cimpl, name))
        except (ValueError, TypeError):
            continue
        assert [p.name for p in sig.parameters.values()] == _stub_params(stub[name]), name


SAMPLE = textwrap.dedent(
    """
    from typing import List, Optional, Tuple
    from confluent_kafka import (Consumer, KafkaError, KafkaException, Message, Producer,
                                 TopicPartition, OFFSET_BEGINNING, murmur2, libversion)
    from confluent_kafka.admin import ClusterMetadata
    from confluent_kafka.testing import MockCluster

    def on_delivery(err: Optional[KafkaError], msg: Message) -> None:
        if err is not None:
            print(err.code(), err.name(), err.str(), err.retriable())
        value: Optional[bytes] = msg.value()
        ts: Tuple[int, int] = msg.timestamp()
        print(value, ts, msg.latency(), msg.headers())

    p = Producer({"bootstrap.servers": "127.0.0.1:1"}, **{"linger.ms": 5})
    p.produce("t", b"v", key="k", headers={"h": b"1"}, on_delivery=on_delivery)
    p.produce("t", value=memoryview(b"x"), headers=[("a", None)], timestamp=1)
    n: int = p.poll(0.1) + p.flush(1) + len(p) + p.produce_batch("t", [{"value": b"x"}])
    md: ClusterMetadata = p.list_topics(timeout=1)
    p.purge(in_queue=True)
    with Producer() as q:
        q.flush()
    c = Consumer({"group.id": "g"})
    c.assign([TopicPartition("t", 0, OFFSET_BEGINNING)])
    m = c.poll(1.0)
    if m is not None and m.error() is None:
        tp_list: List[TopicPartition] = c.committed([TopicPartition("t", 0)], timeout=1)
    lo, hi = c.get_watermark_offsets(TopicPartition("t", 0))
    meta: bytes = c.consumer_group_metadata()
    c.close()
    part: int = murmur2(b"k", 3)
    ver: Tuple[str, int] = libversion()
    try:
        pass
    except KafkaException as e:
        print(e.args[0])
    code: int = KafkaError._MSG_TIMED_OUT
    with MockCluster(3) as mc:
        s: str = mc.bootstrap_servers
        mc.create_topic("x", partitions=2)
    """
)

BAD_SAMPLE = textwrap.dedent(
    """
    from confluent_kafka import Producer, TopicPartition
    p = Producer()
    p.produce(123)
    tp = TopicPartition("t")
    tp.topic = "other"
    """
)


def _mypy(tmp_path: pathlib.Path, source: str) -> subprocess.CompletedProcess:
    pytest.importorskip("mypy")
    f = tmp_path / "sample.py"
    f.write_text(source)
    env = mypy_env(PKG)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(tmp_path / ".mypy_cache"), str(f)],
        capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path,
    )


def test_mypy_accepts_typical_usage(tmp_path: pathlib.Path) -> None:
    result = _mypy(tmp_path, SAMPLE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_rejects_misuse(tmp_path: pathlib.Path) -> None:
    result = _mypy(tmp_path, BAD_SAMPLE)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Argument 1 to "produce" of "Producer" has incompatible type "int"' in result.stdout
    assert "topic" in result.stdout and "read-only" in result.stdout


def _imported_third_party_modules() -> Set[str]:
    """The dotted name of every non-standard module the package's sources import (absolute
    imports, wherever they are: optional dependencies are imported inside functions too)."""
    names: Set[str] = set()
    for path in PKG.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    top = {"confluent_kafka", "__future__"} | set(sys.stdlib_module_names)
    return {n for n in names if n.split(".")[0] not in top}


def _missing_modules(names: Set[str]) -> List[str]:
    """For each of ``names`` that cannot be imported here (an optional dependency with no wheel
    for this interpreter, say), its shortest prefix that is not installed: ``google.cloud.kms``
    gives ``google.cloud`` when no google-cloud package is there but protobuf's ``google`` is."""
    missing: Set[str] = set()
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            try:
                found = importlib.util.find_spec(prefix) is not None
            except ImportError:  # a parent that is a module, not a package
                found = False
            if not found:
                missing.add(prefix)
                break
    return sorted(missing)


def test_third_party_imports_and_missing_ones_are_found() -> None:
    names = _imported_third_party_modules()
    assert {"tink", "celpy", "fastavro"} <= {n.split(".")[0] for n in names}
    assert not {n.split(".")[0] for n in names} & {"asyncio", "typing", "confluent_kafka"}
    assert _missing_modules({"pytest", "pytest.no_such_part.x", "no_such_top.y"}) == [
        "no_such_top", "pytest.no_such_part"]


# Subpackages built on an optional package's classes: without it they would subclass Any, which
# strict mode refuses, so they are not checked where it is missing (pyspark 4.3 needs 3.11).
SUBCLASSED = {"pyspark": "confluent_kafka.spark"}


def test_package_itself_is_mypy_strict_clean(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("mypy")
    # An optional dependency not installed for this interpreter would be an import-not-found
    # error: mypy treats exactly those modules as Any (ignore_missing_imports), as it does the
    # untyped ones, and checks everything else as usual.
    missing = _missing_modules(_imported_third_party_modules())
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n" + "".join(
        f"\n[mypy-{name},{name}.*]\nignore_missing_imports = True\n" for name in missing) + "".join(
        f"\n[mypy-{sub},{sub}.*]\nignore_errors = True\n" for name, sub in SUBCLASSED.items() if name in missing))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(config), "--no-incremental",
         "--cache-dir", str(tmp_path / ".mypy_cache"), "-p", "confluent_kafka"],
        capture_output=True, text=True, env=mypy_env(PKG),
        timeout=300, cwd=tmp_path,
    )
    assert result.returncode == 0, f"not installed here: {missing}\n" + result.stdout + result.stderr
