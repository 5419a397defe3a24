#!/usr/bin/env python3
"""Per k-block medians of a diagnostic run (PG_KB_TRACE, docs/experiments.md M45): issue to landing, landing to the previous release, release spacing.
  scripts/kbt/kbt_per_k.py RUN.kbt...
Raw layout: int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released] (kernel/ws_skeleton.cuh)."""
import sys
from kbt_lib import CT, TI, KK, load, get, med, mean, trace_events, clock_offset
def analyze(path, nk=6):
    v = load(path)
    rows = []
    for c in range(CT):
        for t in range(2, TI-1):   # skip warm-up tiles
            iss = [get(v,c,t,k,0) for k in range(nk)]
            lan = [get(v,c,t,k,1) for k in range(nk)]
            rel = [get(v,c,t,k,2) for k in range(nk)]
            if min(iss+lan+rel) <= 0: continue
            rows.append((iss, lan, rel))
    print(path.split('/')[-1], 'tiles', len(rows))
    # per k: issue->landed(observed), landed gap from previous release (stall), release spacing
    print(' k  iss->land  land-rel[k-1]  rel[k]-rel[k-1]  rel[k]-land[k]  iss[k]-land[0]')
    for k in range(nk):
        a = med([r[1][k]-r[0][k] for r in rows])
        b = med([r[1][k]-r[2][k-1] for r in rows]) if k else float('nan')
        c_ = med([r[2][k]-r[2][k-1] for r in rows]) if k else float('nan')
        d = med([r[2][k]-r[1][k] for r in rows])
        e = med([r[0][k]-r[1][0] for r in rows])
        print('%2d %9.0f %13.0f %16.0f %15.0f %14.0f' % (k, a, b, c_, d, e))
    # loop length: land[0] -> rel[last]
    print(' loop land0->rel_last median %.0f' % med([r[2][nk-1]-r[1][0] for r in rows]))
for p in sys.argv[1:]: analyze(p)
