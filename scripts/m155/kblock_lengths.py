#!/usr/bin/env python3
"""M155: each k-block's length in pingpong's loop and each load's latency,
from one launch's per-k-block clocks (scripts/gpu_kbt.sh KBT_M155=1:
NAME.kbt, int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released]).
Over tiles 8..55: the median of release j less release j - 1 (k-block j's
start to k-block j + 1's, as the observer thread saw the releases; j = 1..
KB - 1), and the median of each k-block's issue to its observed landing.
   usage: kblock_lengths.py KB:NAME.kbt...   (KB: k-blocks per tile, K / 128)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        kb, name = arg.split(':', 1)
        kb = int(kb)
        a = kblock_clocks(name)[:, FIRST:LAST, :kb, :].astype(float)
        lengths = np.diff(a[:, :, :, RELEASED], axis=2)
        latency = a[:, :, :, LANDED] - a[:, :, :, ISSUE]
        print('%-22s KB %2d  k-block j = 1..KB-1 length: %s' %
              (os.path.basename(name), kb, ' '.join('%4.0f' % np.median(lengths[:, :, j]) for j in range(kb - 1))))
        print('%-22s        load j = 0..KB-1 issue to landed: %s' %
              ('', ' '.join('%4.0f' % np.median(latency[:, :, j]) for j in range(kb))))
