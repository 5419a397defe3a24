#!/usr/bin/env python3
"""The low tail of each run's traced consumer mainloop less its stall-free
chain (docs/experiments.md M90): what `kblocks ... fixed=` measures.  The
chain is the loop's wgmma cycles at 8,192 FLOP/cycle (pingpong's 64 x 256
tile: K x 4 cycles; bres's 64 x 192: K x 3) plus the --mainloop-delay spin.

  scripts/m90/loop_floor.py RUN.h5...   one line per run: min, 0.1th, 0.5th, 1st, 2nd, 5th percentile"""
import sys
import h5py
import numpy as np

def names(attr):
    return [x.decode() if isinstance(x, bytes) else x for x in attr]

def floor_row(path):
    with h5py.File(path, 'r') as f:
        t = f['trace']
        pn, rn = names(t.attrs['phase_names']), names(t.attrs['role_names'])
        sel = (t['phase'][:] == pn.index('mainloop')) & (t['role'][:] == rn.index('consumer'))
        loop = t['end'][:][sel].astype(np.int64) - t['begin'][:][sel].astype(np.int64)
        k, kern = f['problem'].attrs, f['kernel'].attrs
        name = kern['name'].decode() if isinstance(kern['name'], bytes) else str(kern['name'])
        per_k = 3 if 'bres' in name else 4
        chain = int(k['K']) * per_k + int(kern['mainloop_delay'])
        q = np.percentile(loop, [0, 0.1, 0.5, 1, 2, 5]) - chain
        return '%-34s %-22s K=%4d spin=%4d tiles=%6d  %s' % (
            path.split('/')[-1], str(kern['device'])[-12:], int(k['K']), int(kern['mainloop_delay']), len(loop),
            ' '.join('%5.0f' % x for x in q))

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print('%-34s %-22s %s' % ('run', 'device', 'K, spin, tiles; loop - chain at min / p0.1 / p0.5 / p1 / p2 / p5'))
    for p in sys.argv[1:]:
        print(floor_row(p))
