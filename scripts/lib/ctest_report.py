#!/usr/bin/env python3
"""Prints a digest of ctest's last run for the end of a log: its slowest tests, then the end of
every failed test's output.

CI keeps only the head and the tail of a long log; ctest --output-on-failure prints a failing
test's output where it fails, which in a run of 800 tests is the middle. This digest repeats, at
the end, the last lines of each failed test's output (from Testing/Temporary/LastTest.log) so the
reason for a red run is in the part that survives, and the slowest tests, which set the run's
length on a machine other than ours.

Usage: scripts/lib/ctest_report.py BUILD_DIR [LINES_PER_FAILED_TEST]
"""

import os
import re
import sys


def failed_tests(temp_dir):
    path = os.path.join(temp_dir, "LastTestsFailed.log")
    if not os.path.exists(path):
        return []
    with open(path, errors="replace") as f:
        return [line.strip().split(":", 1)[1] for line in f if ":" in line]


def outputs(temp_dir):
    """({test name: [output lines]}, {test name: seconds}) from LastTest.log."""
    path = os.path.join(temp_dir, "LastTest.log")
    result, seconds, name, lines, inside, timed = {}, {}, None, None, False, None
    if not os.path.exists(path):
        return result, seconds
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^\d+/\d+ Testing: (.+)$", line)
            t = re.match(r"^Test time = +([0-9.]+) sec", line)
            if t and timed:
                seconds[timed] = float(t.group(1))
            if m:
                name, lines, inside, timed = m.group(1), [], False, m.group(1)
            elif name and line == "Output:":
                inside = None  # the dashes line follows
            elif name and inside is None:
                inside = True
            elif name and inside and line == "<end of output>":
                result[name], name, inside = lines, None, False
            elif name and inside:
                lines.append(line)
    return result, seconds


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    temp_dir = os.path.join(sys.argv[1], "Testing", "Temporary")
    keep = int(sys.argv[2]) if len(sys.argv) == 3 else 25
    logs, seconds = outputs(temp_dir)
    slowest = sorted(seconds.items(), key=lambda kv: -kv[1])[:10]
    if slowest:
        print("==== the slowest tests ====")
        for name, s in slowest:
            print(f"{s:8.1f} s  {name}")
    failed = failed_tests(temp_dir)
    if not failed:
        return
    ran = [name for name in failed if name in logs]
    not_run = [name for name in failed if name not in logs]
    print(f"==== {len(ran)} test(s) failed, {len(not_run)} not run; the last {keep} lines of "
          "each failed test's output ====")
    for name in ran:
        print(f"---- {name} ({len(logs[name])} lines of output) ----")
        for line in logs[name][-keep:]:
            print(line[:400])
    if not_run:
        shown = ", ".join(not_run[:5]) + (", ..." if len(not_run) > 5 else "")
        print(f"---- not run (a fixture or a dependency failed): {shown}")


if __name__ == "__main__":
    main()
