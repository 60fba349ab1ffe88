"""The built sdist and wheel carry the version from src/confluent_kafka/_version.py."""
from __future__ import annotations

import email.parser
import tarfile
import zipfile

from confluent_kafka import __version__

from dist_tools import Dist


def test_wheel_and_sdist_metadata_carry_the_package_version(dist: Dist) -> None:
    assert dist.wheel.name.startswith(f"confluent_kafka-{__version__}-")
    assert dist.sdist.name == f"confluent_kafka-{__version__}.tar.gz"
    with zipfile.ZipFile(dist.wheel) as z:
        meta = z.read(f"confluent_kafka-{__version__}.dist-info/METADATA").decode()
    headers = email.parser.Parser().parsestr(meta, headersonly=True)
    assert headers["Name"] == "confluent-kafka" or headers["Name"] == "confluent_kafka"
    assert headers["Version"] == __version__
    assert headers["License-Expression"] == "Apache-2.0"
    assert headers["Requires-Python"] == ">=3.10"
    with tarfile.open(dist.sdist) as t:
        member = t.extractfile(f"confluent_kafka-{__version__}/PKG-INFO")
        assert member is not None
        pkg_info = member.read().decode()
    assert email.parser.Parser().parsestr(pkg_info, headersonly=True)["Version"] == __version__
