#!/usr/bin/env python3
"""M148: each SM's mean gap between consecutive mainloop starts (both
consumer warpgroups: the SM's tile period), averaged over the SMs whose
every tile is a row block's first (tile index mod B = 0, B column blocks)
and over the others.  At 66 clusters and B = 3 a cluster's tiles keep one
residue, so a prefetch build's row-first cost falls on one SM in three.
   usage: per_sm.py B RUN.h5..."""
import sys

import h5py
import numpy as np

if len(sys.argv) < 3:
    sys.exit(__doc__)
B = int(sys.argv[1])
for path in sys.argv[2:]:
    with h5py.File(path, 'r') as f:
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        ph = t['phase'][:]; b = t['begin'][:].astype(float); sm = t['sm'][:]; tile = t['tile'][:]
    m = ph == names.index('mainloop')
    groups = {'rowfirst': [], 'others': [], 'mixed': []}
    for s in np.unique(sm[m]):
        k = m & (sm == s)
        if k.sum() < 10:
            continue
        gap = np.mean(np.diff(np.sort(b[k])))
        first = tile[k] % B == 0
        groups['rowfirst' if first.all() else 'others' if not first.any() else 'mixed'].append(gap)
    print(path, '  '.join('%s n=%d %.0f' % (g, len(v), np.mean(v)) for g, v in groups.items() if v))
