#!/usr/bin/env python3
"""M155: pingpong's ring from one launch's per-k-block clocks
(scripts/gpu_kbt.sh KBT_M155=1: NAME.kbt, int64 [132 CTAs][64 tiles][16
k-blocks][issue, landed, released]), over tiles 8..55, per run:
  - each k-block's length in the loop: the median of release j less release
    j - 1 (k-block j's start to k-block j + 1's, as the observer thread saw
    the releases; j = 1..KB - 1), and each load's median issue to landing;
  - where a tile's first load goes out and lands against the end of the loop
    before it (the CTA's previous tile, the other warpgroup's: its last
    release): the median of the first issue less that end, the median and
    p75 of the first landing less it, and the share of tiles whose first load
    lands 300 cycles or more after it (a tile queued behind that loop would
    wait for its load).
   usage: ring_clocks.py KB:NAME.kbt...   (KB: k-blocks per tile, K / 128)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56


def lengths(name, kb, a):
    t = a[:, FIRST:LAST, :kb, :]
    length = np.diff(t[:, :, :, RELEASED], axis=2)
    latency = t[:, :, :, LANDED] - t[:, :, :, ISSUE]
    print('%-22s KB %2d  k-block j = 1..KB-1 length: %s' %
          (name, kb, ' '.join('%4.0f' % np.median(length[:, :, j]) for j in range(kb - 1))))
    print('%-22s        load j = 0..KB-1 issue to landed: %s' %
          ('', ' '.join('%4.0f' % np.median(latency[:, :, j]) for j in range(kb))))


def first_issue(name, kb, a):
    prev_end = a[:, FIRST - 1:LAST - 1, kb - 1, RELEASED]
    issue = a[:, FIRST:LAST, 0, ISSUE] - prev_end
    landed = a[:, FIRST:LAST, 0, LANDED] - prev_end
    print('%-22s first issue - previous loop end %6.0f | landed - end median %5.0f p75 %5.0f | landed >= 300 after: %.2f'
          % (name, np.median(issue), np.median(landed), np.percentile(landed, 75), np.mean(landed >= 300)))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        kb, path = arg.split(':', 1)
        a = kblock_clocks(path).astype(float)
        lengths(os.path.basename(path), int(kb), a)
        first_issue(os.path.basename(path), int(kb), a)
