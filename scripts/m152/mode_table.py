#!/usr/bin/env python3
"""M153: the kernel's turn share beside the shape of its cycle, per run: K,
N, --epi-delay, tiles per SM, the mean mainloop and register work (its
epilogue_regs less the delay), and the epilogue-to-loop ratio (register
work plus delay over the loop: below 1 the loops run back to back and every
turn waits on the other loop).  The turn share is order_handover's measured
held share read from `pegemm model validate --held` reports.
   usage: mode_table.py HELD_REPORT.txt... -- RUN.h5..."""
import os
import re
import sys

import h5py
import numpy as np

HELD = re.compile(r'order_handover measured (\d+)%')


def shares(reports):
    out, name = {}, None
    for path in reports:
        with open(path) as f:
            for line in f:
                m = re.match(r'^(\S+\.h5)\s+\[', line)
                if m:
                    name = os.path.basename(m.group(1))
                m = HELD.search(line)
                if m and name:
                    out[(os.path.dirname(os.path.abspath(path)), name)] = int(m.group(1))
                    out.setdefault(name + '@' + path, int(m.group(1)))
    return out


def shape(path):
    with h5py.File(path, 'r') as f:
        k = f['kernel'].attrs
        delay, kk, nn = float(k['epi_delay']), int(f['problem'].attrs['K']), int(f['problem'].attrs['N'])
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        ph = t['phase'][:]
        d = (t['end'][:] - t['begin'][:]).astype(float)
        sms = len(np.unique(t['sm'][:]))
        loop = d[ph == names.index('mainloop')]
        regs = d[ph == names.index('epilogue_regs')] - delay
    return kk, nn, delay, len(loop) / sms, loop.mean(), regs.mean()


if '--' not in sys.argv:
    sys.exit(__doc__)
cut = sys.argv.index('--')
reports, runs = sys.argv[1:cut], sys.argv[cut + 1:]
held = {}
for r in reports:
    for key, v in shares([r]).items():
        if isinstance(key, str):
            held[(r, key.split('@')[0])] = v
print('%-34s %5s %5s %6s %6s %6s %6s %6s %6s' % ('run', 'K', 'N', 'delay', 'tiles', 'loop', 'regs', 'ratio', 'turn%'))
for path in runs:
    kk, nn, delay, tiles, loop, regs = shape(path)
    name = os.path.basename(path)
    turn = [v for (r, n), v in held.items() if n == name and os.path.basename(os.path.dirname(os.path.dirname(os.path.dirname(path)))) in r]
    print('%-34s %5d %5d %6.0f %6.1f %6.0f %6.0f %6.2f %6s' % (name, kk, nn, delay, tiles, loop, regs,
          (regs + delay) / loop, turn[0] if turn else '-'))
