"""CEL rule executors: ``CEL`` (whole messages) and ``CEL_FIELD`` (each tagged field)."""
