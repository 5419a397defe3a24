#!/usr/bin/env python3
"""M145: each k-block's median latency, issue to the consumer's observed
landing, over CTA tiles 8..55, from a run's per-k-block clocks (NAME.kbt,
scripts/gpu_kbt.sh).  The observed landing is when the consumer saw the
stage, so the first k-blocks include its lateness; the in-loop ones
(k-block >= stages) are the loads it waited for.
   usage: kblock_latency.py KBLOCKS:NAME...   (NAME.kbt)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED = 0, 1

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        nk, name = arg.split(':', 1)
        a = kblock_clocks(name + '.kbt')[:, 8:56, :int(nk), :].astype(float)
        ok = (a[..., ISSUE] > 0) & (a[..., LANDED] > 0)
        lat = np.where(ok, a[..., LANDED] - a[..., ISSUE], np.nan)
        print('%-40s %s' % (name, ' '.join('%5.0f' % np.nanmedian(lat[:, :, j]) for j in range(int(nk)))))
