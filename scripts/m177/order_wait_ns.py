#!/usr/bin/env python3
"""docs/experiments.md M177: the fixed pingpong's order wait in cycles and in
ns (its mean over every traced tile, over the run's measured SM clock), with
that clock, for each set's zero-delay run and its K = N = 768 --epi-delay
runs (sets 66-81).  A drain held in ns reads flat in the last column.
  scripts/m177/order_wait_ns.py   (SETS=/work/sets)"""
import glob
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals  # noqa: E402

SETS = os.environ.get('SETS', '/work/sets')


def main():
    print('%-4s %-22s %9s %10s %10s' % ('set', 'run', 'clock GHz', 'order cyc', 'order ns'))
    for s in range(66, 82):
        d = f'{SETS}/s{s}/h200/runs'
        for p in [f'{d}/pingpong_ml_00000.h5'] + sorted(glob.glob(f'{d}/pingpong_epi_*.h5')):
            if not os.path.exists(p):
                continue
            with h5py.File(p, 'r') as f:
                clk = float(f['kernel'].attrs['sm_clock_hz'])
            waits = phase_intervals(p, ('order_wait',))['order_wait']
            ow = float(np.mean([b - a for a, b in waits.values()]))
            print('s%-3d %-22s %9.3f %10.0f %10.0f' % (s, os.path.basename(p)[:-3], clk / 1e9, ow, ow / clk * 1e9))


if __name__ == '__main__':
    main()
