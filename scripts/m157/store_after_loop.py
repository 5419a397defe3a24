#!/usr/bin/env python3
"""M157: per traced run, the median cycles from a tile's mainloop end to its
epilogue_store start (the register work and any --epi-delay): the REGS that
scripts/m157/load_by_store.py adds to the clocks' last release to place a
tile's store.
   usage: store_after_loop.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals  # noqa: E402

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        P = phase_intervals(path, ('mainloop', 'epilogue_store'))
        ml, st = P['mainloop'], P['epilogue_store']
        d = [st[k][0] - ml[k][1] for k in ml if k in st]
        print('%-26s store start - loop end, median %.0f' % (os.path.basename(path), np.median(d)))
