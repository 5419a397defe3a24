#!/usr/bin/env python3
"""docs/experiments.md M179: what the staging buffer's drain overlaps.  For
each steady tile of the fixed pingpong (its SM's tiles in loop order, j the
tile, j - 2 the same warpgroup's previous, j - 1 the other's), the order wait
[a, b] ends on the drain where it ends more than HELD cycles after the other
warpgroup's mainloop (j - 1) ended; its drain is then b - the end of tile j -
2's epilogue_store (the store's issue to its smem read done, the untraced gap
included).  Per run: the clock, the mean order wait, the share drain-held,
the drain's mean (cycles and ns), and how much of the drain the other
warpgroup spent in its mainloop, its epilogue_regs (with the delay) and its
store, and the gap from the store's end to the order wait's start.
  scripts/m179/drain_overlap.py RUN.h5...   (HELD=250)"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, steady_tiles  # noqa: E402

HELD = float(os.environ.get('HELD', '250'))
PH = ('order_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')


def one(path):
    with h5py.File(path, 'r') as f:
        clk = float(f['kernel'].attrs['sm_clock_hz'])
    I = phase_intervals(path, PH)
    ow, ml, er, st = (I[p] for p in PH)
    rows = []
    for s, ks, j in steady_tiles(ml):
        k, prev, other = ks[j], ks[j - 2], ks[j - 1]
        if (s, k) not in ow or (s, prev) not in st or (s, other) not in ml or (s, other) not in er:
            continue
        a, b = ow[(s, k)]
        held = b - ml[(s, other)][1] > HELD
        e = st[(s, prev)][1]
        ov = [overlap(e, b, *ml[(s, other)]), overlap(e, b, *er[(s, other)]),
              overlap(e, b, *st[(s, other)]) if (s, other) in st else 0.0]
        rows.append((b - a, held, b - e, *ov, a - e))
    R = np.array(rows, dtype=float)
    h = R[:, 1] > 0
    d = R[h]
    return ('%-32s %6.3f %6.0f %5.0f%% %6.0f %5.0f  %5.0f %5.0f %5.0f  %5.0f' %
            (os.path.basename(path)[:-3], clk / 1e9, R[:, 0].mean(), 100 * h.mean(), d[:, 2].mean(),
             d[:, 2].mean() / clk * 1e9, d[:, 3].mean(), d[:, 4].mean(), d[:, 5].mean(), d[:, 6].mean()))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print('%-32s %6s %6s %6s %6s %5s  %5s %5s %5s  %5s' % ('run', 'GHz', 'order', 'held', 'drain', 'ns', 'o.ml', 'o.epi', 'o.st',
                                                          'gap'))
    for p in sys.argv[1:]:
        print(one(p), flush=True)


if __name__ == '__main__':
    main()
