#!/usr/bin/env python3
"""M152: the force that holds or breaks pingpong's paired turn mode.  Per
SM, tiles in loop order (8 .. n - 9): g_i = tile i + 1's loop start less
tile i's loop end (how far the next warpgroup's loop sits behind this
one's; ~ the handover plus a load wait when paired, larger when spread).
The same warpgroup pair comes round two tiles later, so g_{i+2} - g_i is
how that gap drifted in one cycle.  Prints the mean drift in bins of g_i:
where it is negative the next loop is pulled toward this one's end (the
paired mode attracts), where positive it is pushed away (the spread mode
holds).
   usage: turn_force.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

EDGES = [0, 300, 600, 1000, 1500, 2000, 3000, 4000, 6000, 1e9]

if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-26s %s' % ('run', ' '.join('g<%-9g' % x for x in EDGES[1:])))
for path in sys.argv[1:]:
    ml = phase_intervals(path, ('mainloop',))['mainloop']
    g, dg = [], []
    for s, ks in tiles_in_loop_order(ml).items():
        gaps = [ml[(s, ks[i + 1])][0] - ml[(s, ks[i])][1] for i in range(len(ks) - 1)]
        for i in range(8, len(gaps) - 10):
            g.append(gaps[i])
            dg.append(gaps[i + 2] - gaps[i])
    g, dg = np.array(g), np.array(dg)
    cells = []
    for lo, hi in zip(EDGES[:-1], EDGES[1:]):
        m = (g >= lo) & (g < hi)
        cells.append('%+5.0f(%4d)' % (dg[m].mean(), m.sum()) if m.sum() >= 30 else '    -(%4d)' % m.sum())
    print('%-26s %s' % (path.split('/')[-1][:26], ' '.join(cells)))
