#!/usr/bin/env python3
"""Per k-block: the SM's loads in flight at its issue, issue to landing, landing after the previous landing (M45).
  scripts/kbt/kbt_inflight.py RUN.kbt...
Raw layout: int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released] (kernel/ws_skeleton.cuh)."""
import sys
from kbt_lib import CT, TI, KK, load, get, med, mean, trace_events, clock_offset
def go(path, nk=6):
    v=load(path)
    res={k:[] for k in range(nk)}
    for c in range(CT):
        seq=[(get(v,c,t,k,0),get(v,c,t,k,1),t,k) for t in range(TI) for k in range(nk)]
        for idx,(i,l,t,k) in enumerate(seq):
            if t<3 or t>=TI-1 or i<=0 or l<=0: continue
            ahead=sum(1 for (i2,l2,_,_) in seq[max(0,idx-8):idx] if l2>i)  # issued before, landed after my issue
            # time from my issue until the last load ahead lands
            last_ahead=max([l2 for (i2,l2,_,_) in seq[max(0,idx-8):idx]], default=i)
            res[k].append((ahead, l-i, l-max(last_ahead,i)))
    print(path.split('/')[-1])
    for k in range(nk):
        r=res[k]
        print('  kb%d  loads ahead at issue mean %.2f | issue->land mean %.0f | land after the previous landing mean %.0f' % (k, mean([x[0] for x in r]), mean([x[1] for x in r]), mean([x[2] for x in r])))
for p in sys.argv[1:]: go(p)
