#!/usr/bin/env python3
"""docs/experiments.md M176: the clock's rise against the tensor duty's fall,
per kernel and kind of probe (clock_duty.py's table): the least-squares
slope through the calibration point and the exponent of a power law.
  scripts/m176/clock_slopes.py CLOCK_DUTY.txt"""
import collections, math, sys
if len(sys.argv)!=2: sys.exit(__doc__)
rows=[l.split() for l in open(sys.argv[1])]
cal={}
for r in rows:
    if r[3] in ('pingpong_ml_00000.h5','bres_ml_00000.h5'): cal[(r[0],r[1],r[2])]=(float(r[4]),float(r[5]))
pts=collections.defaultdict(list)
for r in rows:
    c=cal.get((r[0],r[1],r[2]))
    if not c or r[3].endswith('ml_00000.h5') and r[3] in('pingpong_ml_00000.h5','bres_ml_00000.h5'): continue
    cr=float(r[4])/c[0]; du=float(r[5]); dc=c[1]
    kind='spin' if int(r[10])>0 and int(r[9])==0 else 'epi' if int(r[9])>0 and int(r[10])==0 else 'both' if int(r[9])>0 else 'zero'
    pts[(r[2],kind)].append((dc,du,cr,r[0],r[3]))
for key in sorted(pts):
    xs=pts[key]
    # slope of clock ratio on (dc - du)
    sx=sum(p[0]-p[1] for p in xs); sy=sum(p[2]-1 for p in xs)
    sxx=sum((p[0]-p[1])**2 for p in xs); sxy=sum((p[0]-p[1])*(p[2]-1) for p in xs)
    b=sxy/sxx if sxx else 0
    # exponent: log cr = -e log(du/dc)
    lx=[math.log(p[1]/p[0]) for p in xs]; ly=[math.log(p[2]) for p in xs]
    e=-sum(a*b2 for a,b2 in zip(lx,ly))/sum(a*a for a in lx) if sum(a*a for a in lx) else 0
    res=[p[2]-1-b*(p[0]-p[1]) for p in xs]
    print(key,len(xs),'slope through 0: %.3f per unit duty drop; exponent %.3f; rms resid %.4f'%(b,e,math.sqrt(sum(r*r for r in res)/len(res))))
