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
(cycles and ns at the run's clock).
   usage: order_wait_parts.py RUN.h5..."""
import sys

import h5py
import numpy as np


def parts(path):
    with h5py.File(path, 'r') as f:
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        ph = t['phase'][:]; b = t['begin'][:].astype(np.int64); e = t['end'][:].astype(np.int64)
        sm = t['sm'][:]; w = t['warp'][:]; role = t['role'][:]
        clock = float(f['kernel'].attrs['sm_clock_hz'])
    P = {n: names.index(n) for n in ('order_wait', 'mainloop', 'epilogue_store')}
    cons = role == 1
    waits, drains, bound = [], [], 0
    for s in np.unique(sm[cons]):
        for me in (0, 1):
            mine = cons & (sm == s) & (w == me)
            other = cons & (sm == s) & (w != me)
            ow = np.sort(np.stack([b[mine & (ph == P['order_wait'])], e[mine & (ph == P['order_wait'])]], 1), 0)
            st_end = np.sort(e[mine & (ph == P['epilogue_store'])])
            ml_end = np.sort(e[other & (ph == P['mainloop'])])
            for t0, t1 in ow[2:]:  # past the first tiles (empty pipeline)
                k = np.searchsorted(ml_end, t1, 'right') - 1
                j = np.searchsorted(st_end, t0, 'right') - 1
                if k < 0 or j < 0:
                    continue
                waits.append(t1 - t0)
                if ml_end[k] <= t0:
                    bound += 1
                    drains.append(t1 - st_end[j])
    n = len(waits)
    d = np.median(drains) if drains else float('nan')
    return n, bound / n, np.mean(waits), d, d / clock * 1e9, clock / 1e6


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-44s %6s %8s %9s %12s %9s %7s' % ('run', 'tiles', 'bound', 'wait', 'drain (cyc)', '(ns)', 'MHz'))
for path in sys.argv[1:]:
    n, share, wait, d, dns, mhz = parts(path)
    print('%-44s %6d %8.2f %9.0f %12.0f %9.0f %7.0f' % (path.split('/')[-1], n, share, wait, d, dns, mhz))
