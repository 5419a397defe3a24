#!/usr/bin/env python3
"""M157: every k-block load's latency (issue to the observed landing) against
the time since the latest D store began on its SM, from one launch's
per-k-block clocks (scripts/gpu_kbt.sh KBT_M155=1: NAME.kbt, int64 [132
CTAs][64 tiles][16 k-blocks][issue, landed, released]), tiles 8..55.  The
clocks hold no store: a tile's store is taken to start REGS cycles after
its loop's last release (the epilogue's register work, ~3,300 cycles at
zero delay on the H200, M152; give REGS plus the --epi-delay for a delayed
run).  The stores counted are those of the CTA's three tiles before the
load's (the other warpgroup's last and the same warpgroup's last, and the
one before); a load issued before any of them has begun counts from the
earliest.  Prints the median latency and the count per bin of that time.
   usage: load_by_store.py REGS KB:NAME.kbt..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56
BINS = [(0, 500), (500, 1000), (1000, 1500), (1500, 2000), (2000, 2500), (2500, 3500), (3500, 6000), (6000, 1e9)]


def since_store(a, kb, regs):
    """per load (CTA, tile, k-block): cycles since the latest store start before its issue, and its latency"""
    since, latency = [], []
    for t in range(FIRST, LAST):
        starts = np.stack([a[:, t - b, kb - 1, RELEASED] + regs for b in (1, 2, 3)], 1)
        for j in range(kb):
            issue = a[:, t, j, ISSUE]
            d = issue[:, None] - starts
            since.append(np.where(d >= 0, d, np.inf).min(1))
            latency.append(a[:, t, j, LANDED] - issue)
    return np.concatenate(since), np.concatenate(latency)


if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    regs = float(sys.argv[1])
    for arg in sys.argv[2:]:
        kb, path = arg.split(':', 1)
        x, y = since_store(kblock_clocks(path).astype(float), int(kb), regs)
        cells = ['%d-%s:%.0f(%d)' % (lo, '' if hi >= 1e9 else '%d' % hi, np.median(y[(x >= lo) & (x < hi)]),
                                     ((x >= lo) & (x < hi)).sum())
                 for lo, hi in BINS if ((x >= lo) & (x < hi)).sum() > 200]
        print('%-22s latency by cycles since the latest store start: %s' % (os.path.basename(path), ' '.join(cells)))
