#!/usr/bin/python3
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals
from persm import starts
for p in sys.argv[1:]:
    d = load(p); pn = d['pn']; ph = d['phase']; sm = d['sm']; tile = d['tile']; D = d['epi']
    get = lambda name: intervals(d, name)
    def mean(name, sub=0):
        i = pn.index(name); m = ph == i; return (d['end'][m] - d['begin'][m]).mean() - sub
    per = starts(d); P = np.mean([np.mean(np.diff(x[10:-3])) for x in per.values()])
    PI = get('producer_issue'); LW = get('load_wait'); OW = get('order_wait'); ES = get('epilogue_store'); ML = get('mainloop')
    bysm = {}
    for (s, t), (b, e) in ML.items(): bysm.setdefault(s, []).append((b, t))
    lat = []; bind = 0; n = 0; slack = []
    for s, lst in bysm.items():
        lst.sort(); ts = [t for _, t in lst]
        for j in range(12, len(ts) - 2):
            t, t1, t2 = ts[j], ts[j - 1], ts[j - 2]
            lb, le = LW[(s, t)]
            if le - lb >= 150: lat.append(le - PI[(s, t)][0])
            y = OW[(s, t)][1] - ML[(s, t1)][1]; n += 1; bind += y > 300
    print(f"{os.path.basename(p):28s} D={D:5d} clk={d['hz']/1e6:6.0f} P={P:6.0f} ml={mean('mainloop'):5.0f} epi-D={mean('epilogue_regs', D):5.0f} store={mean('epilogue_store'):4.0f} ow={mean('order_wait'):5.0f} lw={mean('load_wait'):4.0f} lat(waited)={np.mean(lat):5.0f} n={len(lat):5d} drain-bound={bind/n:4.2f}")
