#!/usr/bin/env python3
"""docs/experiments.md M103-M105: each run's mean loop (less its spin), its excess over a chain of K/128 x 512 cycles (pingpong's wgmma; bres's k-blocks are 384), the period, and the low tail.
  scripts/m104/loop_over_chain.py RUN.h5..."""
import os, sys
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace
for p in sys.argv[1:]:
    tr = read_trace(p)
    K = int(tr.problem.get('k', tr.problem.get('K', 0)))
    spin = float(tr.kernel.get('mainloop_delay', 0)); D = float(tr.kernel.get('epi_delay', 0))
    loops, per = [], []
    for u in tr.sms():
        b, e, _ = tr.phase(u, 'consumer', 'mainloop')
        loops.extend(e - b - spin)
        if len(b) > 8: per.append((b[-1] - b[2]) / (len(b) - 3))
    n = K // 128
    L = np.mean(loops)
    print('%-45s K %5d D %5.0f spin %5.0f loop %5.0f  over chain %5.0f  period %5.0f  p10 %5.0f p50 %5.0f' % (os.path.basename(p), K, D, spin, L, L - n * 512, np.mean(per), np.percentile(loops, 10) - n*512, np.percentile(loops, 50) - n*512))
