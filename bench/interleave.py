#!/usr/bin/env python3
"""Interleaved rounds of shell commands, timed at millisecond precision.

    python3 bench/interleave.py ROUNDS 'label::command' ['label::command' ...]

Each round runs every command once, in the order given, then `node -e 0`. For each label it
prints the medians of the wall time and of the CPU time (user + sys of the command's processes,
from getrusage) and the wall time's ratio to `node -e 0`'s. A command's stdout goes to
/tmp/interleave-LABEL.out (the last round's), so that two builds' answers can be compared with
`cmp`; its stderr is discarded. Standard library only.
"""
import resource
import statistics
import subprocess
import sys
import time


def main(argv):
    if len(argv) < 3 or not argv[1].isdigit():
        sys.exit(__doc__)
    rounds = int(argv[1])
    specs = [a.split('::', 1) for a in argv[2:]]
    if any(len(s) != 2 for s in specs):
        sys.exit("each command is 'label::shell command'")
    specs.append(['node0', 'node -e 0'])
    times = {label: [] for label, _ in specs}
    for _ in range(rounds):
        for label, command in specs:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            with open(f'/tmp/interleave-{label}.out', 'wb') as out:
                subprocess.run(command, shell=True, stdout=out, stderr=subprocess.DEVNULL, check=False)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[label].append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    node0 = statistics.median(w for w, _ in times['node0'])
    for label, samples in times.items():
        wall = statistics.median(w for w, _ in samples)
        cpu = statistics.median(c for _, c in samples)
        print(f'{label:16s} n={len(samples)} wall={wall * 1000:8.1f} ms cpu={cpu * 1000:8.1f} ms wall/node0={wall / node0:5.2f}')


if __name__ == '__main__':
    main(sys.argv)
