#!/usr/bin/env python3
"""M161: pingpong's loop against its overlap with the other warpgroup's
store window (the SPAN = 3,000 cycles from the start of the previous
loop's tile's epilogue_store, as h100-pingpong's `storewin` line has it):
the least-squares line loop = a + b x overlap over each SM's tiles
8 .. n - 9 in loop order, and the mean overlap.  Works on a measured run
or the model's trace of one (`pegemm model fit ... --trace-out`).
   usage: loop_window_slope.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, runs_with_rows, steady_tiles

SPAN = 3000


def rows(path):
    """(loop, its overlap with the window) per tile"""
    P = phase_intervals(path, ('mainloop', 'epilogue_store'))
    ml, st = P['mainloop'], P['epilogue_store']
    out = []
    for s, ks, j in steady_tiles(ml):
        (a0, a1), opens = ml[(s, ks[j])], st[(s, ks[j - 1])][0]
        out.append((a1 - a0, overlap(a0, a1, opens, opens + SPAN)))
    return np.array(out)


if __name__ == '__main__':
    for path, R in runs_with_rows(sys.argv, rows, __doc__):
        a, b = np.linalg.lstsq(np.column_stack([np.ones(len(R)), R[:, 1]]), R[:, 0], rcond=None)[0]
        print('%-34s loop = %5.0f + %.3f x overlap(window %d)  mean overlap %5.0f' %
              (os.path.basename(path), a, b, SPAN, R[:, 1].mean()))
