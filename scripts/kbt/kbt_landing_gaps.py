#!/usr/bin/env python3
"""Mean landing spacing and issue spacing per k-block, and the tile period from k-block 0 landings (M45).
  scripts/kbt/kbt_landing_gaps.py RUN.kbt...
Raw layout: int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released] (kernel/ws_skeleton.cuh)."""
import sys
from kbt_lib import CT, TI, KK, load, get, med, mean, trace_events, clock_offset
def per_k(path, nk=6):
    v=load(path)
    sp={k:[] for k in range(nk)}; iss_gap={k:[] for k in range(nk)}; per=[]
    for c in range(CT):
        for t in range(3, TI-1):
            for k in range(nk):
                pl = get(v,c,t-1,nk-1,1) if k==0 else get(v,c,t,k-1,1)
                pi = get(v,c,t-1,nk-1,0) if k==0 else get(v,c,t,k-1,0)
                l, i = get(v,c,t,k,1), get(v,c,t,k,0)
                if min(pl,l,pi,i)>0: sp[k].append(l-pl); iss_gap[k].append(i-pi)
            a,b=get(v,c,t,0,1),get(v,c,t-1,0,1)
            if a>0 and b>0: per.append(a-b)
    print('%-16s tile period (kb0 landings) mean %.0f med %.0f' % (path.split('/')[-1], mean(per), med(per)))
    print('   landing spacing mean by k: ' + ' '.join('%d:%.0f' % (k, mean(sp[k])) for k in range(nk)) + '   sum %.0f' % sum(mean(sp[k]) for k in range(nk)))
    print('   issue spacing mean by k:   ' + ' '.join('%d:%.0f' % (k, mean(iss_gap[k])) for k in range(nk)))
for p in sys.argv[1:]: per_k(p)
