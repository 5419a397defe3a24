#!/usr/bin/python3
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load
def starts(d):
    sm = d['sm']; g = (d['begin'] - d['aclk'][sm]) + (d['ans'][sm] - d['ans'].min()) * d['hz'] * 1e-9
    tiles = d['tile']; order = np.lexsort((g, tiles))
    ut, first = np.unique(tiles[order], return_index=True)
    ts = g[order][first]; tsm = sm[order][first]
    return {s: np.sort(ts[tsm == s]) for s in np.unique(tsm)}
def main():
 for p in sys.argv[1:]:
     d = load(p); per = starts(d)
     sms = np.array(sorted(per)); pr = np.array([np.mean(np.diff(per[s][10:-3])) for s in sms])
     end = np.array([per[s][-1] for s in sms])
     # TPC partner correlation
     pair = {}
     for s, v in zip(sms, pr): pair.setdefault(s // 2, []).append(v)
     a = np.array([v for v in pair.values() if len(v) == 2])
     c = np.corrcoef(a[:, 0], a[:, 1])[0, 1]
     print(f"{p[-32:]:32s} epi={d['epi']:5d} per-SM period mean={pr.mean():6.0f} sd={pr.std():5.0f} min={pr.min():6.0f} max={pr.max():6.0f} tpc-corr={c:+.2f} last-start spread={end.max()-end.min():7.0f}")

if __name__=='__main__': main()
