#!/usr/bin/env python3
"""docs/experiments.md M107: each epilogue_regs work (the phase less the run's --epi-delay) against its overlap with the other warpgroup's mainloops, the work taken first (as the kernel runs it) or the spin first.
  scripts/m107/regs_overlap.py RUN.h5..."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace
def ov(a0, a1, b0, b1):
    return np.maximum(0, np.minimum(a1, b1) - np.maximum(a0, b0))
for p in sys.argv[1:]:
    tr = read_trace(p); D = float(tr.kernel.get('epi_delay', 0)); K = int(tr.problem['K'])
    W, O1, O2 = [], [], []
    for u in tr.sms():
        rb, re, rw = tr.phase(u, 'consumer', 'epilogue_regs')
        lb, le, lw = tr.phase(u, 'consumer', 'mainloop')
        for i in range(2, len(rb) - 1):
            m = lw != rw[i]
            ob, oe = lb[m], le[m]
            # work first, then the spin (o1), or spin first (o2)
            o1 = ov(rb[i], re[i] - D, ob, oe).sum()
            o2 = ov(rb[i] + D, re[i], ob, oe).sum()
            W.append(re[i] - rb[i] - D); O1.append(o1); O2.append(o2)
    W, O1, O2 = map(np.array, (W, O1, O2))
    print('%-30s K %4d D %5.0f work %5.0f | ov(work first) %5.0f  ov(spin first) %5.0f' % (p.split('/')[-1], K, D, W.mean(), O1.mean(), O2.mean()))
