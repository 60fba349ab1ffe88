"""The manylinux wheel from scripts/build-wheel.sh: tagged honestly, self-contained, and working
in a fresh virtualenv where no librdkafka outside the wheel can be loaded."""
from __future__ import annotations

import json
import os
import platform
import re
import sys
from typing import Any, Dict

from dist_tools import SMOKE, Dist, WheelVenv, dynamic_tags, pkg_config

# The libraries librdkafka is built with (scripts/install-librdkafka.sh) that the manylinux
# policy does not provide, so the wheel must carry them.
BUNDLED = ("librdkafka", "libssl", "libcrypto", "libsasl2", "libzstd", "liblz4")


def smoke(venv: WheelVenv, target: str) -> Dict[str, Any]:
    proc = venv.run(str(SMOKE), target)
    assert proc.returncode == 0, f"wheel_smoke.py {target} failed:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def assert_bundled_copy_in_use(report: Dict[str, Any], venv: WheelVenv) -> None:
    libs_dir = str(venv.site_packages / "confluent_kafka.libs") + os.sep
    rdkafka = [p for p in report["mapped"] if "librdkafka" in os.path.basename(p)]
    assert len(rdkafka) == 1 and rdkafka[0].startswith(libs_dir), rdkafka
    # librdkafka's own dependencies come from the wheel too. (Python's _ssl/_hashlib may map
    # the system libcrypto beside it; they are the interpreter's, not ours.)
    for name in ("libssl", "libcrypto", "libsasl2", "libzstd", "liblz4"):
        ours = [p for p in report["mapped"]
                if p.startswith(libs_dir) and os.path.basename(p).startswith(name + "-")]
        assert len(ours) == 1, (name, report["mapped"])


def test_wheel_has_an_honest_manylinux_tag(dist: Dist) -> None:
    m = re.search(r"-manylinux_(\d+)_(\d+)_(\w+)\.whl$", dist.wheel.name)
    assert m, dist.wheel.name
    major, minor, arch = int(m.group(1)), int(m.group(2)), m.group(3)
    glibc = tuple(int(x) for x in platform.libc_ver()[1].split(".")[:2])
    # auditwheel picks the oldest policy the symbols allow; never newer than this glibc.
    assert (major, minor) <= glibc
    assert arch == platform.machine()
    py = "cp%d%d" % sys.version_info[:2]
    assert f"-{py}-{py}-" in dist.wheel.name


def test_wheel_bundles_librdkafka_and_its_libraries(dist: Dist) -> None:
    libs = [os.path.basename(n) for n in dist.wheel_names() if n.startswith("confluent_kafka.libs/")]
    for name in BUNDLED:
        assert any(lib.startswith(name + "-") for lib in libs), (name, libs)
    # No source and no second copy of the module.
    names = dist.wheel_names()
    assert not [n for n in names if n.endswith((".c", ".h"))]
    assert len([n for n in names if re.match(r"confluent_kafka/cimpl\..*\.so$", n)]) == 1
    assert "confluent_kafka/cimpl.pyi" in names and "confluent_kafka/py.typed" in names


def test_installed_module_links_only_to_the_bundled_librdkafka(wheel_venv: WheelVenv) -> None:
    (module,) = (wheel_venv.site_packages / "confluent_kafka").glob("cimpl.*.so")
    tags = dynamic_tags(str(module))
    # The build-time rpath to pkg-config's libdir is gone; only the wheel's own directory is left.
    assert tags["DT_RPATH"] + tags["DT_RUNPATH"] == ["$ORIGIN/../confluent_kafka.libs"]
    rdkafka = [n for n in tags["DT_NEEDED"] if n.startswith("librdkafka")]
    assert len(rdkafka) == 1 and rdkafka[0] != "librdkafka.so.1", tags["DT_NEEDED"]
    assert (wheel_venv.site_packages / "confluent_kafka.libs" / rdkafka[0]).is_file()


def test_wheel_round_trip_on_mock_cluster_without_system_librdkafka(
        wheel_venv: WheelVenv, hide_system_librdkafka: bool) -> None:
    from confluent_kafka import __version__

    report = smoke(wheel_venv, "mock")
    assert report["module"].startswith(str(wheel_venv.site_packages))
    assert report["version"] == __version__
    assert report["libversion"][0] == pkg_config("--modversion")
    assert report["system_librdkafka"].startswith("not loadable"), report["system_librdkafka"]
    assert report["round_trip"] == {"undelivered": 0, "delivery_errors": [], "received": 200,
                                    "intact": True}
    assert_bundled_copy_in_use(report, wheel_venv)


def test_wheel_round_trip_on_tansu_without_system_librdkafka(
        wheel_venv: WheelVenv, hide_system_librdkafka: bool, kafka_bootstrap: str) -> None:
    report = smoke(wheel_venv, kafka_bootstrap)
    assert report["system_librdkafka"].startswith("not loadable"), report["system_librdkafka"]
    assert report["round_trip"] == {"undelivered": 0, "delivery_errors": [], "received": 200,
                                    "intact": True}
    assert_bundled_copy_in_use(report, wheel_venv)


def test_bundled_copy_wins_over_a_system_librdkafka(wheel_venv: WheelVenv) -> None:
    # Nothing hidden: a librdkafka on the loader path (ld.so.cache) must still not be used.
    proc = wheel_venv.run(str(SMOKE), "mock", hide_system_librdkafka=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["round_trip"]["intact"] is True
    assert_bundled_copy_in_use(report, wheel_venv)
