#!/usr/bin/env python3
"""docs/experiments.md M99: pingpong's loop per tile against the other
warpgroup's store window and this warpgroup's late turn.

  scripts/m99/store_regression.py RUN.h5...

Per run, the least-squares fit loop = a + b_ov x ov + b_late x late over its
tiles: ov = the loop's overlap with the 3,000 cycles from the start of the
other warpgroup's store; late = how long after the other warpgroup's loop
end this warpgroup's order_wait ended, less 200 and clipped to 0..2,000
(a drain-bound start).  a is the loop that neither slows."""
import os
import sys

import numpy as np

from m99_lib import loop_tiles, overlap

SPAN = 3000


def fit(path):
    tiles = [t for t in loop_tiles(path) if t['store'] is not None and t['turn'] is not None]
    loop = np.array([t['loop'] for t in tiles])
    ov = np.array([overlap(t['loop'], t['store'], SPAN) for t in tiles])
    late = np.clip(np.array([t['turn'] for t in tiles]) - 200, 0, 2000)
    X = np.column_stack([np.ones_like(loop), ov, late])
    (a, b_ov, b_late), *_ = np.linalg.lstsq(X, loop, rcond=None)
    return '%-30s loop %5.0f ov %5.0f late %5.0f | a %5.0f b_ov %.3f b_late %.3f' % (
        os.path.basename(path), loop.mean(), ov.mean(), late.mean(), a, b_ov, b_late)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for p in argv:
        print(fit(p))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
