#!/usr/bin/env python3
"""M157: every k-block load's latency (issue to the observed landing) against
the cycles since the latest D store began on its SM, from one launch's
per-k-block clocks (scripts/gpu_kbt.sh KBT_M155=1: NAME.kbt, int64 [132
CTAs][64 tiles][16 k-blocks][issue, landed, released]), tiles 8..55, split
by the load's kind: a tile's first four (k-blocks 0-3, issued during the
loop before it) and the rest (issued in its own loop).  The clocks hold no
store: a tile's store is taken to start REGS cycles after its loop's last
release as the observer thread saw it (give the run's median of
epilogue_store's start less mainloop's end, from its trace: an estimate,
since the observer sees the release late).  The stores counted are those of
the CTA's three tiles before the load's (both warpgroups'); a load issued
before any of them began is left out (none in M155's runs).  Prints, per
kind, the median latency and the count in each bin of that time holding
more than 200 loads, then the mean of the 0-1,500 bins' medians over the
mean of the 3,500+ bins' (slow/fast).
   usage: load_by_store.py REGS:KB:NAME.kbt...   (KB: k-blocks per tile, K / 128)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56
STAGES = 4
BINS = [(0, 500), (500, 1000), (1000, 1500), (1500, 2000), (2000, 2500), (2500, 3500), (3500, 6000), (6000, 1e9)]


def since_store(a, kb, regs):
    """per load: cycles since the latest store start before its issue (inf: none), latency, k-block"""
    since, latency, kblock = [], [], []
    for t in range(FIRST, LAST):
        starts = np.stack([a[:, t - b, kb - 1, RELEASED] + regs for b in (1, 2, 3)], 1)
        for j in range(kb):
            issue = a[:, t, j, ISSUE]
            d = issue[:, None] - starts
            since.append(np.where(d >= 0, d, np.inf).min(1))
            latency.append(a[:, t, j, LANDED] - issue)
            kblock.append(np.full(len(issue), j))
    return np.concatenate(since), np.concatenate(latency), np.concatenate(kblock)


def row(x, y):
    """the bins, then the mean of the 0-1,500 bins' medians over that of the 3,500+ bins' ('-': either empty)"""
    med = {(lo, hi): np.median(y[(x >= lo) & (x < hi)]) for lo, hi in BINS if ((x >= lo) & (x < hi)).sum() > 200}
    cells = ' '.join('%d-%s:%.0f(%d)' % (lo, '' if hi >= 1e9 else '%d' % hi, m, ((x >= lo) & (x < hi)).sum())
                     for (lo, hi), m in med.items())
    slow = [m for (lo, hi), m in med.items() if hi <= 1500]
    fast = [m for (lo, hi), m in med.items() if lo >= 3500]
    ratio = '%.2f' % (np.mean(slow) / np.mean(fast)) if slow and fast else '-'
    return '%s | slow/fast %s' % (cells, ratio)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        regs, kb, path = arg.split(':', 2)
        x, y, j = since_store(kblock_clocks(path).astype(float), int(kb), float(regs))
        name = os.path.basename(path)
        print('%-22s REGS %5s  first four: %s' % (name, regs, row(x[j < STAGES], y[j < STAGES])))
        print('%-22s              the rest:  %s' % ('', row(x[j >= STAGES], y[j >= STAGES])))
