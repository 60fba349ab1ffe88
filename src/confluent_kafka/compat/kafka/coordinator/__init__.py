"""``kafka.coordinator``: only the assignor names, for ``partition_assignment_strategy``."""
