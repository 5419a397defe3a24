#!/usr/bin/env python3
"""M155: pingpong's first load from the trace, per run: over tiles 8 .. n - 9
of each SM in loop order, the share of tiles whose load wait is over 250
cycles (the consumer waited for the load, so its landing is seen) and, over
those, the median of the first issue (producer_wait's end) to the landing
(load_wait's end); then the same medians by the position of the warpgroup's
previous store (its epilogue_store start less the issue, the `storenear`
law's o), in bins with more than 15 waiting tiles.
   usage: first_load.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

BINS = [(-4000, -3000), (-3000, -2000), (-2000, -1500), (-1500, -1000), (-1000, -500), (-500, 0), (0, 800)]


def tiles(path):
    """per tile: the store position, the issue to the load wait's end, the load wait"""
    P = phase_intervals(path, ('producer_wait', 'load_wait', 'mainloop', 'epilogue_store'))
    pw, lw, ml, st = P['producer_wait'], P['load_wait'], P['mainloop'], P['epilogue_store']
    rows = []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            k = ks[i]
            issue = pw[(s, k)][1]
            rows.append((st[(s, ks[i - 2])][0] - issue, lw[(s, k)][1] - issue, lw[(s, k)][1] - lw[(s, k)][0]))
    return np.array(rows)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        o, lat, wait = tiles(path).T
        seen = wait > 250
        bins = ' '.join('[%d,%d):%.0f(%d)' % (lo, hi, np.median(lat[seen & (o >= lo) & (o < hi)]),
                                             (seen & (o >= lo) & (o < hi)).sum())
                        for lo, hi in BINS if (seen & (o >= lo) & (o < hi)).sum() > 15)
        print('%-32s waiting %3.0f%%  issue to landing %5.0f | by store position: %s'
              % (os.path.basename(path), 100 * seen.mean(), np.median(lat[seen]), bins))
