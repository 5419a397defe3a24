#!/usr/bin/env python3
"""M165: a ring of any depth from one launch's per-k-block clocks
(scripts/gpu_kbt.sh KBT_M165=1: NAME.kbt, int64 [132 CTAs][64 tiles][16
k-blocks][issue, landed, released]), over tiles 8..55, per run:
  - each load's issue less the release of the slot it reuses (stage g
    reuses g - S's slot; S the ring's depth), the median per k-block;
  - each load's landing less the release of the k-block before's slot
    (released once k-block j's wgmmas are in flight and j - 1's retired):
    about -500 where the consumer found the stage landed, and about the
    landing-to-release round trip, positive or small, where it waited;
  - the mean of the in-loop loads' issue to landing (k-blocks 1..KB - 1).
   usage: ring_depth_clocks.py KB:S:NAME.kbt...   (KB = K / 128, S the stages)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56


def report(name, kb, st, a):
    t = a[:, FIRST:LAST, :kb, :]
    C, T = t.shape[0], t.shape[1]
    iss, land, rel = (t[:, :, :, x].reshape(C, T * kb) for x in (ISSUE, LANDED, RELEASED))
    after_release, land_vs_next = [], []
    for k in range(kb):
        g = np.arange(T * kb)[k::kb]
        g_ring = g[g >= st]
        after_release.append(np.median(iss[:, g_ring] - rel[:, g_ring - st]))
        g_prev = g[g >= 1]
        land_vs_next.append(np.median(land[:, g_prev] - rel[:, g_prev - 1]))
    in_loop = (t[:, :, 1:, LANDED] - t[:, :, 1:, ISSUE]).mean()
    print('%-22s KB %2d S %d  issue - its slot\'s release, k = 0..: %s' %
          (name, kb, st, ' '.join('%5.0f' % v for v in after_release)))
    print('%-22s             landing - release of k - 1:       %s' % ('', ' '.join('%5.0f' % v for v in land_vs_next)))
    print('%-22s             in-loop loads, mean issue to landing: %.0f' % ('', in_loop))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        kb, st, path = arg.split(':', 2)
        report(os.path.basename(path), int(kb), int(st), kblock_clocks(path).astype(float))
