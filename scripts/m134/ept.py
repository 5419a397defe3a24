#!/usr/bin/env python3
"""M134: bres's epilogue, step by step, from the diagnostic build's clocks
(NAME.kbt.ept: int64 [cta][tile][warp][start, combined, staged, spun,
barrier (, loop begin, loop end: M135)], kernel/ws_skeleton.cuh's g_ept; scripts/gpu_kbt.sh KBT_M134=1).
Per run: the means over the CTAs' tiles 8..55 (past the start-up, before
the tail) of each step, per warp and as the warpgroup sees it (the
slowest warp), and the phase the trace records (warp 0's start to the
barrier).   usage: ept.py DELAY:FILE.kbt.ept..."""
import sys

import numpy as np

CTAS, TILES, WARPS = 132, 64, 4
STEPS = 5  # start, combined, staged, spun, barrier; M135's files add the loop's two after them


def clocks(path):
    """[cta][tile][warp][point], as many points as the file holds"""
    raw = np.fromfile(path, dtype=np.int64)
    return raw.reshape(CTAS, TILES, WARPS, raw.size // (CTAS * TILES * WARPS))


def steps(path):
    a = clocks(path)[:, 8:56, :, :STEPS].astype(float)
    ok = (a > 0).all(axis=(2, 3))
    return a[ok]  # [tiles][warp][point]


if __name__ == '__main__':
    for arg in sys.argv[1:]:
        delay, path = arg.split(':', 1)
        d = float(delay)
        a = steps(path)
        comb = a[:, :, 1] - a[:, :, 0]
        work = a[:, :, 2] - a[:, :, 1]
        spin = a[:, :, 3] - a[:, :, 2] - d
        barrier = a[:, :, 4] - a[:, :, 3]
        phase = a[:, 0, 4] - a[:, 0, 0] - d
        staged_last = a[:, :, 2].max(axis=1) - a[:, 0, 0]
        print("%-28s D %5.0f tiles %6d | comb %4.0f (max %4.0f) work %4.0f (slowest warp done %5.0f) "
              "spin+ %4.0f barrier %4.0f | phase less D %5.0f"
              % (path[-28:], d, len(a), comb.mean(), comb.max(axis=1).mean(), work.mean(), staged_last.mean(),
                 spin.mean(), barrier.mean(), phase.mean()))
