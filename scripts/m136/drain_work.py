#!/usr/bin/env python3
"""M136: the store drain against the other warpgroup's loop WORK beside it
(its mainloop phase less the run's --mainloop-delay spin, which the trace's
phase includes; scripts/m133/drain_law.py counts the spin).  Per consumer
tile: y = its store's end to the end of the same warpgroup's next order
wait; bound where that wait ended > 250 cycles after the other warpgroup's
last mainloop phase (the handover did not hold it; y an upper bound
elsewhere).  A censored (Tobit) fit of y = a + b x overlap + N(0, sd) on a
grid (a 1,000-2,000, b -0.3..0.6, sd 30-220) per run, and the plain fit on
the bound tiles.   usage: drain_work.py RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm133'))
import drain_law  # noqa: E402
from drain_tobit import nll  # noqa: E402


def drains(path):
    with h5py.File(path, 'r') as f:
        spin = float(f['kernel'].attrs.get('mainloop_delay', 0))
    return drain_law.drains(path, spin)


def tobit(y, ov, bound):
    grid = ((a, b, sd) for a in range(1000, 2000, 20) for b in np.arange(-0.3, 0.62, 0.04)
            for sd in (30, 60, 100, 150, 220))
    return min((nll(y, ov, bound, *p), p) for p in grid)[1]


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        y, ov, bound = drains(path)
        plain = np.polyfit(ov[bound], y[bound], 1) if bound.sum() > 10 else (np.nan, np.nan)
        a, b, sd = tobit(y, ov, bound)
        print('%-36s bound %5.1f%% overlap %5.0f | bound: %5.0f + %5.2f x ov | tobit: a %5.0f b %5.2f sd %3.0f'
              % (path[-36:], 100 * bound.mean(), ov.mean(), plain[1], plain[0], a, b, sd))
