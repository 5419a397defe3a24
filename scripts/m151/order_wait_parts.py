#!/usr/bin/env python3
"""M151: what pingpong's order wait waits for, per consumer tile, from a
run's trace (or the model's trace of it).  The consumer's order wait runs
from t0 (its next tile's top, after its own previous store was issued) to
t1 (its turn).  Before the turn it reloads the epilogue's combined tile into
the buffer its previous TMA store reads from, so it can wait for that
store's read (kernel/pingpong.cuh: ws_load_combined, then ws_wait_turn).
Per tile: turn_ready = the other warpgroup's last mainloop end before t1;
a tile is store-bound when turn_ready <= t0 (the turn was free all along);
its drain = t1 - its own previous epilogue_store end.  Prints the share of
store-bound tiles, the order wait's mean, and the drain's median on them
(cycles and ns at the run's clock).  The split itself is
scripts/m152/store_bound.py's (order_waits).
   usage: order_wait_parts.py RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm152'))
from store_bound import order_waits  # noqa: E402


def parts(path):
    with h5py.File(path, 'r') as f:
        clock = float(f['kernel'].attrs['sm_clock_hz'])
    it = order_waits(path)
    next(it)
    waits, drains, bound = [], [], 0
    for t0, t1, s, _, store_bound in it:
        waits.append(t1 - t0)
        if store_bound:
            bound += 1
            drains.append(t1 - s)
    n = len(waits)
    d = np.median(drains) if drains else float('nan')
    return n, bound / n, np.mean(waits), d, d / clock * 1e9, clock / 1e6


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-44s %6s %8s %9s %12s %9s %7s' % ('run', 'tiles', 'bound', 'wait', 'drain (cyc)', '(ns)', 'MHz'))
for path in sys.argv[1:]:
    n, share, wait, d, dns, mhz = parts(path)
    print('%-44s %6d %8.2f %9.0f %12.0f %9.0f %7.0f' % (path.split('/')[-1], n, share, wait, d, dns, mhz))
