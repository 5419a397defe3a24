#!/usr/bin/env python3
"""M167: what a store's drain runs beside.  Per run, over each SM's steady
tiles (scripts/m136/tile_phases.py), the tiles whose order wait the drain
ended (it ended 250 or more cycles after the other warpgroup's loop did, so
the turn did not hold it): the drain, from the same warpgroup's previous
store's end (two tiles back) to the order wait's end, and how much of it the
other warpgroup's register work (its epilogue_regs, one tile back) and its
loop overlap; then drain = a + b x (the overlap) for each, least squares
over those tiles.
   usage: drain_law.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, runs_with_rows, steady_tiles

PHASES = ('order_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')


def rows(path):
    P = phase_intervals(path, PHASES)
    out = []
    for s, ks, j in steady_tiles(P['mainloop']):
        k, kp, kpp = ks[j], ks[j - 1], ks[j - 2]
        order_end = P['order_wait'][(s, k)][1]
        other_loop = P['mainloop'][(s, kp)]
        if order_end - other_loop[1] < 250:
            continue  # the turn held it
        t0 = P['epilogue_store'][(s, kpp)][1]
        regs = P['epilogue_regs'][(s, kp)]
        out.append([order_end - t0, overlap(t0, order_end, regs[0], regs[1]),
                    overlap(t0, order_end, other_loop[0], other_loop[1])])
    return np.array(out)


if __name__ == '__main__':
    for path, R in runs_with_rows(sys.argv, rows, __doc__):
        d, o_regs, o_loop = R[:, 0], R[:, 1], R[:, 2]
        fit = [np.polyfit(o, d, 1) if np.ptp(o) > 0 else (0.0, d.mean()) for o in (o_regs, o_loop)]
        print('%-34s tiles %5d  drain %5.0f (p25 %5.0f p75 %5.0f)  beside: regs %5.0f loop %5.0f | '
              'drain = %5.0f + %.3f x regs | = %5.0f + %.3f x loop'
              % (os.path.basename(path), len(d), d.mean(), np.percentile(d, 25), np.percentile(d, 75),
                 o_regs.mean(), o_loop.mean(), fit[0][1], fit[0][0], fit[1][1], fit[1][0]))
