"""Sphinx configuration: MyST Markdown pages, autodoc API reference, the furo theme.

The build must stay free of warnings (``sphinx-build -W`` runs in the tests), so nothing here
reaches the network and every page present in docs/ ends up in a toctree (see
``_ext/kafka_docs.py``).
"""

from __future__ import annotations

import pathlib
import sys

DOCS = pathlib.Path(__file__).resolve().parent
# The package from the source tree (the extension is built in place by `make build`).
sys.path.insert(0, str(DOCS.parent / "src"))
sys.path.insert(0, str(DOCS / "_ext"))

import confluent_kafka  # noqa: E402

project = "confluent_kafka"
author = "The confluent_kafka authors"
copyright = "the confluent_kafka authors, Apache License 2.0"
release = confluent_kafka.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "kafka_docs",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
myst_heading_anchors = 3

# The C types carry their signature in __text_signature__ and their first docstring line.
autodoc_docstring_signature = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"

html_theme = "furo"
html_title = f"confluent_kafka {release}"
html_static_path: list[str] = []
pygments_style = "friendly"
pygments_dark_style = "monokai"

# Some docstrings use Google style ("Attributes:" sections); napoleon renders those.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True
