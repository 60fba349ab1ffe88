"""The site's own Sphinx directives (docs/_ext/kafka_docs.py), on a tiny project of their own:
a toctree entry naming a page that is not there yet is dropped without a warning, a page that
no toctree names is still listed, and a public module without an API page is documented."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("sphinx", reason="Sphinx is installed by the test extra on Python >= 3.11 only")
pytest.importorskip("myst_parser", reason="myst-parser is installed by the test extra on Python >= 3.11 only")

from docs_paths import DOCS, ROOT  # noqa: E402
from kafka_docs import NOT_API, is_api_module, modules_with_pages, public_modules  # noqa: E402

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "src")!r})
sys.path.insert(0, {str(DOCS / "_ext")!r})
extensions = ["myst_parser", "sphinx.ext.autodoc", "kafka_docs"]
source_suffix = {{".md": "markdown"}}
"""

INDEX = """
# Tiny

```{optional-toctree}
:caption: Guides

present
not-written-yet
```

```{optional-toctree}
:rest:

api
```
"""


def build(src: pathlib.Path, out: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(src), str(out)], capture_output=True, text=True, timeout=300)


def test_optional_toctree_and_undocumented_modules(tmp_path: pathlib.Path) -> None:
    src = tmp_path / "src"
    (src / "api").mkdir(parents=True)
    (src / "conf.py").write_text(CONF)
    (src / "index.md").write_text(INDEX)
    (src / "present.md").write_text("# Present\n")
    (src / "stray.md").write_text("# Stray page\n")
    (src / "api.md").write_text("# API\n\n```{toctree}\n:glob:\n\napi/*\n```\n\n```{undocumented-modules}\n```\n")
    # Pages for every public module but confluent_kafka.testing (and its plugin).
    others = [m for m in public_modules() if m not in ("confluent_kafka.admin",)
              and not m.startswith("confluent_kafka.testing")]
    (src / "api" / "others.md").write_text(textwrap.dedent("""\
        # Others

        ```{eval-rst}
        %s
        .. automodule:: confluent_kafka.admin
           :no-members:
        ```
        """) % "\n".join(f".. py:module:: {m}" for m in others))
    proc = build(src, tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr

    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert 'href="present.html"' in index
    assert "not-written-yet" not in index
    assert 'href="stray.html"' in index  # named by no toctree, listed by :rest:

    api = (tmp_path / "out" / "api.html").read_text(encoding="utf-8")
    # confluent_kafka.testing has no page here, so api.md documents it; the others have one.
    assert 'id="confluent_kafka.testing.MockCluster"' in api
    assert 'id="confluent_kafka.admin.AdminClient"' not in api


def test_the_site_has_an_api_page_for_each_known_module() -> None:
    covered = modules_with_pages(DOCS / "api")
    assert {"confluent_kafka", "confluent_kafka.admin", "confluent_kafka.testing",
            "confluent_kafka.testing.pytest_plugin", "confluent_kafka.error",
            "confluent_kafka.serialization"} <= covered
    assert {"confluent_kafka", "confluent_kafka.admin", "confluent_kafka.testing",
            "confluent_kafka.error", "confluent_kafka.serialization"} <= set(public_modules())
    assert "confluent_kafka.cimpl" not in public_modules()


def test_the_command_line_tool_is_not_a_python_api() -> None:
    # Its interface is the command line (docs/cli.md); its modules are implementation.
    modules = public_modules()
    assert not [m for m in modules if m == "confluent_kafka.cli" or m.startswith("confluent_kafka.cli.")]
    assert "confluent_kafka.cli" in NOT_API
    assert is_api_module("confluent_kafka.client")  # by dotted part, not by string prefix
    assert not is_api_module("confluent_kafka.cli.produce")
    assert not is_api_module("confluent_kafka.admin._model")
