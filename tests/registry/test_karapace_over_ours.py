"""Karapace running over this package: it stores every schema, config and deletion in its
schemas topic through our Producer, finds and creates that topic through our AdminClient, and
rebuilds its state on start through our Consumer. These tests make it do each, then restart it
and check that what it replays from the topic is what it served before."""

from __future__ import annotations

import json
import os
import uuid
from typing import Any, Dict

import pytest

pytest.importorskip("fastavro", reason="the avro extra is not installed")

from confluent_kafka.schema_registry import Schema, SchemaRegistryClient, SchemaRegistryError  # noqa: E402

from registry_support import SRC, Karapace  # noqa: E402

pytestmark = pytest.mark.integration


def _record(*fields: str) -> Schema:
    return Schema(json.dumps({"type": "record", "name": "R", "namespace": "over.ours",
                              "fields": [{"name": f, "type": "string", "default": ""} for f in fields]}), "AVRO")


def _state(client: SchemaRegistryClient) -> Dict[str, Any]:
    """Everything Karapace serves about every subject, live and soft-deleted."""
    state: Dict[str, Any] = {"subjects": sorted(client.get_subjects()),
                             "with deleted": sorted(client.get_subjects(deleted=True)),
                             "global compatibility": client.get_compatibility()}
    for subject in state["with deleted"]:
        versions = client.get_versions(subject, deleted=True)
        state[subject] = {"versions": versions,
                          "ids": [client.get_version(subject, v, deleted=True).schema_id for v in versions]}
        try:
            state[subject]["compatibility"] = client.get_compatibility(subject)
        except SchemaRegistryError as exc:
            state[subject]["compatibility"] = exc.http_status_code
    return state


def test_karapace_imports_this_package(karapace: Karapace) -> None:
    if karapace.package_dir is None:
        pytest.skip("KARAPACE_CONFLUENT_KAFKA=upstream: Karapace runs over the upstream wheel")
    maps = _read_proc(f"/proc/{karapace.pid}/maps")
    loaded = {line.split()[-1] for line in maps.splitlines() if "cimpl" in line}
    assert loaded and all(path.startswith(str(SRC)) for path in loaded), loaded


def _read_proc(path: str) -> str:
    if not os.path.exists(path):
        pytest.skip("no /proc to read a process's mapped files from")
    with open(path) as f:
        return f.read()


def test_state_survives_a_restart(karapace: Karapace) -> None:
    """Register, soft- and hard-delete, set configs; a restarted Karapace replays the topic
    (including the tombstones of hard deletes and deleted configs) into the same state."""
    client = SchemaRegistryClient({"url": karapace.url})
    tag = uuid.uuid4().hex[:8]
    kept, soft, hard = f"ours-{tag}-kept", f"ours-{tag}-soft", f"ours-{tag}-hard"
    first = client.register_schema(kept, _record("a"))
    second = client.register_schema(kept, _record("a", "b"))
    assert client.lookup_schema(kept, _record("a", "b")).version == 2
    client.register_schema(soft, _record("s"))
    client.register_schema(hard, _record("h"))
    client.set_compatibility(kept, "FULL")
    client.set_compatibility(soft, "NONE")
    client.delete_config(soft)
    assert client.delete_subject(soft) == [1]
    client.delete_subject(hard)
    assert client.delete_subject(hard, permanent=True) == [1]
    client.set_compatibility(None, "BACKWARD")
    before = _state(client)
    assert before[kept] == {"versions": [1, 2], "ids": [first, second], "compatibility": "FULL"}
    assert soft in before["with deleted"] and soft not in before["subjects"]
    assert hard not in before["with deleted"]
    client.close()

    karapace.restart()

    client = SchemaRegistryClient({"url": karapace.url})
    assert _state(client) == before
    assert json.loads(client.get_schema(second).schema_str) == json.loads(_record("a", "b").schema_str)
    # Still primary and writing through our producer after the replay.
    assert client.register_schema(kept, _record("a", "b", "c")) > second
    assert client.get_versions(kept) == [1, 2, 3]
    client.close()
