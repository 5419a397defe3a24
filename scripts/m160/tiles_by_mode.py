#!/usr/bin/env python3
"""M160: pingpong's tiles split by what ended their order wait, on the SMs
that never prefetch (their tiles' index mod 3 != 0 at N = 768; all SMs of a
plain build alike).  A tile is turn-bound (L, the second of a pair) when its
order wait ended within 250 cycles of the other warpgroup's loop end, else
drain-bound (D).  Per kind: its share, the mean order wait, load wait,
loop and register phase, the loop start after the previous loop's start,
and the median of the tile's first issue less its turn.  Works on a
measured run or the model's trace of one.
   usage: tiles_by_mode.py RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, runs_with_rows, steady_tiles

NAMES = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'producer_issue')


def every_sm_one_column(path):
    """None where each SM's tiles keep one column block (N = 3 tile widths
    on a multiple of 6 SMs, as set 70's runs, the premise of the SM split
    below) or the file records no problem (a model trace: the calibration's),
    else why not"""
    with h5py.File(path, 'r') as f:
        if 'problem' not in f:
            return None
        n, tile_n, sms = f['problem'].attrs['N'], f['kernel'].attrs['tile_n'], f['kernel'].attrs['sm_count']
    if n != 3 * tile_n or sms % 6:
        return 'N = %d with %d-wide tiles on %d SMs: the split by SM assumes 3 column blocks on a multiple of 6' % (n, tile_n, sms)
    return None


def rows(path):
    """(turn-bound, ow, lw, loop, regs, start after previous start, first issue - turn) per tile
    of the SMs that never prefetch; none where the SM split does not hold (said)"""
    why = every_sm_one_column(path)
    if why:
        print('%s: %s' % (os.path.basename(path), why))
        return np.array([])
    ow, lw, ml, er, pi = (phase_intervals(path, NAMES)[n] for n in NAMES)
    out = []
    for s, ks, j in steady_tiles(ml):
        if ks[0] % 3 == 0:
            continue
        k, kp = ks[j], ks[j - 1]
        out.append((ow[(s, k)][1] - ml[(s, kp)][1] < 250, ow[(s, k)][1] - ow[(s, k)][0], lw[(s, k)][1] - lw[(s, k)][0],
                    ml[(s, k)][1] - ml[(s, k)][0], er[(s, k)][1] - er[(s, k)][0], ml[(s, k)][0] - ml[(s, kp)][0],
                    pi[(s, k)][0] - ow[(s, k)][1]))
    return np.array(out)


if __name__ == '__main__':
    for path, R in runs_with_rows(sys.argv, rows, __doc__):
        print('%s (SMs that never prefetch)' % os.path.basename(path))
        for bound, name in ((1, 'turn-bound (L)'), (0, 'drain-bound (D)')):
            x = R[R[:, 0] == bound]
            print('  %-16s share %.2f order wait %5.0f load wait %4.0f loop %5.0f regs %5.0f | start after previous %5.0f'
                  ' | first issue - turn median %5.0f' % (name, len(x) / len(R), x[:, 1].mean(), x[:, 2].mean(), x[:, 3].mean(),
                                                         x[:, 4].mean(), x[:, 5].mean(), np.median(x[:, 6])))
