#!/usr/bin/env python3
"""M156: pingpong's producer per SM group, a prefetch build against a plain
one.  The SMs are grouped by their tiles' index mod 3 (at N = 768 and 132
CTAs one group's pairs all open a row block: the SMs that prefetch in a
build with --a-prefetch D).  Per group, tiles 8 .. n - 9 of each SM in the
producer's order: the median untraced gap from the previous tile's last
issue (producer_issue's end) to this tile's wait, the mean producer wait,
the mean load wait, the share of tiles whose load wait is over 250 cycles
and, over those, the median of the first issue to the load's landing.
   usage: producer_gap_by_sm.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals
if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    P=phase_intervals(path,('producer_wait','producer_issue','load_wait','order_wait'))
    pw,pi,lw,ow=[P[x] for x in ('producer_wait','producer_issue','load_wait','order_wait')]
    per={}
    for (s,k),(b,e) in pw.items(): per.setdefault(s,[]).append((b,k))
    res={}
    for s,l in per.items():
        l.sort()
        grp=l[0][1]%3
        for j in range(8,len(l)-8):
            b,k=l[j]; kp=l[j-1][1]
            gap=b-pi[(s,kp)][1]
            lat=lw[(s,k)][1]-pw[(s,k)][1]; w=lw[(s,k)][1]-lw[(s,k)][0]
            res.setdefault(grp,[]).append((gap,lat,w,pw[(s,k)][1]-pw[(s,k)][0]))
    print(path.split('/')[-1])
    for g,v in sorted(res.items()):
        v=np.array(v); m=v[:,2]>250
        print('   SMs tile%%3=%d: producer gap med %5.0f | pw %4.0f | lw mean %4.0f | waiting %2.0f%% issue->landed med (waiting) %5.0f'%(g,np.median(v[:,0]),v[:,3].mean(),v[:,2].mean(),100*m.mean(),np.median(v[m,1])))
