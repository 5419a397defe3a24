#!/usr/bin/env python3
"""M136: the tile's first load and the producer's chain, kernel against model.

For each run the model is fitted on the zero-delay run beside it
(pingpong_ml_00000.h5 or bres_ml_00000.h5) with the run's what-ifs and
writes its own trace; for both traces, per tile (each SM's tiles in loop
order, the first two skipped):
  pos        first-load issue (producer_issue begin) - previous tile's mainloop begin
  prevend    that issue - previous tile's mainloop end
  lat        load_wait end - issue (the landing where the load bound; an upper bound elsewhere)
  lw         the load_wait
  piend      previous tile's issue end - tile k-2's mainloop begin (its last-stage issue)
  gap        previous tile's issue end -> this tile's producer_wait begin (untraced)
  pw         the producer_wait
Prints one line per run: period error, then kernel/model means.
   usage: first_load.py RUN.h5...      VX="--set ..." adds validate/fit arguments; CAL=RUN.h5 the calibration"""
import json, os, subprocess, sys
from multiprocessing import Pool

import numpy as np

from tile_phases import phase_intervals, tiles_in_loop_order

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))
VX = os.environ.get('VX', '').split()
STEPS = ['producer_issue', 'producer_wait', 'load_wait', 'mainloop']


def figures(path):
    D = phase_intervals(path, STEPS)
    ML, PI, PW, LW = D['mainloop'], D['producer_issue'], D['producer_wait'], D['load_wait']
    r = {n: [] for n in ('pos', 'prevend', 'lat', 'lw', 'piend', 'gap', 'pw')}
    for s, tiles in tiles_in_loop_order(ML).items():
        for i in range(2, len(tiles)):
            k, p, p2 = (s, tiles[i]), (s, tiles[i - 1]), (s, tiles[i - 2])
            if k not in PI or k not in LW or k not in PW or p not in PI:
                continue
            issue = PI[k][0]
            r['pos'].append(issue - ML[p][0])
            r['prevend'].append(issue - ML[p][1])
            r['lat'].append(LW[k][1] - issue)
            r['lw'].append(LW[k][1] - LW[k][0])
            r['piend'].append(PI[p][1] - ML[p2][0])
            r['gap'].append(PW[k][0] - PI[p][1])
            r['pw'].append(PW[k][1] - PW[k][0])
    return {n: np.mean(v) for n, v in r.items()}


def one(run):
    cal = os.environ.get('CAL') or os.path.join(os.path.dirname(run), ('pingpong' if 'pingpong' in os.path.basename(run) else 'bres') + '_ml_00000.h5')
    out = subprocess.run([PG, 'model', 'validate', cal, run, '--json', '-', '-q'] + VX, capture_output=True, text=True)
    if out.returncode not in (0, 1):  # 1: a run off the target, still reported
        return '%s: validate failed: %s' % (run, out.stderr.strip())
    r = json.loads(out.stdout)['runs'][-1]
    pred = '/tmp/m136_first_load_%d_%s' % (os.getpid(), os.path.basename(run))
    sets = sum([['--set', w] for w in r['what_if']], [])
    fit = subprocess.run([PG, 'model', 'fit', cal, '-q', '--trace-out', pred] + sets + VX, capture_output=True, text=True)
    if fit.returncode != 0:
        return '%s: fit failed: %s' % (run, fit.stderr.strip())
    k, m = figures(run), figures(pred)
    os.unlink(pred)
    err = r['tile_period_predicted'] / r['tile_period_measured'] - 1
    return '%-28s %+5.1f%%  ' % (os.path.basename(run)[:28], 100 * err) + ' '.join('%s %.0f/%.0f' % (n, k[n], m[n]) for n in k)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print('run                          period  kernel/model')
    with Pool(min(4, os.cpu_count() or 1)) as pool:
        for line in pool.map(one, sys.argv[1:]):
            print(line)
