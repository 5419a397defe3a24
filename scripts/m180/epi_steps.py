#!/usr/bin/env python3
"""docs/experiments.md M180: the fixed pingpong's epilogue step by step, from
the diagnostic build's clocks (KBT_M180=1 scripts/gpu_kbt.sh): NAME.kbt.ept
(int64 [cta][tile][warp][start, combined, staged, spun, barrier, loop begin,
loop end], kernel/ws_skeleton.cuh's g_ept) and NAME.kbt (int64
[cta][tile][k][issue, landed, released]), one launch.  For each CTA's tiles
8..55 (a tile i's next, i + 1, is the other warpgroup's), per warp: Wc =
start -> combined rows landed, W = combined -> staged (the register work and
staging), and W's overlap with the next tile's loop, split at that loop's
k-block 2 release (its first three k-blocks against the rest).  Per run: the
means, least squares W = a + b ov and W = a + b1 ov1 + b2 ov2, and W's mean
in overlap bins of 500 cycles (count).
  scripts/m180/epi_steps.py NAME.kbt...   (NAME.kbt.ept beside each)"""
import os
import sys

import numpy as np

CTAS, TILES, WARPS, KMAX = 132, 64, 4, 16
START, COMBINED, STAGED, SPUN, BARRIER, LOOP_BEGIN, LOOP_END = range(7)
RELEASED = 2
SPLIT_K = 2  # the next loop's halves split at this k-block's release


def overlap(a0, a1, b0, b1):
    return np.clip(np.minimum(a1, b1) - np.maximum(a0, b0), 0, None)


def rows(kbt_path):
    ept = np.fromfile(kbt_path + '.ept', dtype=np.int64).reshape(CTAS, TILES, WARPS, -1).astype(float)
    kbt = np.fromfile(kbt_path, dtype=np.int64).reshape(CTAS, TILES, KMAX, 3).astype(float)
    out = []
    for c in range(CTAS):
        for i in range(8, 56):
            nxt = ept[c, i + 1, 0]
            split = kbt[c, i + 1, SPLIT_K, RELEASED]
            if nxt[LOOP_BEGIN] <= 0 or nxt[LOOP_END] <= 0 or not nxt[LOOP_BEGIN] < split < nxt[LOOP_END]:
                continue
            for w in range(WARPS):
                e = ept[c, i, w]
                if (e[:STAGED + 1] <= 0).any():
                    continue
                o1 = overlap(e[COMBINED], e[STAGED], nxt[LOOP_BEGIN], split)
                o2 = overlap(e[COMBINED], e[STAGED], split, nxt[LOOP_END])
                out.append((e[COMBINED] - e[START], e[STAGED] - e[COMBINED], o1, o2))
    return np.array(out)


def one(path):
    R = rows(path)
    wc, W, o1, o2 = R.T
    ov = o1 + o2
    b = np.linalg.lstsq(np.vstack([np.ones(len(R)), ov]).T, W, rcond=None)[0]
    b2 = np.linalg.lstsq(np.vstack([np.ones(len(R)), o1, o2]).T, W, rcond=None)[0]
    bins = ' '.join('%4.0f(%d)' % (W[(ov >= lo) & (ov < lo + 500)].mean(), ((ov >= lo) & (ov < lo + 500)).sum())
                    if ((ov >= lo) & (ov < lo + 500)).sum() > 20 else '   -' for lo in range(0, 4000, 500))
    return ('%-22s n %6d | Wc %4.0f | W %4.0f = %4.0f + %.3f ov | = %4.0f + %.3f ov1 + %.3f ov2 (ov1 %4.0f ov2 %4.0f) | %s'
            % (os.path.basename(path)[:-4], len(R), wc.mean(), W.mean(), b[0], b[1], b2[0], b2[1], b2[2],
               o1.mean(), o2.mean(), bins))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        print(one(p), flush=True)
