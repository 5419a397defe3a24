#!/usr/bin/env python3
"""M139: bres's epilogue work step (combined rows landed -> staged) against
what the other warpgroup runs beside it, from the diagnostic build's
epilogue clocks of one launch (NAME.kbt.ept, int64 [132 CTAs][64 tiles][4
warps][start, combined, staged, spun, barrier, loop turn, loop end];
scripts/gpu_kbt.sh KBT_M134=1).  Per CTA tile 9..54 and warp, the step's
overlap with: the other warpgroup's next loop, from its turn (the order
wait's end, so its load wait included) to its end (tile i + 1's warp 0);
its spin (tile i - 1: its last warp staged to its first warp done
spinning); and its previous work step.  Prints per run the means and a
least-squares fit of the step on the three overlaps (within the run).
   usage: beside.py NAME.kbt.ept..."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'm134'))
sys.path.insert(0, os.path.join(HERE, '..', 'm136'))
from ept import clocks  # noqa: E402
from tile_phases import overlap  # noqa: E402

WARPS = 4
COMBINED, STAGED, SPUN, TURN, END = 1, 2, 3, 5, 6


def rows(path):
    e = clocks(path).astype(float)
    out = []
    for t in range(9, 55):
        me, prev, nxt = e[:, t], e[:, t - 1], e[:, t + 1]
        ok = (me[:, :, :SPUN + 2] > 0).all(axis=(1, 2)) & (prev > 0).all(axis=(1, 2)) & (nxt > 0).all(axis=(1, 2))
        a0, a1 = me[:, :, COMBINED], me[:, :, STAGED]
        loop = overlap(a0, a1, nxt[:, :1, TURN], nxt[:, :1, END])
        spin = overlap(a0, a1, prev[:, :, STAGED].max(axis=1, keepdims=True), prev[:, :, SPUN].min(axis=1, keepdims=True))
        work = overlap(a0, a1, prev[:, :, COMBINED].min(axis=1, keepdims=True), prev[:, :, STAGED].max(axis=1, keepdims=True))
        for c in np.where(ok)[0]:
            for w in range(WARPS):
                out.append((a1[c, w] - a0[c, w], loop[c, w], spin[c, w], work[c, w]))
    return np.array(out)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        r = rows(path)
        X = np.column_stack([r[:, 1], r[:, 2], r[:, 3], np.ones(len(r))])
        co = np.linalg.lstsq(X, r[:, 0], rcond=None)[0]
        print('%-22s steps %6d work %4.0f | beside it: loop %4.0f, spin %4.0f, its work %4.0f | '
              'within the run: work = %4.0f %+.3f x loop %+.3f x spin %+.3f x its work'
              % (path.split('/')[-1][:22], len(r), r[:, 0].mean(), r[:, 1].mean(), r[:, 2].mean(), r[:, 3].mean(),
                 co[3], co[0], co[1], co[2]))
