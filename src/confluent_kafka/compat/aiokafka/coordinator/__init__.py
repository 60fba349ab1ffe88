"""``aiokafka.coordinator`` of the aiokafka facade: only the assignor classes users name."""
