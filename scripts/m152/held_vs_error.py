#!/usr/bin/env python3
"""M152/M153: the period error against the turn's share, from `pegemm model
validate --held` reports (text): per out-of-sample run, order_handover's
held share measured and predicted, and the period error; then a least
squares line error = a + b (measured - predicted) and its r over the runs
whose names match the filter (default: plain runs under an epilogue delay,
no prefetch build, no mainloop delay).
   usage: held_vs_error.py [--all] REPORT.txt..."""
import re
import sys

import numpy as np

ROW = re.compile(r'^(\S+\.h5)\s+\[(out-of-sample|self-fit)\]')
PER = re.compile(r'tile_period\s+measured\s+\S+\s+predicted\s+\S+\s+([+-]\d+\.\d)%')
HELD = re.compile(r'order_handover measured (\d+)% predicted (\d+)%')


def rows(path):
    name = err = None
    with open(path) as f:
        for line in f:
            m = ROW.search(line)
            if m:
                name, err = (m.group(1) if m.group(2) == 'out-of-sample' else None), None
                continue
            m = PER.search(line)
            if m and name:
                err = float(m.group(1))
            m = HELD.search(line)
            if m and name and err is not None:
                yield name.split('/')[-1], err, int(m.group(1)) / 100, int(m.group(2)) / 100
                name = None


def plain_delay(name):
    return '_epi_' in name and '_pf' not in name and 'both' not in name and not re.search(r'epi_00000', name)


args = sys.argv[1:]
keep = plain_delay
if args[:1] == ['--all']:
    keep, args = (lambda n: True), args[1:]
if not args:
    sys.exit(__doc__)
for path in args:
    got = [r for r in rows(path) if keep(r[0])]
    if len(got) < 3:
        print('%s: %d runs' % (path, len(got)))
        continue
    err = np.array([r[1] for r in got])
    diff = np.array([r[2] - r[3] for r in got])
    b, a = np.polyfit(diff, err, 1)
    print('%s: %d runs, error = %+.1f%% %+.1f x (measured - predicted share), r = %.2f'
          % (path, len(got), a, b, np.corrcoef(diff, err)[0, 1]))
    for name, e, ms, ps in got:
        print('    %-34s %+5.1f%%  turn held %3.0f%% measured, %3.0f%% predicted' % (name, e, 100 * ms, 100 * ps))
