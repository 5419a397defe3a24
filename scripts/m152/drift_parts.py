#!/usr/bin/env python3
"""M152: what carries the drift of the gap between pingpong's two loops
(scripts/m152/turn_force.py), phase by phase.  Per SM, tiles in loop order
(8 .. n - 9): A = tile i, B = tile i + 1, g = B's loop start less A's loop
end.  The gap's drift over one cycle is B's cycle less A's cycle (each a
warpgroup's loop start to its next).  Each cycle is the sum of its tile's
phases and the untraced gap after its store; the table gives, per bin of
g, the mean of B's less A's for each part (order_wait, load_wait,
mainloop, epilogue_regs, epilogue_store, gap), whose sum is the drift.
   usage: drift_parts.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

PH = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')
EDGES = [0, 600, 1500, 3000, 6000, 1e9]


def parts(P, s, ks, i):
    """the phases of tile ks[i] and its gap to its warpgroup's next order wait"""
    k = ks[i]
    d = [P[n][(s, k)][1] - P[n][(s, k)][0] for n in PH]
    d.append(P['order_wait'][(s, ks[i + 2])][0] - P['epilogue_store'][(s, k)][1])
    return np.array(d)


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-26s %-12s %5s %7s  %s' % ('run', 'g bin', 'n', 'drift', '  '.join('%8s' % n[:8] for n in PH + ('gap',))))
for path in sys.argv[1:]:
    P = phase_intervals(path, PH)
    ml = P['mainloop']
    rows = []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 10):
            g = ml[(s, ks[i + 1])][0] - ml[(s, ks[i])][1]
            rows.append((g, parts(P, s, ks, i + 1) - parts(P, s, ks, i)))
    g = np.array([r[0] for r in rows])
    d = np.array([r[1] for r in rows])
    for lo, hi in zip(EDGES[:-1], EDGES[1:]):
        m = (g >= lo) & (g < hi)
        if m.sum() < 30:
            continue
        mean = d[m].mean(0)
        print('%-26s %-12s %5d %+7.0f  %s' % (path.split('/')[-1][:26], '%g-%g' % (lo, hi), m.sum(), mean.sum(),
                                              '  '.join('%+8.0f' % x for x in mean)))
