#!/usr/bin/env python3
"""bres: k-block 0's latency and landing gap by whether its A row block lies in another page than the previous tile's (M45; N = 768, 132 CTAs).
  scripts/kbt/kbt_pages.py RUN.kbt...
Raw layout: int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released] (kernel/ws_skeleton.cuh)."""
import sys
from kbt_lib import CT, TI, KK, load, get, med, mean, trace_events, clock_offset
def go(path, page=2<<20, nk=6):
    v=load(path)
    same=[];new=[]
    for c in range(CT):
        g=c//4
        for i in range(3,TI-1):
            mb=g+i*33; mbp=g+(i-1)*33
            iss,lan=get(v,c,i,0,0),get(v,c,i,0,1)
            pl=get(v,c,i-1,5,1)
            if iss<=0 or lan<=0: continue
            x=(lan-iss, lan-pl)
            (new if (mb*49152)//page != (mbp*49152)//page else same).append(x)
    print('%-16s page %d KB: kb0 on the previous tile\'s A page: n %d lat %.0f gap %.0f | new page: n %d lat %.0f gap %.0f' % (path.split('/')[-1], page>>10, len(same), med([a for a,b in same]), med([b for a,b in same]), len(new), med([a for a,b in new]), med([b for a,b in new])))
for p in sys.argv[1:]:
    for pg in (64<<10, 2<<20): go(p, pg)
