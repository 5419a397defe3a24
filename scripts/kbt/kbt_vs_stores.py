#!/usr/bin/env python3
"""bres: k-block 0's latency binned by when this SM last and next issued a store (M45).
  scripts/kbt/kbt_vs_stores.py DIR NAME...   (DIR/NAME.kbt and DIR/NAME.h5)"""
import sys
from kbt_lib import TI, get, med, joined
def run(d_dir, name, nk=6):
    rows=[]
    for c, v, evs, f, off in joined(d_dir, name):
        stores=sorted([e['ts']*f+off for e in evs if e['name']=='epilogue_store'])
        tile0=sorted([e['ts']*f+off for e in evs if e['name']=='order_wait'])  # consumer tile starts (C load after drain)
        for i in range(3,TI-1):
            iss=get(v,c,i,0,0); lan=get(v,c,i,0,1)
            if iss<=0 or lan<=0: continue
            prev_store=max([s for s in stores if s<=iss], default=None)
            nxt_store=min([s for s in stores if s>iss], default=None)
            rows.append((lan-iss, iss-prev_store if prev_store else None, nxt_store-iss if nxt_store else None))
    print(name, 'kb0 loads', len(rows), 'median latency %.0f' % med([r[0] for r in rows]))
    bins=[(0,500),(500,1000),(1000,1500),(1500,2000),(2000,3000),(3000,5000),(5000,99999)]
    for lo,hi in bins:
        sel=[r[0] for r in rows if r[1] is not None and lo<=r[1]<hi]
        print('   last store issued %5d..%5d cycles before kb0 issue: n %5d  kb0 latency median %.0f' % (lo,hi,len(sel),med(sel)))
    for lo,hi in bins:
        sel=[r[0] for r in rows if r[2] is not None and lo<=r[2]<hi]
        print('   next store issued %5d..%5d cycles after  kb0 issue: n %5d  kb0 latency median %.0f' % (lo,hi,len(sel),med(sel)))
for n in sys.argv[2:]: run(sys.argv[1], n)
