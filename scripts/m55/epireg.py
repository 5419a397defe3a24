#!/usr/bin/python3
# per tile: A's epilogue work (tile k) against overlaps with B's phases
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load, intervals
def ov(a0, a1, b0, b1): return max(0, min(a1, b1) - max(a0, b0))
ALL = []
for p in sys.argv[1:]:
    d = load(p); pn = d['pn']; ph = d['phase']; sm = d['sm']; tile = d['tile']; D = d['epi']
    get = lambda name: intervals(d, name)
    EP = get('epilogue_regs'); ES = get('epilogue_store'); ML = get('mainloop'); OW = get('order_wait'); LW = get('load_wait')
    bysm = {}
    for (s, t), (b, e) in ML.items(): bysm.setdefault(s, []).append((b, t))
    rows = []
    for s, lst in bysm.items():
        lst.sort(); ts = [t for _, t in lst]
        for j in range(12, len(ts) - 2):
            t, tp, tn = ts[j], ts[j - 1], ts[j + 1]
            eb, ee = EP[(s, t)]; we = ee - D
            bml = ML[(s, tn)]; blw = LW[(s, tn)]
            bdrain = (ES[(s, tp)][0], OW[(s, tn)][1])          # B's store start (k-1) -> B's turn end (k+1)
            bspin = (EP[(s, tp)][1] - D, EP[(s, tp)][1])
            own_ml = ML[(s, t)]
            rows.append([we - eb, ov(eb, we, *bml), ov(eb, we, *blw), ov(eb, we, *bdrain), ov(eb, we, *bspin), eb - own_ml[1]])
    R = np.array(rows, float); ALL.append(R)
    print(f"{p[-30:]:30s} D={D:5d} work={R[:,0].mean():5.0f} means: ovML={R[:,1].mean():5.0f} ovLW={R[:,2].mean():5.0f} ovDrain={R[:,3].mean():5.0f} ovSpin={R[:,4].mean():5.0f}")
R = np.concatenate(ALL)
# rates of progress: W0 = r_ml ov_ml + ov_lw + r_dr ov_dr + r_sp ov_sp  (B waiting for its load: full speed)
y = R[:, 2]; X = np.c_[np.ones(len(y)), -R[:, 1], -R[:, 3], -R[:, 4]]
c = np.linalg.lstsq(X, y, rcond=None)[0]
print(f"pooled: W0={c[0]:5.0f} rate during B's ML={c[1]:.2f} during B's store/drain/turn-wait={c[2]:.2f} during B's spin={c[3]:.2f}")
