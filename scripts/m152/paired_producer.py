#!/usr/bin/env python3
"""M152: when the producer issues a paired loop-bound tile's first load.
Per SM, tiles in loop order (8 .. n - 9); L = a loop-bound tile whose
predecessor pD was drain-bound (scripts/m152/paired_phases.py).  For L and
for unpaired drain-bound tiles D: the producer's wait begin, its issue
begin (the tile's first load) and its issue end, each less the previous
tile's mainloop begin in loop order; and on the same clock the tile's own
turn (order_wait end), its loop start after the load wait ('loop go') and
the previous tile's loop end ('prev end').  Means, kernel against model.
   usage: paired_producer.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402


def table(path):
    P = phase_intervals(path, ('mainloop', 'order_wait', 'producer_wait', 'producer_issue', 'load_wait'))
    ml, ow, pw, pi, lw = P['mainloop'], P['order_wait'], P['producer_wait'], P['producer_issue'], P['load_wait']
    out = {'L': [], 'D': []}
    for s, ks in tiles_in_loop_order(ml).items():
        lb = [i > 0 and ow[(s, ks[i])][1] - ml[(s, ks[i - 1])][1] <= 250 for i in range(len(ks))]
        for i in range(8, len(ks) - 8):
            k, base = ks[i], ml[(s, ks[i - 1])][0]
            if (s, k) not in pw or (s, k) not in pi:
                continue
            row = (pw[(s, k)][0] - base, pi[(s, k)][0] - base, pi[(s, k)][1] - base, ow[(s, k)][1] - base,
                   lw[(s, k)][1] - base, ml[(s, ks[i - 1])][1] - base)
            if lb[i] and not lb[i - 1]:
                out['L'].append(row)
            elif not lb[i] and not lb[i - 1] and not lb[i + 1]:
                out['D'].append(row)
    return out


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-26s %3s %6s %8s %8s %8s %8s %8s %8s' % ('run', 'cls', 'n', 'pw begin', 'issue0', 'issue end', 'turn', 'loop go', 'prev end'))
for path in sys.argv[1:]:
    t = table(path)
    for c in ('L', 'D'):
        if t[c]:
            m = np.mean(t[c], 0)
            print('%-26s %3s %6d %8.0f %8.0f %8.0f %8.0f %8.0f %8.0f' % ((path.split('/')[-1][:26], c, len(t[c])) + tuple(m)))
