#!/usr/bin/env python3
"""docs/experiments.md M99: pingpong's loop by where the other warpgroup's
store started.

  scripts/m99/store_window.py RUN.h5...

One row per run: the consumer's mean loop (mainloop less the run's
--mainloop-delay) over the tiles whose other warpgroup's first
`epilogue_store` start after 3,000 cycles before the loop's start falls in
each 500-cycle bin of (that store's start - the loop's start), from -1,000
to 6,000; '.' where a bin holds fewer than 40 tiles.  Needs numpy and
h5py."""
import sys, numpy as np, h5py
def names(a): return [x.decode() if isinstance(x,bytes) else str(x) for x in a]
bins=list(range(-1000,6001,500))
print('%-26s'%'run'+''.join('%7d'%b for b in bins[:-1]))
for fn in sys.argv[1:]:
    f=h5py.File(fn,'r'); t=f['trace']
    pn=names(t.attrs['phase_names']); rn=names(t.attrs['role_names'])
    ph=t['phase'][:]; ro=t['role'][:]; sm=t['sm'][:]; wp=t['warp'][:]
    b=t['begin'][:].astype(np.int64); e=t['end'][:].astype(np.int64)
    spin=float(f['kernel'].attrs.get('mainloop_delay',0))
    ML=pn.index('mainloop'); ES=pn.index('epilogue_store')
    cons=ro==rn.index('consumer')
    ST=[];LOOP=[]
    for u in np.unique(sm):
        m=cons&(sm==u)
        ml=m&(ph==ML); idx=np.argsort(b[ml]); mb=b[ml][idx]; me=e[ml][idx]; mw=wp[ml][idx]
        es=m&(ph==ES); sb=b[es]; sw=wp[es]
        for i in range(2,len(mb)-1):
            o=sb[(sw!=mw[i])]
            o=o[(o>mb[i]-3000)]
            if len(o)==0: continue
            ST.append(o.min()-mb[i]); LOOP.append(me[i]-mb[i]-spin)
    ST=np.array(ST);LOOP=np.array(LOOP)
    row='%-26s'%fn.split('/')[-1][9:-3]
    for lo,hi in zip(bins[:-1],bins[1:]):
        s=(ST>=lo)&(ST<hi)
        row+='%7s'%('%.0f'%LOOP[s].mean() if s.sum()>=40 else '.')
    print(row, ' loop %.0f'%LOOP.mean())
