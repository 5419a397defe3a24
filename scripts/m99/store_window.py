#!/usr/bin/env python3
"""docs/experiments.md M99: pingpong's loop by where the other warpgroup's
store started.

  scripts/m99/store_window.py RUN.h5...

One row per run: the consumer's mean loop (mainloop less the run's
--mainloop-delay) over the tiles whose other warpgroup's store start, less
the loop's start, falls in each 500-cycle bin from -1,000 to 6,000 ('.'
where a bin holds fewer than 40 tiles), and the run's mean loop."""
import os
import sys

import numpy as np

from m99_lib import loop_tiles

BINS = list(range(-1000, 6001, 500))


def row(path):
    tiles = [t for t in loop_tiles(path) if t['store'] is not None]
    loop = np.array([t['loop'] for t in tiles])
    store = np.array([t['store'] for t in tiles])
    cells = []
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        sel = (store >= lo) & (store < hi)
        cells.append('%7s' % ('%.0f' % loop[sel].mean() if sel.sum() >= 40 else '.'))
    return '%-30s%s  loop %.0f' % (os.path.basename(path), ''.join(cells), loop.mean())


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    print('%-30s%s' % ('run', ''.join('%7d' % b for b in BINS[:-1])))
    for p in argv:
        print(row(p))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
