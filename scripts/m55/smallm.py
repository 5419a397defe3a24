#!/usr/bin/python3
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals
for p in sys.argv[1:]:
    d = load(p); pn = d['pn']; ph = d['phase']; sm = d['sm']; tile = d['tile']
    get = lambda name: intervals(d, name)
    PI = get('producer_issue'); LW = get('load_wait'); ML = get('mainloop'); OW = get('order_wait'); EP = get('epilogue_regs')
    bysm = {}
    for (s, t), (b, e) in ML.items(): bysm.setdefault(s, []).append((b, t))
    T = np.mean([len(v) for v in bysm.values()])
    lat = {}; ml = {}; lw = {}; gaps = []
    for s, lst in bysm.items():
        lst.sort()
        for j, (b, t) in enumerate(lst):
            lb, le = LW[(s, t)]
            ml.setdefault(min(j, 9), []).append(ML[(s, t)][1] - ML[(s, t)][0]); lw.setdefault(min(j, 9), []).append(le - lb)
            if j >= 1 and le - lb >= 150 and (s, t) in PI: lat.setdefault(min(j, 9), []).append(le - PI[(s, t)][0])
        starts = [b for b, _ in lst]
        gaps += list(np.diff(starts))
    allat = np.concatenate([v for v in lat.values()]) if lat else np.array([np.nan])
    print(f"{p.split('/')[-1]:22s} T={T:5.1f} clk={d['hz']/1e6:5.0f} meangap={np.mean(gaps):6.0f} ml={np.mean(np.concatenate(list(ml.values()))):5.0f} lw={np.mean(np.concatenate(list(lw.values()))):4.0f} lat(waited, j>=1)={np.nanmean(allat):5.0f} ({len(allat)})  ml by tile j: " + ' '.join(f"{np.mean(ml[j]):.0f}" for j in sorted(ml))[:80])
