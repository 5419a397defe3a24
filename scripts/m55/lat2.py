#!/usr/bin/python3
# first-load latency against (kb0 issue - own previous store start), fine bins; all tiles with a real wait
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals
for p in sys.argv[1:]:
    d = load(p); pn = d['pn']; ph = d['phase']; sm = d['sm']; tile = d['tile']
    get = lambda name: intervals(d, name)
    PI = get('producer_issue'); LW = get('load_wait'); ES = get('epilogue_store'); ML = get('mainloop')
    bysm = {}
    for (s, t), (b, e) in ML.items(): bysm.setdefault(s, []).append((b, t))
    Z = []; Y = []
    for s, lst in bysm.items():
        lst.sort(); ts = [t for _, t in lst]
        for j in range(12, len(ts) - 2):
            t, tp2 = ts[j], ts[j - 2]
            ib = PI[(s, t)][0]; lb, le = LW[(s, t)]
            if le - lb < 150: continue
            Z.append(ib - ES[(s, tp2)][0]); Y.append(le - ib)
    Z = np.array(Z, float); Y = np.array(Y, float)
    out = []
    for lo in range(-400, 3000, 200):
        m = (Z >= lo) & (Z < lo + 200)
        if m.sum() >= 40: out.append(f"{lo}:{np.median(Y[m]):.0f}({m.sum()})")
    print(f"{p[-28:]:28s} D={d['epi']:5d} " + ' '.join(out))
