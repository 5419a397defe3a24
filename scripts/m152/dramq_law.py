#!/usr/bin/env python3
"""M152: what the `dramq` line's queue law does to a load between two tile
periods: each listed load x (1 + Q rho/(1 - rho)) / (1 + Q rho_cal/(1 -
rho_cal)), rho = bytes_per_tile x units x clock / bytes_per_s / period (the
h100-pingpong line's figures: Q = 0.15, 49,152 B a tile, 3.007 TB/s).
   usage: dramq_law.py CLOCK_HZ UNITS CAL_PERIOD PERIOD..."""
import sys

Q, BYTES, BYTES_PER_S = 0.15, 49152, 3.007e12

if len(sys.argv) < 5:
    sys.exit(__doc__)
clock, units, cal = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
full = BYTES * units * clock / BYTES_PER_S
f = lambda rho: 1 + Q * rho / (1 - rho)
for period in map(float, sys.argv[4:]):
    rc, r = full / cal, full / period
    print('%.0f cycles of DRAM a tile; rho_cal %.3f at %.1f, rho %.3f at %.1f: load x %.3f (%+.1f%%)'
          % (full, rc, cal, r, period, f(r) / f(rc), 100 * (f(r) / f(rc) - 1)))
