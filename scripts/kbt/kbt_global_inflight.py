#!/usr/bin/env python3
"""Each load's issue to landing against the loads in flight at its issue, on
the whole machine and on its own SM (docs/experiments.md M118): the
diagnostic build's per-k-block clocks (PG_KB_TRACE) put on the trace's
common time base, the middle 60% of the run, tiles past each CTA's first two.
Prints the least-squares law latency = a + g x machine + s x own, each
k-block's means, and the latency in five bins of the machine-wide count.

  scripts/kbt/kbt_global_inflight.py DIR NAME [KBLOCKS]   (DIR/NAME.kbt and DIR/NAME.h5)"""
import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kbt_lib import CT, TI, KK, joined, get
if len(sys.argv) < 3:
    print(__doc__, file=sys.stderr)
    sys.exit(2)
d=sys.argv[1]; name=sys.argv[2]; nk=int(sys.argv[3]) if len(sys.argv)>3 else 6
rows=[]
for c, v, evs, f, off in joined(d, name):
    for t in range(TI):
        for k in range(nk):
            i=get(v,c,t,k,0); l=get(v,c,t,k,1)
            if i>0 and l>0 and l>i:
                rows.append((c,t,k,(i-off)/f,(l-off)/f,f))
if not rows:
    print(name, 'no CTA of the clocks lines up with its trace', file=sys.stderr)
    sys.exit(1)
r=np.array(rows)
c,t,k,gi,gl,f=r.T
f=f[0]
lat=(gl-gi)*f
# global in-flight at each issue
ev_t=np.concatenate([gi,gl]); ev_d=np.concatenate([np.ones_like(gi),-np.ones_like(gl)])
o=np.argsort(ev_t,kind='stable'); ev_t=ev_t[o]; cnt=np.cumsum(ev_d[o])
idx=np.searchsorted(ev_t,gi,side='right')-1
g_inf=cnt[idx]
# own SM in-flight at issue
own=np.zeros(len(gi))
for cc in np.unique(c):
    m=np.where(c==cc)[0]
    gi_m,gl_m=gi[m],gl[m]
    for j,ii in enumerate(m):
        own[ii]=np.sum((gi_m<=gi[ii])&(gl_m>gi[ii]))
# steady window: middle 60% of time
lo,hi=np.percentile(gi,20),np.percentile(gi,80)
s=(gi>lo)&(gi<hi)&(t>=2)
print(name,'loads',s.sum(),'latency mean %.0f'%lat[s].mean(),'global in flight mean %.0f sd %.0f'%(g_inf[s].mean(),g_inf[s].std()),'own mean %.2f'%own[s].mean())
X=np.column_stack([np.ones(s.sum()),g_inf[s],own[s]])
cf,*_=np.linalg.lstsq(X,lat[s],rcond=None)
print('  latency = %.0f + %.2f x global + %.0f x own'%tuple(cf))
for kk in range(nk):
    m=s&(k==kk)
    print('  kb%d lat %.0f global %.0f own %.2f'%(kk,lat[m].mean(),g_inf[m].mean(),own[m].mean()))
# binned by global
qs=np.percentile(g_inf[s],[0,20,40,60,80,100])
for a,b in zip(qs[:-1],qs[1:]):
    m=s&(g_inf>=a)&(g_inf<b)
    print('  global %4.0f-%4.0f: lat %.0f (own %.2f, n %d)'%(a,b,lat[m].mean(),own[m].mean(),m.sum()))
