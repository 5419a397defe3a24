#!/usr/bin/env python3
"""M141: where a tile's first load is issued, from a trace (measured, or
the model's `--trace-out`): per tile (each SM's tiles in loop order, from
the ninth to the ninth from last), the producer's first issue (the end of
its producer_wait) as a fraction of the previous tile's traced mainloop
(the other warpgroup's), and less the tile's own turn (order_wait end);
with the mean previous loop and load wait beside them.
   usage: issue_point.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402


def issue_points(path):
    P = phase_intervals(path, ('mainloop', 'producer_wait', 'load_wait', 'order_wait'))
    ml, pw, lw, ow = P['mainloop'], P['producer_wait'], P['load_wait'], P['order_wait']
    frac, less_turn, loop, wait = [], [], [], []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            me, prev = (s, ks[i]), (s, ks[i - 1])
            if me not in pw:
                continue
            length = ml[prev][1] - ml[prev][0]
            frac.append((pw[me][1] - ml[prev][0]) / length)
            less_turn.append(pw[me][1] - ow[me][1])
            loop.append(length)
            wait.append(lw[me][1] - lw[me][0])
    return np.median(frac), np.mean(less_turn), np.mean(loop), np.mean(wait)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        print('%-40s first issue at the previous loop\'s fraction %.2f (median), less its own turn %6.0f, '
              'previous loop %5.0f, load wait %4.0f' % ((path[-40:],) + issue_points(path)))
