#!/usr/bin/env python3
"""Does an SM serve its loads in order? (docs/experiments.md M119.)  Each
load of a diagnostic run (PG_KB_TRACE clocks) against the one its SM issued
before it: the share issued while that one was in flight, the latency of
those that were not, the landing gap of those that were, and the best fit
of landed = max(issue + L0, previous landing + tau) over a grid (mean
absolute error), with each k-block's mean beside it.

  scripts/kbt/kbt_fifo.py DIR NAME KBLOCKS      (DIR/NAME.kbt)"""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kbt_lib import CT, TI, KK, load, get
if len(sys.argv) != 4:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
d=sys.argv[1]; name=sys.argv[2]; nk=int(sys.argv[3])
v=load('%s/%s.kbt'%(d,name))
rows=[]
for c in range(CT):
    seq=[]
    for t in range(TI):
        for k in range(nk):
            i=get(v,c,t,k,0); l=get(v,c,t,k,1)
            if i>0 and l>i: seq.append((i,l,k,t))
    seq.sort()
    for a,b in zip(seq[:-1],seq[1:]):
        if b[3]<2: continue
        rows.append((b[1]-b[0], a[1]-b[0], b[1]-a[1], b[2]))
r=np.array(rows,float)
lat,prev_left,gap,k=r.T
q=prev_left>0   # previous load still in flight at this issue
print('%-16s loads %d, issued behind the previous one in flight %.0f%%'%(name,len(r),100*q.mean()))
print('   not behind: latency p10/50/90 %.0f/%.0f/%.0f'%tuple(np.percentile(lat[~q],[10,50,90])))
print('   behind:     landing after the previous landing p10/50/90 %.0f/%.0f/%.0f ; latency %.0f'%(*np.percentile(gap[q],[10,50,90]),lat[q].mean()))
# FIFO fit: land = max(issue + L0, prev_land + tau): grid search
best=None
for L0 in range(600,2200,50):
    for tau in range(100,1200,50):
        pred=np.maximum(L0, prev_left+tau)
        e=np.mean(np.abs(pred-lat))
        if best is None or e<best[0]: best=(e,L0,tau)
print('   FIFO fit: L0 %d tau %d, mean |error| %.0f (latency sd %.0f)'%(best[1],best[2],best[0],lat.std()))
for kk in range(nk):
    m=k==kk
    pred=np.maximum(best[1], prev_left[m]+best[2])
    print('     kb%d lat %.0f fifo %.0f behind %.0f%%'%(kk,lat[m].mean(),pred.mean(),100*q[m].mean()))
