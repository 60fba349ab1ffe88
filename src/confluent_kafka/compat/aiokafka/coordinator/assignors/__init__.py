"""``aiokafka.coordinator.assignors`` of the aiokafka facade.

The classes name librdkafka's built-in assignors for ``partition_assignment_strategy``;
librdkafka runs the assignment itself, so a custom (Python) assignor is refused.
"""
