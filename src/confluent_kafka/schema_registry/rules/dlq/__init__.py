"""The ``DLQ`` rule action: a record whose rule failed goes to a dead-letter topic."""
