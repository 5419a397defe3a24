#!/usr/bin/env python3
"""M152: pingpong's store drain (store-bound tiles, store_bound.py) against
where the other warpgroup's loop ended: dt = the end of the other's
mainloop that gave this tile its turn less this tile's previous store end
s (negative: the loop ended before the store left).  That loop end frees
the ring's last slots (the producer then issues this warpgroup's next
stages) and starts the other's epilogue.  Prints the drain's median in bins
of dt.
   usage: drain_neighbours.py RUN.h5..."""
import sys

import numpy as np

from store_bound import binned_medians, store_bound

EDGES = [-1e9, -2000, -1000, -500, 0, 500, 1000, 1e9]


def rows(path):
    it = store_bound(path)
    next(it)
    out = []
    for _, t1, s, other in it:
        ml_end = np.sort(other['mainloop'][1])
        k = np.searchsorted(ml_end, t1, 'right') - 1
        out.append((t1 - s, ml_end[k] - s))
    return np.array(out)


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-30s %5s %6s  %s' % ('run', 'n', 'drain', ' '.join('dt<%g' % x for x in EDGES[1:])))
for path in sys.argv[1:]:
    r = rows(path)
    d, dt = r[:, 0], r[:, 1]
    print('%-30s %5d %6.0f  %s' % (path.split('/')[-1][:30], len(d), np.median(d), binned_medians(d, dt, EDGES)))
