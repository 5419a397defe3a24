#!/usr/bin/env python3
"""docs/experiments.md M178 (post hoc): every pingpong run of sets 66-81
predicted from its set's zero-delay run with a *predicted* SM clock in place
of M177's measured one. The clock follows the tensor duty at the power cap:
  f = f_cal * (x / x_cal) ** (-E), capped at FMAX,  x = d + R + G t,
d = the tile's wgmma cycles (2 tile_m tile_n K / 8192) over the predicted
period (the tensor duty), t = the calibration tile's wgmma cycles over the
predicted period (the tile rate: the loads and stores that come with every
tile, in units of the calibration's duty). E = 1/3: dynamic power goes as
f V^2 and V follows f over the boost range, so at the power cap f^3 x holds.
MODE=ns: the clock goes to the loads (--set clock_hz=) and to the drain
(store_drain held in ns), as M177's `loads,drain`, iterated with the model
(the period moves with the clock) ITER times. MODE=cycles: the built-in's
period, and the law's clock from it (the clock law alone on trial).
MODE=delta (M179): only the clock the run's delays move is held in ns: the
loads and the drain scaled by f / f0, f0 the law's clock at the built-in's
period for the same run with its delays zeroed (a copy of its file with
epi_delay = mainloop_delay = 0); a run with no delay is the built-in's.
  scripts/m178/clock_law.py   (E R G FMAX ITER MODE SETS SET_LIST KERN PP ONLY env)
One line per run: set run period-error period-ok waits-ok clock clock-error"""
import concurrent.futures as cf
import glob
import os
import re
import shutil
import sys
import tempfile

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'm177'))
from clock_oracle import fitted_drain, validate  # noqa: E402

SETS = os.environ.get('SETS', '/work/sets')
ONLY = os.environ.get('ONLY', '')
E = float(os.environ.get('E', '0.3333'))
R = float(os.environ.get('R', '0.35'))
G = float(os.environ.get('G', '0.4'))
MODE = os.environ.get('MODE', 'ns')
KERN = os.environ.get('KERN', 'pingpong')
SET_LIST = [int(x) for x in os.environ.get('SET_LIST', ','.join(map(str, range(66, 82)))).split(',')]
FMAX = float(os.environ.get('FMAX', '1.98e9'))
ITER = int(os.environ.get('ITER', '2'))


def attrs(path):
    with h5py.File(path, 'r') as f:
        k = dict(f['kernel'].attrs)
        pr = dict(f['problem'].attrs)
    return float(k['sm_clock_hz']), 2.0 * k['tile_m'] * k['tile_n'] * pr['K'] / 8192


def law(f_cal, d_cal, mma_cal, mma, period):
    """the clock at the power cap for a tile of `mma` wgmma cycles run every
    `period` cycles, from the calibration's (f_cal, d_cal, mma_cal)"""
    x = mma / period + R + G * mma_cal / period
    return min(FMAX, f_cal * (x / (d_cal + R + G * d_cal)) ** (-E))


def delays(path):
    with h5py.File(path, 'r') as f:
        k = f['kernel'].attrs
        return int(k['epi_delay']), int(k['mainloop_delay'])


def undelayed_clock(cal, p, f_cal, d_cal, mma_cal, mma):
    """the law's clock for run P with its delays zeroed (MODE=delta's f0),
    from the built-in's period for that run; f_cal where P has no delay"""
    if delays(p) == (0, 0):
        return f_cal
    with tempfile.TemporaryDirectory() as d:
        p0 = os.path.join(d, os.path.basename(p))
        shutil.copyfile(p, p0)
        with h5py.File(p0, 'r+') as f:
            f['kernel'].attrs['epi_delay'] = 0
            f['kernel'].attrs['mainloop_delay'] = 0
        row0 = validate(cal, p0)[0]
    if row0 is None:
        sys.exit(f'no zero-delay prediction for {p}')
    return law(f_cal, d_cal, mma_cal, mma, row0['tile_period_predicted'])


def one(job):
    s, cal, p, f_cal, d_cal, mma_cal, f_meas, mma, drain = job
    row = validate(cal, p)[0]
    if row is None:
        return f'skip s{s} {os.path.basename(p)}'
    clk = f_cal
    f_ref = undelayed_clock(cal, p, f_cal, d_cal, mma_cal, mma) if MODE == 'delta' else f_cal
    for _ in range(ITER if MODE in ('ns', 'delta') else 1):
        clk = law(f_cal, d_cal, mma_cal, mma, row['tile_period_predicted'])
        if MODE == 'ns':
            row = validate(cal, p, clk, drain * (clk / f_cal - 1))[0] or row
        elif MODE == 'delta' and delays(p) != (0, 0):
            row = validate(cal, p, f_cal * clk / f_ref, drain * (clk / f_ref - 1))[0] or row
    e = row['tile_period_predicted'] / row['tile_period_measured'] - 1
    ok = lambda b: 'ok' if b else 'MISS'
    return 's%d %-40s %+.2f%% %s %s %.4g %+.2f%%' % (
        s, os.path.basename(p), 100 * e, ok(row['tile_period_ok']), ok(row['waits_ok']), clk, 100 * (clk / f_meas - 1))


def jobs():
    out = []
    for s in SET_LIST:
        d = f'{SETS}/s{s}/h200/runs'
        cal = f'{d}/{KERN}_ml_00000.h5'
        if not os.path.exists(cal):
            continue
        row = validate(cal, cal)[0]
        f_cal, mma = attrs(cal)
        d_cal = mma / row['tile_period_measured']
        drain = fitted_drain(cal, []) if MODE in ('ns', 'delta') else 0  # PP's args are validate's
        for p in sorted(glob.glob(f'{d}/{KERN}_*.h5')):
            n = os.path.basename(p)
            if p == cal or '_epi_s' in n or (ONLY and not re.search(ONLY, n)):
                continue
            out.append((s, cal, p, f_cal, d_cal, mma) + attrs(p) + (drain,))
    return out


def main():
    with cf.ThreadPoolExecutor(2) as ex:
        for line in ex.map(one, jobs()):
            print(line, flush=True)


if __name__ == '__main__':
    main()
