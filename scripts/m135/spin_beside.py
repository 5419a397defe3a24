#!/usr/bin/env python3
"""M135: does the probe's spin cost more when the other warpgroup's loop
runs at its end?  From the diagnostic build's clocks (NAME.kbt.ept with
M135's 7 points): the CTA's tiles alternate between its two warpgroups,
so tile i's neighbours i - 1 and i + 1 are the other warpgroup's, and each
carries its loop (its turn after the order wait to the loop's end).  A warp's spin
ended beside that loop when its spun clock falls inside either
neighbour's.  Prints per run the spin's cost past D (spun less staged less
D) on those warps and on the others.   usage: spin_beside.py DELAY:FILE..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm134'))
from ept import clocks  # noqa: E402

STAGED, SPUN, LOOP_BEGIN, LOOP_END = 2, 3, 5, 6

for arg in sys.argv[1:]:
    delay, path = arg.split(':', 1)
    a = clocks(path).astype(float)
    if a.shape[3] < 7:
        sys.exit("%s: no loop clocks (a file from before M135)" % path)
    cur, before, after = a[:, 8:55], a[:, 7:54], a[:, 9:56]
    ok = (cur > 0).all(axis=(2, 3)) & (before > 0).all(axis=(2, 3)) & (after > 0).all(axis=(2, 3))
    cur, before, after = cur[ok], before[ok], after[ok]
    spun = cur[:, :, SPUN]
    cost = spun - cur[:, :, STAGED] - float(delay)
    beside = np.zeros(spun.shape, dtype=bool)
    for other in (before, after):
        beside |= (other[:, 0:1, LOOP_BEGIN] <= spun) & (spun <= other[:, 0:1, LOOP_END])
    print("%-26s D %5s | spin past D: beside the other loop %5.0f (%5.1f%% of warps), outside it %5.0f"
          % (os.path.basename(path)[-26:], delay, cost[beside].mean() if beside.any() else np.nan,
             100 * beside.mean(), cost[~beside].mean() if (~beside).any() else np.nan))
