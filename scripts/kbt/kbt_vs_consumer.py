#!/usr/bin/env python3
"""bres: k-block 0's latency and landing gap binned by where the tile's consumer was (its order_wait start) when the load was issued, joining the diagnostic's clocks with the run file's trace (M45).
  scripts/kbt/kbt_vs_consumer.py DIR NAME...   (DIR/NAME.kbt and DIR/NAME.h5)"""
import sys
from kbt_lib import TI, get, med, joined
def run(d_dir, name, nk=6):
    rows=[]
    for c, v, evs, f, off in joined(d_dir, name):
        # consumer tile starts in local-tile order: both consumers' order_wait events sorted by ts
        ow=sorted([e for e in evs if e['name']=='order_wait'], key=lambda e:e['ts'])
        for i in range(3,min(TI-1,len(ow))):
            iss=get(v,c,i,0,0); lan=get(v,c,i,0,1); pl=get(v,c,i-1,nk-1,1)
            if iss<=0 or lan<=0: continue
            t0=ow[i]['ts']*f+off; t1=t0+ow[i]['dur']*f
            rows.append((lan-iss, lan-pl, t0-iss, t1-iss))
    print(name, 'n', len(rows), 'kb0 lat %.0f gap %.0f; the tile\'s consumer top (t0) - kb0 issue median %.0f; turn (t1) - issue %.0f' % (med([r[0] for r in rows]), med([r[1] for r in rows]), med([r[2] for r in rows]), med([r[3] for r in rows])))
    for lo,hi in [(-9999,-2000),(-2000,-1000),(-1000,-500),(-500,0),(0,500),(500,1000),(1000,2000),(2000,9999)]:
        sel=[r for r in rows if lo<=r[2]<hi]
        if sel: print('   t0 - issue in [%5d,%5d): n %5d  kb0 lat %.0f  gap %.0f' % (lo,hi,len(sel),med([r[0] for r in sel]),med([r[1] for r in sel])))
d=sys.argv[1]
for n in sys.argv[2:]: run(d,n)
