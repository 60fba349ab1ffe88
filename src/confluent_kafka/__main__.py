"""``python -m confluent_kafka``: the command-line tool (see :mod:`confluent_kafka.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
