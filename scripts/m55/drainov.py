#!/usr/bin/python3
# drain-bound tiles: store start (k-2, same warpgroup) -> turn end (k), against its overlap with the other warpgroup's mainloop (k-1)
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals
allx = []; ally = []
for p in sys.argv[1:]:
    d = load(p); pn = d['pn']; ph = d['phase']; sm = d['sm']; tile = d['tile']; D = d['epi']
    get = lambda name: intervals(d, name)
    OW = get('order_wait'); ES = get('epilogue_store'); ML = get('mainloop')
    bysm = {}
    for (s, t), (b, e) in ML.items(): bysm.setdefault(s, []).append((b, t))
    X = []; Y = []
    for s, lst in bysm.items():
        lst.sort(); ts = [t for _, t in lst]
        for j in range(12, len(ts) - 2):
            t, t1, t2 = ts[j], ts[j - 1], ts[j - 2]
            ow_end = OW[(s, t)][1]; sb = ES[(s, t2)][0]
            if ow_end - ML[(s, t1)][1] <= 300: continue
            mb, me = ML[(s, t1)]
            X.append(max(0, min(ow_end, me) - max(sb, mb))); Y.append(ow_end - sb)
    X = np.array(X, float); Y = np.array(Y, float)
    if len(X) > 100:
        a = np.polyfit(X, Y, 1); allx.append(X); ally.append(Y)
        print(f"{p[-30:]:30s} D={D:5d} n={len(X):5d} drain+ mean={Y.mean():5.0f} overlap w/ other ML mean={X.mean():5.0f}  fit: {a[1]:5.0f} + {a[0]:.2f} x overlap")
X = np.concatenate(allx); Y = np.concatenate(ally); a = np.polyfit(X, Y, 1)
print(f"pooled: {a[1]:5.0f} + {a[0]:.2f} x overlap")
for lo in range(0, 2000, 250):
    m = (X >= lo) & (X < lo + 250)
    if m.sum() > 30: print(f"  overlap [{lo},{lo+250}): n={m.sum():6d} drain+={np.median(Y[m]):5.0f}")
