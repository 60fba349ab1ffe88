"""The registry tier: a real Schema Registry (Karapace) over HTTP, on the tansu broker.

Its ``registry_url`` fixture lives in tests/registry_support.py (registered by tests/conftest.py,
so that the tiers needing a registry share one Karapace per session); without Karapace's source
the tier skips, saying so.
"""
