#!/usr/bin/env python3
"""docs/experiments.md M176 (post hoc, no model change): each run of the sets
predicted from its set's zero-delay run, as built (base), or with the run's
own measured SM clock given (oracle: --set clock_hz=, which the `dramq`
line's loads follow in nanoseconds).  The clock is an outcome of the run, not
a setting: this asks whether a predicted clock would help, not a model.
  scripts/m176/run_clock_trial.py base|oracle 66,67,...   (SETS=/work/sets; PP: validate args;
                                                          KERN=pingpong|bres)
One line per run: set, run, period error, period ok/MISS, waits ok/MISS."""
import sys, json, subprocess, glob, os, h5py, concurrent.futures as cf
PG=os.environ.get('PEGEMM','./build/cli/pegemm')
SETS=os.environ.get('SETS','/work/sets')
if len(sys.argv)!=3 or sys.argv[1] not in ('base','oracle'): sys.exit(__doc__)
extra=os.environ.get('PP','').split()
mode=sys.argv[1]   # base | oracle
sets=sys.argv[2].split(',')
kern=os.environ.get('KERN','pingpong')
jobs=[]
for s in sets:
    d=f'{SETS}/s{s}/h200/runs'; cal=f'{d}/{kern}_ml_00000.h5'
    if not os.path.exists(cal): continue
    for p in sorted(glob.glob(f'{d}/{kern}_*.h5')):
        if p==cal or '_epi_s' in p: continue
        jobs.append((s,cal,p))
def one(j):
    s,cal,p=j
    args=[PG,'model','validate',cal,p,'--json','-','-q']+extra
    if mode=='oracle':
        with h5py.File(p,'r') as f: c=f['kernel'].attrs['sm_clock_hz']
        args+=['--set',f'clock_hz={c}']
    r=subprocess.run(args,capture_output=True,text=True)
    try: js=json.loads(r.stdout)
    except Exception: return (s,os.path.basename(p),None,None,None,r.stderr[:100])
    row=js['runs'][-1]
    if 'tile_period_measured' not in row: return (s,os.path.basename(p),None,None,None,'np')
    e=row['tile_period_predicted']/row['tile_period_measured']-1
    return (s,os.path.basename(p),e,row['tile_period_ok'],row['waits_ok'],'')
with cf.ThreadPoolExecutor(2) as ex:
    res=list(ex.map(one,jobs))
for r in res:
    if r[2] is None: print('skip',r); continue
    print('s%s %-40s %+.2f%% %s %s'%(r[0],r[1],100*r[2],'ok' if r[3] else 'MISS','ok' if r[4] else 'MISS'))
