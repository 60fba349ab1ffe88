"""``kafka.coordinator.assignors.sticky``."""
