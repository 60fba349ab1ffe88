"""The package version, single-sourced here (setup reads it, version() reports it)."""
__version__ = "2.16.1"
