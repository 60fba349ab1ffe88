"""Read the ThreadSanitizer logs of scripts/tsan.sh: count the reports, and fail (exit 1) when one
has an access in the extension's own sources, printing it.

A data race report lists the two conflicting accesses, each with its stack, then where the
memory came from and which threads were involved. The function that made each access (the
innermost frame that is not one of TSan's interceptors) decides whose report it is: a race
between two of librdkafka's threads on memory librdkafka allocated during a call of ours names our
code in the allocation stack, and CPython's allocator called from our code names our code as a
caller, yet neither access is ours. For any other kind of report (use after free, lock-order
inversion, unsafe call in a signal handler...), a frame of ours anywhere in it makes it ours.

Usage: python scripts/tsan_reports.py LOG_DIR
"""

from __future__ import annotations

import pathlib
import re
import sys
from collections import Counter
from typing import List

OURS = "src/confluent_kafka/src/"
ACCESS = re.compile(r"^\s*(Previous )?(atomic )?(read|write) of size", re.IGNORECASE)


def reports_of(text: str) -> List[str]:
    """The reports of one log, each from its WARNING line to its SUMMARY line."""
    return re.findall(r"WARNING: ThreadSanitizer.*?(?:SUMMARY: ThreadSanitizer[^\n]*|\Z)", text, re.S)


def accesses(report: str) -> List[str]:
    """The stacks of the conflicting accesses of a data race report."""
    blocks, current = [], None
    for line in report.splitlines():
        if ACCESS.match(line):
            current = [line]
            blocks.append(current)
        elif current is not None and line.strip():
            current.append(line)
        else:
            current = None
    return ["\n".join(b) for b in blocks]


def accessor(block: str) -> str:
    """The frame that made an access: the innermost one that is not TSan's own interceptor."""
    for line in block.splitlines()[1:]:
        if line.strip().startswith("#") and "libsanitizer" not in line and "(libtsan.so" not in line:
            return line
    return ""


def is_ours(report: str) -> bool:
    if "data race" in report.splitlines()[0]:
        return any(OURS in accessor(block) for block in accesses(report))
    return OURS in report


def main() -> int:
    logs = pathlib.Path(sys.argv[1])
    kinds: Counter[str] = Counter()
    ours: List[str] = []
    for log in sorted(logs.iterdir()):
        for report in reports_of(log.read_text(errors="replace")):
            summary = report.strip().splitlines()[-1]
            kinds[summary.replace("SUMMARY: ThreadSanitizer: ", "")] += 1
            if is_ours(report):
                ours.append(report)
    for report in ours:
        print(report, file=sys.stderr)
    total = sum(kinds.values())
    print(f"tsan: {total} report(s) left after suppressions, {len(ours)} with an access made in {OURS}",
          file=sys.stderr)
    for summary, n in kinds.most_common():
        print(f"  {n:4d}  {summary}", file=sys.stderr)
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
