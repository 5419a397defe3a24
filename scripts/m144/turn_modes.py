#!/usr/bin/env python3
"""M144: which bound a pingpong warpgroup's turn has, per SM, over each SM's
tiles 8 .. n - 9 in loop order.  A turn (order_wait's end) within 250
cycles of the other warpgroup's previous loop end is loop-bound ('L'),
else drain-bound ('.').  Two modes show: both warpgroups drain-bound (the
loops spaced half a cycle apart) and alternating '.L' (the second loop
queued right behind the first).  Prints the quantiles of the per-SM share
of loop-bound turns and the first SMs' sequences.  Works on a measured run
and on the model's --trace-out alike.
   usage: turn_modes.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

LOOP_BOUND = 250
SHOWN_SMS, SHOWN_TILES = 4, 48


def turn_bounds(path):
    """{sm: [True where the turn was loop-bound]}"""
    P = phase_intervals(path, ('mainloop', 'order_wait'))
    ml, ow = P['mainloop'], P['order_wait']
    out = {}
    for s, ks in tiles_in_loop_order(ml).items():
        out[s] = [ow[(s, ks[i])][1] - ml[(s, ks[i - 1])][1] <= LOOP_BOUND for i in range(8, len(ks) - 8)]
    return out


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        bounds = turn_bounds(path)
        share = np.array([np.mean(b) for b in bounds.values()])
        q = np.quantile(share, [0, .1, .25, .5, .75, .9, 1])
        print('%s: per-SM loop-bound share, min/p10/p25/median/p75/p90/max: %s' % (path, ' '.join('%.2f' % x for x in q)))
        for b in list(bounds.values())[:SHOWN_SMS]:
            print('    ' + ''.join('L' if x else '.' for x in b[:SHOWN_TILES]))
