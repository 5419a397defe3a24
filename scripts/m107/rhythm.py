#!/usr/bin/env python3
"""docs/experiments.md M107: per run, the idle between consecutive loops on an SM (p10 / p50 / p90: a paired rhythm has a short and a long one) and each epilogue_regs work's overlap with the next loop (the other warpgroup's).
  scripts/m107/rhythm.py RUN.h5..."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace
for p in sys.argv[1:]:
    tr = read_trace(p); D = float(tr.kernel.get('epi_delay', 0))
    gaps = []; ovs = []
    for u in tr.sms():
        lb, le, lw = tr.phase(u, 'consumer', 'mainloop')
        rb, re, rw = tr.phase(u, 'consumer', 'epilogue_regs')
        for i in range(3, len(lb) - 1):
            gaps.append(lb[i] - le[i - 1])
        for i in range(3, min(len(rb), len(lb)) - 2):
            # regs work after loop i (same WG), vs next loop (other WG)
            w0, w1 = rb[i], re[i] - D
            j = np.searchsorted(lb, w0)
            o = 0
            if j < len(lb): o = max(0, min(w1, le[j]) - max(w0, lb[j]))
            ovs.append(o)
    g = np.array(gaps); o = np.array(ovs)
    pairs = g[:len(g)//2*2].reshape(-1, 2)
    print('%-28s D %5.0f idle between loops mean %5.0f  p10 %5.0f p50 %5.0f p90 %5.0f | regs-work ov: mean %4.0f  share>100: %.2f  p50 %4.0f' % (p.split('/')[-1], D, g.mean(), *np.percentile(g, [10, 50, 90]), o.mean(), (o > 100).mean(), np.median(o)))
