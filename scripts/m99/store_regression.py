#!/usr/bin/env python3
"""docs/experiments.md M99: pingpong's loop per tile against the other
warpgroup's store window and this warpgroup's drain-bound start.

  scripts/m99/store_regression.py RUN.h5...

Per run, the least-squares fit loop = a + b_ov x ov + b_late x late over its
tiles: ov = the loop's overlap with the 3,000 cycles from the start of the
other warpgroup's store, late = how long after the other warpgroup's loop
end (less 200, clipped to 0..2,000) this warpgroup's order_wait ended.  a is
the loop neither slows.  Needs numpy and h5py."""
import sys, numpy as np, h5py
def names(a): return [x.decode() if isinstance(x,bytes) else str(x) for x in a]
span=3000
for fn in sys.argv[1:]:
    f=h5py.File(fn,'r'); t=f['trace']
    pn=names(t.attrs['phase_names']); rn=names(t.attrs['role_names'])
    ph=t['phase'][:]; ro=t['role'][:]; sm=t['sm'][:]; wp=t['warp'][:]
    b=t['begin'][:].astype(np.int64); e=t['end'][:].astype(np.int64)
    spin=float(f['kernel'].attrs.get('mainloop_delay',0))
    ML=pn.index('mainloop'); ES=pn.index('epilogue_store'); OW=pn.index('order_wait')
    cons=ro==rn.index('consumer')
    W=[];OV=[];H=[];C=[]
    for u in np.unique(sm):
        m=cons&(sm==u)
        ml=m&(ph==ML); idx=np.argsort(b[ml]); mb=b[ml][idx]; me=e[ml][idx]; mw=wp[ml][idx]
        es=m&(ph==ES); sb=b[es]; sw=wp[es]
        ow=m&(ph==OW); ob=b[ow]; oe=e[ow]; owp=wp[ow]
        for i in range(2,len(mb)-1):
            cand=sb[(sw!=mw[i])&(sb>me[i-1])]
            if len(cand)==0: continue
            o=cand.min(); w=me[i]-mb[i]-spin
            lo=max(o,mb[i]); hi=min(o+span,mb[i]+w)
            # own order_wait end just before this loop
            k=np.where((owp==mw[i])&(oe<=mb[i]+5))[0]
            if len(k)==0: continue
            k=k[np.argmax(oe[k])]
            c=oe[k]-(me[i-1]+spin*0)  # own order_wait end - other's loop end (incl spin)
            W.append(w);OV.append(max(0,hi-lo));H.append(mb[i]-oe[k]);C.append(c)
    W=np.array(W,float);OV=np.array(OV,float);C=np.array(C,float)
    # drain-boundness: order_wait ended well after the other's mainloop end (+handover ~130)
    late=np.clip(C-200,0,2000)
    X=np.column_stack([np.ones_like(W),OV,late])
    coef,*_=np.linalg.lstsq(X,W,rcond=None)
    print('%-32s loop %5.0f ov %5.0f late %5.0f | a %5.0f b_ov %.3f b_late %.3f | corr(late,W) %.2f'%(fn.split('/')[-1],W.mean(),OV.mean(),late.mean(),coef[0],coef[1],coef[2],np.corrcoef(late,W)[0,1]))
