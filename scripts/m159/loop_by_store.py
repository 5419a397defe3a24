#!/usr/bin/env python3
"""M159: pingpong's loop length by where the other warpgroup's store starts
in it.  For each tile (each SM's tiles 8 .. n - 9 in loop order), the start
of the previous loop's tile's epilogue_store (the other warpgroup's) less
this loop's start, binned by 500 cycles; per bin the tile count, the mean
loop (mainloop phase) and the mean load wait.  Works on a measured run or
the model's trace of one (`pegemm model fit ... --trace-out`).
   usage: loop_by_store.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, runs_with_rows, steady_tiles


def rows(path):
    """(store start - loop start, loop, load wait) per tile"""
    P = phase_intervals(path, ('mainloop', 'epilogue_store', 'load_wait'))
    ml, st, lw = P['mainloop'], P['epilogue_store'], P['load_wait']
    out = []
    for s, ks, j in steady_tiles(ml):
        k, kp = ks[j], ks[j - 1]
        out.append((st[(s, kp)][0] - ml[(s, k)][0], ml[(s, k)][1] - ml[(s, k)][0], lw[(s, k)][1] - lw[(s, k)][0]))
    return np.array(out)


if __name__ == '__main__':
    edges = [-1e9] + list(range(-1000, 4001, 500)) + [1e9]
    for path, R in runs_with_rows(sys.argv, rows, __doc__):
        print('%s: %d tiles, loop mean %.0f' % (os.path.basename(path), len(R), R[:, 1].mean()))
        for a, b in zip(edges[:-1], edges[1:]):
            m = (R[:, 0] >= a) & (R[:, 0] < b)
            if m.sum() > 30:
                print('   store start - loop start in [%6s, %6s): %5d tiles, loop %5.0f, load wait %4.0f' %
                      ('-inf' if a < -1e8 else '%d' % a, 'inf' if b > 1e8 else '%d' % b, m.sum(), R[m, 1].mean(), R[m, 2].mean()))
