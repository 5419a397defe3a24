#!/usr/bin/env python3
"""docs/experiments.md M98: pingpong's k-block loop per run file.

  scripts/m98/loop_rate.py RUN.h5...

One line per run: K, N, the --mainloop-delay and --epi-delay the run file's
/kernel records, the consumer's mean mainloop less the spin (the loop), the
loop per k-block of 128, the loop's excess over 512 cycles of wgmma per
k-block, the tile period (per SM: the span of its mainloop starts over
their count less one, mean over the SMs) and the loop's share of it (the
share of time an SM streams its ring).  Needs numpy and h5py."""
import os
import sys

import h5py
import numpy as np


def names(attr):
    return [x.decode() if isinstance(x, bytes) else str(x) for x in attr]


def one(path):
    with h5py.File(path, 'r') as f:
        t = f['trace']
        phases, roles = names(t.attrs['phase_names']), names(t.attrs['role_names'])
        ph, ro, sm = t['phase'][:], t['role'][:], t['sm'][:]
        beg, end = t['begin'][:].astype(float), t['end'][:].astype(float)
        kern, prob = dict(f['kernel'].attrs), dict(f['problem'].attrs)
    sel = (ph == phases.index('mainloop')) & (ro == roles.index('consumer'))
    spin = float(kern.get('mainloop_delay', 0))
    loop = (end[sel] - beg[sel]).mean() - spin
    spans = []
    for u in np.unique(sm[sel]):
        s = np.sort(beg[sel][sm[sel] == u])
        if len(s) > 1:
            spans.append((s[-1] - s[0]) / (len(s) - 1))
    period = float(np.mean(spans))
    k, n = int(prob['K']), int(prob['N'])
    kb = k // 128
    return '%-34s K=%5d N=%5d spin=%5.0f epi=%5.0f loop %6.0f per_kb %5.0f excess %6.0f period %6.0f share %.3f' % (
        os.path.basename(path), k, n, spin, float(kern.get('epi_delay', 0)), loop, loop / kb, loop - 512 * kb,
        period, loop / period)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for p in argv:
        try:
            print(one(p))
        except (OSError, KeyError, ValueError) as e:
            print('%s: %s' % (p, e), file=sys.stderr)
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
