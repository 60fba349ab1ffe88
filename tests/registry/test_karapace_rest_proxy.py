"""Karapace's REST proxy (a Confluent REST Proxy v2 work-alike written over upstream's
confluent_kafka: Producer, Consumer, AdminClient, TopicPartition, offsets, seeks, commits,
subscriptions) run twice, over this package and over the upstream wheel of Karapace's own
virtualenv, and driven through the same HTTP script: every answer must be the same.

It takes about a minute (two proxies, consumer group joins, long-poll timeouts), so it runs only
with ``KARAPACE_REST_PROXY=1`` (``make karapace-rest-proxy``), not in ``make test``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from registry_support import SRC, Karapace, _free_port, karapace_venv

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(os.environ.get("KARAPACE_REST_PROXY") != "1",
                                 reason="about a minute: KARAPACE_REST_PROXY=1 (make karapace-rest-proxy) runs it")]

JSON_V2 = "application/vnd.kafka.json.v2+json"
BINARY_V2 = "application/vnd.kafka.binary.v2+json"
AVRO_V2 = "application/vnd.kafka.avro.v2+json"


def http(method: str, url: str, body: Any = None, ctype: str = "application/vnd.kafka.v2+json",
         accept: Optional[str] = None) -> Tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", ctype)
    if accept:
        request.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw)
        except ValueError:
            return exc.code, raw.decode(errors="replace")


class Proxy:
    """One Karapace REST proxy process, over ``package_dir`` (None: Karapace's own wheel)."""

    def __init__(self, registry: Karapace, bootstrap: str, package_dir: Optional[str], log: Any) -> None:
        port = _free_port()
        env = dict(os.environ, KARAPACE_BOOTSTRAP_URI=bootstrap, KARAPACE_HOST="127.0.0.1", KARAPACE_PORT=str(port),
                   KARAPACE_ADVERTISED_HOSTNAME="127.0.0.1", KARAPACE_KARAPACE_REST="true",
                   KARAPACE_REGISTRY_HOST="127.0.0.1", KARAPACE_REGISTRY_PORT=str(registry.port),
                   KARAPACE_LOG_LEVEL="INFO", KARAPACE_CONSUMER_REQUEST_TIMEOUT_MS="3000")
        env.pop("PYTHONPATH", None)
        if package_dir is not None:
            env["PYTHONPATH"] = package_dir
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen([str(karapace_venv() / "bin" / "python"), "-m", "karapace.kafka_rest_apis"],
                                        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=str(registry.run_dir))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the REST proxy exited; see its log"
            try:
                if http("GET", self.url + "/topics")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise AssertionError("the REST proxy did not answer in 120 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(20)


def _records(url: str, accept: str, want: int, tries: int = 10, timeout_ms: int = 1000) -> List[Any]:
    got: List[Any] = []
    for _ in range(tries):
        status, answer = http("GET", f"{url}/records?timeout={timeout_ms}", accept=accept)
        if status != 200:
            return got + [[status, answer]]
        got += answer
        if len(got) >= want:
            break
    return got


def script(url: str, tag: str, bootstrap: str) -> Dict[str, Any]:
    """Produce (JSON, binary, Avro), then read with assigned, subscribed and Avro consumers,
    commit, seek to the beginning, an offset and the end, and the error answers between."""
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"rest-{tag}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for future in admin.create_topics([NewTopic(topic, 2, 1), NewTopic(topic + "-avro", 1, 1)]).values():
        future.result()
    time.sleep(1)
    seen: Dict[str, Any] = {
        "topic": http("GET", f"{url}/topics/{topic}"),
        "partitions": http("GET", f"{url}/topics/{topic}/partitions"),
        "partition 0": http("GET", f"{url}/topics/{topic}/partitions/0"),
        "produce json": http("POST", f"{url}/topics/{topic}", {"records": [
            {"value": {"n": i}, "key": f"k{i}", "partition": 0} for i in range(3)]}, JSON_V2),
        "produce binary": http("POST", f"{url}/topics/{topic}/partitions/1", {"records": [
            {"value": base64.b64encode(b"bin").decode()}]}, BINARY_V2),
        "produce missing topic": http("POST", f"{url}/topics/{topic}-nope", {"records": [{"value": 1}]}, JSON_V2),
        "produce bad partition": http("POST", f"{url}/topics/{topic}/partitions/9", {"records": [{"value": 1}]},
                                      JSON_V2),
        "produce avro": http("POST", f"{url}/topics/{topic}-avro", {
            "value_schema": json.dumps({"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]}),
            "records": [{"value": {"a": 5}}]}, AVRO_V2),
        "offsets 0": http("GET", f"{url}/topics/{topic}/partitions/0/offsets"),
        "offsets 1": http("GET", f"{url}/topics/{topic}/partitions/1/offsets"),
    }
    group = f"g-{tag}"
    one = f"{url}/consumers/{group}/instances/c1"
    p0 = {"partitions": [{"topic": topic, "partition": 0}]}
    seen.update({
        "new consumer": http("POST", f"{url}/consumers/{group}",
                             {"name": "c1", "format": "json", "auto.offset.reset": "earliest"}),
        "assign": http("POST", f"{one}/assignments", p0),
        "assignments": http("GET", f"{one}/assignments"),
        "records": _records(one, JSON_V2, 3),
        "commit": http("POST", f"{one}/offsets", {"offsets": [{"topic": topic, "partition": 0, "offset": 1}]}),
        "committed": http("GET", f"{one}/offsets", p0),
        "seek beginning": http("POST", f"{one}/positions/beginning", p0),
        "after beginning": _records(one, JSON_V2, 3, 1, 2000),
        "seek 2": http("POST", f"{one}/positions", {"offsets": [{"topic": topic, "partition": 0, "offset": 2}]}),
        "after seek 2": _records(one, JSON_V2, 1, 1, 2000),
        "seek end": http("POST", f"{one}/positions/end", p0),
        "after end": _records(one, JSON_V2, 3, 1),
        "seek unassigned": http("POST", f"{one}/positions", {"offsets": [{"topic": topic, "partition": 1, "offset": 0}]}),
        "delete": http("DELETE", one),
    })
    two = f"{url}/consumers/{group}/instances/c2"
    seen.update({
        "new binary": http("POST", f"{url}/consumers/{group}",
                           {"name": "c2", "format": "binary", "auto.offset.reset": "earliest"}),
        "subscribe": http("POST", f"{two}/subscription", {"topics": [topic]}),
        "subscription": http("GET", f"{two}/subscription"),
        "binary records": sorted(_records(two, BINARY_V2, 2, 8), key=lambda r: json.dumps(r, sort_keys=True)),
        "unsubscribe": http("DELETE", f"{two}/subscription"),
        "delete binary": http("DELETE", two),
    })
    three = f"{url}/consumers/{group}/instances/c3"
    seen.update({
        "new avro": http("POST", f"{url}/consumers/{group}",
                         {"name": "c3", "format": "avro", "auto.offset.reset": "earliest"}),
        "avro assign": http("POST", f"{three}/assignments", {"partitions": [{"topic": topic + "-avro", "partition": 0}]}),
        "avro records": _records(three, AVRO_V2, 1),
        "delete avro": http("DELETE", three),
        "delete again": http("DELETE", three),
        "brokers": http("GET", f"{url}/brokers"),
    })
    return seen


def _normal(seen: Dict[str, Any], tag: str) -> Dict[str, Any]:
    text = json.dumps(seen, sort_keys=True).replace(tag, "TAG")
    text = re.sub(r'"timestamp": \d+', '"timestamp": 0', text)
    text = re.sub(r'"value_schema_id": \d+', '"value_schema_id": 0', text)
    return dict(json.loads(text))


@pytest.fixture
def proxies(karapace: Karapace, kafka_bootstrap: str) -> Iterator[Dict[str, Proxy]]:
    if karapace.package_dir is None:
        pytest.skip("KARAPACE_CONFLUENT_KAFKA=upstream: there is no 'ours' side")
    made: Dict[str, Proxy] = {}
    with open(karapace.run_dir / "rest-proxies.log", "w") as log:
        try:
            made["ours"] = Proxy(karapace, kafka_bootstrap, str(SRC), log)
            made["upstream"] = Proxy(karapace, kafka_bootstrap, None, log)
            yield made
        finally:
            for proxy in made.values():
                proxy.stop()


def test_rest_proxy_over_ours_answers_as_over_upstream(proxies: Dict[str, Proxy], kafka_bootstrap: str) -> None:
    seen = {}
    for side, proxy in proxies.items():
        tag = f"{side}-{uuid.uuid4().hex[:6]}"
        seen[side] = _normal(script(proxy.url, tag, kafka_bootstrap), tag)
    ours, upstream = seen["ours"], seen["upstream"]
    assert ours["records"] and ours["produce json"][0] == 200 and ours["avro records"][0]["value"] == {"a": 5}
    differ = {key: {"ours": ours[key], "upstream": upstream.get(key)} for key in ours if ours[key] != upstream.get(key)}
    assert not differ, json.dumps(differ, indent=1)
