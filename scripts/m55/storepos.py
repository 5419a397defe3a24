#!/usr/bin/python3
# docs/experiments.md M64: where the warpgroup's previous D store began, and
# the other warpgroup's mainloop, relative to each tile's first-load issue
# (medians over tiles whose consumer waited >= 250 cycles for that load);
# then the first load's latency in 300-cycle bins of the store's position.
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals

def rows_of(d):
    P = {n: intervals(d, n) for n in ('producer_issue', 'load_wait', 'epilogue_store', 'mainloop')}
    bysm = {}
    for (s, t), (b, e) in P['mainloop'].items():
        bysm.setdefault(s, []).append((b, t))
    rows = []
    for s, lst in bysm.items():
        lst.sort()
        ts = [t for _, t in lst]
        for j in range(2, len(ts) - 1):
            t, other, prev = ts[j], ts[j - 1], ts[j - 2]  # prev: this warpgroup's previous tile
            issue = P['producer_issue'][(s, t)][0]
            lb, le = P['load_wait'][(s, t)]
            if le - lb < 250:
                continue
            rows.append((le - issue, P['epilogue_store'][(s, prev)][0] - issue,
                         P['mainloop'][(s, other)][0] - issue, P['mainloop'][(s, other)][1] - issue))
    return np.array(rows)

for p in sys.argv[1:]:
    d = load(p)
    a = rows_of(d)
    print(f"{os.path.basename(p):28s} D={d['epi']:5d} n={len(a):5d} latency {np.median(a[:, 0]):5.0f} "
          f"own store {np.median(a[:, 1]):6.0f} other mainloop {np.median(a[:, 2]):6.0f}..{np.median(a[:, 3]):5.0f}")
    for lo in range(-2400, 1200, 300):
        m = (a[:, 1] >= lo) & (a[:, 1] < lo + 300)
        if m.sum() > 30:
            print(f"    own store in [{lo},{lo + 300}): latency {np.median(a[m, 0]):5.0f} (n={m.sum()})")
