#!/usr/bin/env python3
"""M140: every traced phase's mean in a measured run against the model's
trace of the same setting (epilogue_regs less the run's --epi-delay), and
the difference: which phase the model has long or short.
   usage: phase_means.py RUN.h5 MODEL.h5"""
import sys

import h5py
import numpy as np

def means(path):
    with h5py.File(path,'r') as f:
        t=f['trace']; names=[x.decode() if isinstance(x,bytes) else x for x in t.attrs['phase_names']]
        ph=t['phase'][:]; b=t['begin'][:].astype(float); e=t['end'][:].astype(float); tile=t['tile'][:]
        D=float(f['kernel'].attrs['epi_delay'])
    out={}
    for i,n in enumerate(names):
        m=ph==i
        if m.sum(): out[n]=(e[m]-b[m]).mean() - (D if n=='epilogue_regs' else 0)
    return out
if len(sys.argv) != 3:
    sys.exit(__doc__)
a,b=sys.argv[1],sys.argv[2]
ma,mb=means(a),means(b)
print(a.split('/')[-1], ' '.join('%s %.0f/%.0f(%+.0f)'%(n,ma[n],mb.get(n,np.nan),mb.get(n,np.nan)-ma[n]) for n in ma))
