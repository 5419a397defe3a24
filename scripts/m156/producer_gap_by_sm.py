#!/usr/bin/env python3
"""M156: pingpong's producer per SM group, a prefetch build against a plain
one.  The SMs are grouped by their tiles' index mod 3 (at N = 768 and 132
CTAs one group's pairs all open a row block: the SMs that prefetch in a
build with --a-prefetch D).  Per group, tiles 8 .. n - 9 of each SM in the
producer's order: the median untraced gap from the previous tile's last
issue (producer_issue's end) to this tile's wait, the mean producer wait,
the mean load wait, the share of tiles whose load wait is over 250 cycles
and, over those, the median of the first issue to the load's landing.
   usage: producer_gap_by_sm.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals


def groups(path):
    """{tile index mod 3: rows of (gap, issue to landing, load wait, producer wait)}"""
    P = phase_intervals(path, ('producer_wait', 'producer_issue', 'load_wait'))
    pw, pi, lw = P['producer_wait'], P['producer_issue'], P['load_wait']
    per_sm = {}
    for (s, k), (b, _) in pw.items():
        per_sm.setdefault(s, []).append((b, k))
    out = {}
    for s, tiles in per_sm.items():
        tiles.sort()
        group = tiles[0][1] % 3
        for j in range(8, len(tiles) - 8):
            b, k = tiles[j]
            gap = b - pi[(s, tiles[j - 1][1])][1]
            out.setdefault(group, []).append((gap, lw[(s, k)][1] - pw[(s, k)][1], lw[(s, k)][1] - lw[(s, k)][0],
                                              pw[(s, k)][1] - pw[(s, k)][0]))
    return out


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        print(os.path.basename(path))
        for g, v in sorted(groups(path).items()):
            v = np.array(v)
            seen = v[:, 2] > 250
            print('   SMs tile%%3=%d: producer gap med %5.0f | pw %4.0f | lw mean %4.0f | waiting %2.0f%% '
                  'issue->landed med (waiting) %5.0f' % (g, np.median(v[:, 0]), v[:, 3].mean(), v[:, 2].mean(),
                                                         100 * seen.mean(), np.median(v[seen, 1])))
