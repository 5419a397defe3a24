#!/usr/bin/env python3
"""docs/experiments.md M176: each run's SM clock and tensor duty (the tile's
wgmma cycles over its measured period) beside validate's measured and
predicted period, every probe set's pingpong and bres runs.
  scripts/m176/clock_duty.py SETS_DIR OUT.txt     (SETS_DIR/sNN/{h100,h200}/runs)
Columns: set gpu kernel run clock_hz duty period_measured period_predicted change epi_delay mainloop_delay K N stages"""
import h5py, glob, sys, os, json, subprocess
PG=os.environ.get('PEGEMM','./build/cli/pegemm')
if len(sys.argv)!=3: sys.exit(__doc__)
out=open(sys.argv[2],'w')
for sd in sorted(glob.glob(sys.argv[1]+'/s*')):
    for g in ('h100','h200'):
        d=f'{sd}/{g}/runs'
        for kern in ('pingpong','bres'):
            cal=f'{d}/{kern}_ml_00000.h5'
            if not os.path.exists(cal): continue
            runs=sorted(p for p in glob.glob(f'{d}/{kern}_*.h5') if '_epi_s' not in p)
            r=subprocess.run([PG,'model','validate',cal]+runs+['--json','-','-q'],capture_output=True,text=True)
            try: js=json.loads(r.stdout)
            except Exception: print('fail',sd,kern,r.stderr[:200],file=sys.stderr); continue
            for row in js['runs']:
                p=row['path']
                if 'tile_period_measured' not in row: continue
                with h5py.File(p,'r') as f:
                    k=dict(f['kernel'].attrs); pr=dict(f['problem'].attrs)
                duty=2*k['tile_m']*k['tile_n']*pr['K']/8192/row['tile_period_measured']
                print(os.path.basename(sd),g,kern,os.path.basename(p),'%.0f'%k['sm_clock_hz'],'%.4f'%duty,'%.1f'%row['tile_period_measured'],'%.1f'%row['tile_period_predicted'],row['change'],k['epi_delay'],k['mainloop_delay'],pr['K'],pr['N'],k.get('stages',0),file=out)
