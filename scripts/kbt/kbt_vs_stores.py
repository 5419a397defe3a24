#!/usr/bin/env python3
"""bres: k-block 0's latency binned by when this SM last and next issued a store (M45).
  scripts/kbt/kbt_vs_stores.py DIR NAME...   (DIR/NAME.kbt and DIR/NAME.h5)"""
import json, os, struct, subprocess, sys, tempfile, statistics as st
PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))
CT, TI, KK = 132, 64, 16
def kbt(path):
    raw=open(path,'rb').read(); return struct.unpack('<%dq'%(len(raw)//8), raw)
def get(v,c,t,k,w): return v[((c*TI+t)*KK+k)*3+w]
med=lambda x: st.median(x) if x else float('nan')
def run(d_dir, name, nk=6):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([PG,'trace','export','--chrome','%s/%s.h5'%(d_dir,name),'-o',tmp+'/t.json','-q'],check=True)
        d=json.load(open(tmp+'/t.json'))
    f=d['otherData']['sm_clock_hz']/1e6  # cycles per us
    v=kbt('%s/%s.kbt'%(d_dir,name))
    by={}
    for e in d['traceEvents']:
        if e.get('ph')!='X': continue
        by.setdefault(e['pid'],[]).append(e)
    rows=[]
    for c in range(CT):
        evs=by.get(c,[])
        piss=sorted([e for e in evs if e['name']=='producer_issue'], key=lambda e:e['ts'])
        if len(piss)<TI: continue
        # offset: kbt cycles = ts*f + off, from producer_issue start == kbt issue k=0
        offs=[get(v,c,i,0,0)-piss[i]['ts']*f for i in range(TI) if get(v,c,i,0,0)>0]
        off=med(offs)
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
