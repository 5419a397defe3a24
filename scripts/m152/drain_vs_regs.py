#!/usr/bin/env python3
"""M152: pingpong's store drain (store-bound tiles, store_bound.py) against
the other warpgroup's epilogue register work beside it: ov = how many
cycles of [s, s + 1,441] (the drain with nothing beside it, the long
delays' median) the other's register work covers (its epilogue_regs less
the run's --epi-delay spin, which comes after the work).  Prints the
drain's median in bins of ov and a least-squares line drain = a + b ov.
   usage: drain_vs_regs.py RUN.h5..."""
import sys

import numpy as np

from store_bound import binned_medians, store_bound

BARE = 1441
EDGES = [0, 1, 250, 500, 750, 1000, 1250, 1442]


def rows(path):
    it = store_bound(path, ('epilogue_regs',))
    delay = next(it)
    out = []
    for _, t1, s, other in it:
        rb, re = other['epilogue_regs']
        i = np.searchsorted(rb, s + BARE, 'left')
        ov = sum(max(0.0, min(s + BARE, re[q] - delay) - max(s, rb[q])) for q in range(max(0, i - 2), i))
        out.append((t1 - s, ov))
    return np.array(out)


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-30s %5s %6s  %s' % ('run', 'n', 'drain', ' '.join('ov<%g' % x for x in EDGES[1:])))
for path in sys.argv[1:]:
    r = rows(path)
    d, ov = r[:, 0], r[:, 1]
    slope, a = np.polyfit(ov, d, 1) if np.ptp(ov) > 0 else (0.0, np.mean(d))
    print('%-30s %5d %6.0f  %s  a %.0f b %.3f' % (path.split('/')[-1][:30], len(d), np.median(d), binned_medians(d, ov, EDGES), a, slope))
