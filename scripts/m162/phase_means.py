#!/usr/bin/env python3
"""M162: a run's mean phases per tile (each SM's tiles 8 .. n - 9 in loop
order): order wait, load wait, loop, register phase, store, the store's
start to the next order wait's end on the same warpgroup (two tiles on:
its drain and any wait for the turn), and the loop start to the next
loop's start (the tile period).
   usage: phase_means.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, runs_with_rows, steady_tiles

PHASES = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')


def rows(path):
    P = phase_intervals(path, PHASES)
    out = []
    for s, ks, j in steady_tiles(P['mainloop']):
        k, kp, kpp = ks[j], ks[j - 1], ks[j - 2]
        out.append([P[p][(s, k)][1] - P[p][(s, k)][0] for p in PHASES] +
                   [P['order_wait'][(s, k)][1] - P['epilogue_store'][(s, kpp)][0],
                    P['mainloop'][(s, k)][0] - P['mainloop'][(s, kp)][0]])
    return np.array(out)


if __name__ == '__main__':
    for path, R in runs_with_rows(sys.argv, rows, __doc__):
        print('%-34s order %5.0f load %4.0f loop %5.0f regs %5.0f store %4.0f | store to order end %5.0f | period %5.0f' %
              ((os.path.basename(path),) + tuple(R.mean(0))))
