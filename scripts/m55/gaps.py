#!/usr/bin/python3
# mean tile-start gap by gap index (earliest warp per tile, per SM)
import sys, numpy as np
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coh import load
from persm import starts
for p in sys.argv[1:]:
    d = load(p); per = starts(d)
    n = min(len(v) for v in per.values())
    G = np.array([np.diff(v[:n]) for v in per.values()])
    m = G.mean(axis=0)
    print(f"{p.split('/')[-1]:22s} n={n:3d} " + ' '.join(f"{x:5.0f}" for x in m[:24]))
