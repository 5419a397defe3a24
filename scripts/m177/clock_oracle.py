#!/usr/bin/env python3
"""docs/experiments.md M177 (post hoc, no model change): every pingpong run of
sets 66-81 predicted from its set's zero-delay run, with the run's own
measured SM clock (an outcome of the run, so an oracle, not a model) given to
the model as MODES:
  none   the built-in;
  loads  --set clock_hz=: the `dramq` line holds the loads in ns (M176's trial);
  drain  store_drain.mean moved by its fitted mean x (clock / calibration's
         clock - 1): the staging buffer's drain held in ns;
  loads,drain  both.
One line per run: set, run, period error, period ok/MISS, waits ok/MISS
(total them with scripts/m176/by_kind.awk).
  scripts/m177/clock_oracle.py MODES   (SETS=/work/sets; PP: more validate
                                        args; ONLY: a regex on the file name)"""
import concurrent.futures as cf
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import h5py

PG = os.environ.get('PEGEMM', './build/cli/pegemm')
SETS = os.environ.get('SETS', '/work/sets')
EXTRA = os.environ.get('PP', '').split()
ONLY = os.environ.get('ONLY', '')


def clock(path):
    with h5py.File(path, 'r') as f:
        return float(f['kernel'].attrs['sm_clock_hz'])


def fitted_drain(cal, fit_args=None):
    """the calibration's fitted store_drain mean (pegemm model fit -o; with
    FIT_ARGS in place of PP's, which may hold validate-only args)"""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'fit.sched')
        args = EXTRA if fit_args is None else fit_args
        subprocess.run([PG, 'model', 'fit', cal, '-o', out] + args, capture_output=True, check=True)
        with open(out) as f:
            m = re.search(r'^latency store_drain .*?mean=([0-9.e+-]+)', f.read(), re.M)
    if not m:
        sys.exit(f'no store_drain line in the fit of {cal}')
    return float(m.group(1))


def jobs_of(modes):
    jobs = []
    for s in range(66, 82):
        d = f'{SETS}/s{s}/h200/runs'
        cal = f'{d}/pingpong_ml_00000.h5'
        if not os.path.exists(cal):
            continue
        drain = fitted_drain(cal) if 'drain' in modes else 0
        for p in sorted(glob.glob(f'{d}/pingpong_*.h5')):
            n = os.path.basename(p)
            if p == cal or '_epi_s' in n or (ONLY and not re.search(ONLY, n)):
                continue
            jobs.append((s, cal, p, clock(p), clock(p) / clock(cal), drain))
    return jobs


def validate(cal, p, clock_hz=None, drain_delta=None):
    """validate's row for run P predicted from CAL, at clock_hz (--set
    clock_hz=: the loads in ns) and with store_drain's mean moved by
    drain_delta (the drain in ns), each where given; (None, why) where
    the run is not predicted"""
    args = [PG, 'model', 'validate', cal, p, '--json', '-', '-q'] + EXTRA
    if clock_hz is not None:
        args += ['--set', f'clock_hz={clock_hz:.6g}']
    if drain_delta is not None:
        args += ['--delta', f'store_drain.mean={drain_delta:.6g}']
    r = subprocess.run(args, capture_output=True, text=True)
    try:
        row = json.loads(r.stdout)['runs'][-1]
    except (ValueError, KeyError, IndexError):
        return None, r.stderr[:100]
    if 'tile_period_measured' not in row:
        return None, 'not predicted'
    return row, ''


def one(job, modes):
    s, cal, p, clk, ratio, drain = job
    row, why = validate(cal, p, clk if 'loads' in modes else None,
                        drain * (ratio - 1) if 'drain' in modes else None)
    if row is None:
        return f'skip s{s} {os.path.basename(p)} {why}'
    e = row['tile_period_predicted'] / row['tile_period_measured'] - 1
    ok = lambda b: 'ok' if b else 'MISS'
    return 's%d %-40s %+.2f%% %s %s' % (s, os.path.basename(p), 100 * e, ok(row['tile_period_ok']), ok(row['waits_ok']))


def main():
    if len(sys.argv) != 2 or not set(sys.argv[1].split(',')) <= {'none', 'loads', 'drain'}:
        sys.exit(__doc__)
    modes = sys.argv[1].split(',')
    with cf.ThreadPoolExecutor(2) as ex:
        for line in ex.map(lambda j: one(j, modes), jobs_of(modes)):
            print(line)


if __name__ == '__main__':
    main()
