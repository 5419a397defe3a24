#!/usr/bin/env python3
"""Whether each load was issued while the SM's previous one was in flight, and the landing spacing then (M45).
  scripts/kbt/kbt_backlog.py RUN.kbt...
Raw layout: int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released] (kernel/ws_skeleton.cuh)."""
import sys
from kbt_lib import CT, TI, KK, load, get, med, mean, trace_events, clock_offset
def landing_spacing(path, nk=6):
    v=load(path)
    # consecutive landings in ring order across tiles; spacing distribution, and whether the load was issued before the previous landed (backlogged)
    sp_back=[]; sp_idle=[]; lat_back=[]; lat_idle=[]
    for c in range(CT):
        seq=[]
        for t in range(TI):
            for k in range(nk):
                iss,lan=get(v,c,t,k,0),get(v,c,t,k,1)
                if iss>0 and lan>0: seq.append((t,k,iss,lan))
        for (t0,k0,i0,l0),(t1,k1,i1,l1) in zip(seq,seq[1:]):
            if t1<2: continue
            if i1 < l0: sp_back.append(l1-l0); lat_back.append(l1-i1)
            else: sp_idle.append(l1-l0); lat_idle.append(l1-i1)
    n=len(sp_back)+len(sp_idle)
    print('%-16s backlogged %4.0f%%: landing spacing med %4.0f p10 %4.0f p90 %4.0f | not backlogged: issue->land med %4.0f p10 %4.0f p90 %4.0f (n %d)' % (path.split('/')[-1], 100*len(sp_back)/n, med(sp_back), __import__('statistics').quantiles(sp_back,n=10)[0], __import__('statistics').quantiles(sp_back,n=10)[-1], med(lat_idle), __import__('statistics').quantiles(lat_idle,n=10)[0] if len(lat_idle)>10 else 0, __import__('statistics').quantiles(lat_idle,n=10)[-1] if len(lat_idle)>10 else 0, len(lat_idle)))
for p in sys.argv[1:]: landing_spacing(p)
