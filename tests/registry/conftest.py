"""The registry tier: a real Schema Registry (Karapace) over HTTP, on the tansu broker.

The ``registry_url`` fixture lives in tests/conftest.py (the Spark tier uses it too): each
session starts one Karapace on a free loopback port with its own schemas topic and group, and
stops it at the end. Karapace's source is at ``../shared/vendor/karapace`` from the repository
root (``KARAPACE_HOME`` names another place); without it the tier skips, saying so.
"""
