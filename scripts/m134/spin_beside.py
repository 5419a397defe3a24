#!/usr/bin/env python3
"""M134: the spin's cost beyond D (spun less staged less D, per warp) on
tiles whose spin ended while the other warpgroup's mainloop ran, against
those whose spin ended after it.  From the clocks alone (NAME.kbt.ept): the
CTA's tiles alternate between its two warpgroups, and the other
warpgroup's mainloop for tile i + 1 ends where that tile's epilogue starts
(its START clock), so a spin of tile i that ends before START(i + 1) ended
beside that loop.   usage: spin_beside.py DELAY:FILE.kbt.ept..."""
import sys

import numpy as np

CTAS, TILES, WARPS, POINTS = 132, 64, 4, 5

for arg in sys.argv[1:]:
    delay, path = arg.split(':', 1)
    d = float(delay)
    a = np.fromfile(path, dtype=np.int64).reshape(CTAS, TILES, WARPS, POINTS).astype(float)
    cur, nxt = a[:, 8:55], a[:, 9:56]
    ok = (cur > 0).all(axis=(2, 3)) & (nxt > 0).all(axis=(2, 3))
    cur, nxt = cur[ok], nxt[ok]
    extra = cur[:, :, 3] - cur[:, :, 2] - d
    beside = cur[:, :, 3] < nxt[:, 0:1, 0]
    print("%-28s D %5.0f | spin beyond D: ending beside the other loop %5.0f (%5.1f%% of warps), after it %5.0f"
          % (path[-28:], d, extra[beside].mean() if beside.any() else np.nan, 100 * beside.mean(),
             extra[~beside].mean() if (~beside).any() else np.nan))
