"""The ``JSONATA`` rule executor, for migration rules."""
