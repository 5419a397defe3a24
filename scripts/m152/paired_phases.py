#!/usr/bin/env python3
"""M152: in pingpong's paired turn mode, each phase of the drain-bound tile
(pD: the tile just before a loop-bound one, in loop order) against the
loop-bound tile (L) after it and against drain-bound tiles of unpaired
stretches (D: neither neighbour loop-bound), kernel against model.  Phases:
load_wait, mainloop, epilogue_regs, epilogue_store, and the untraced gap
from the store's end to the warpgroup's next order wait.  Tiles 8 .. n - 9
of each SM in loop order, as scripts/m144/turn_modes.py.
   usage: paired_phases.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

PH = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')


def classes(path):
    P = phase_intervals(path, PH)
    ml, ow, st = P['mainloop'], P['order_wait'], P['epilogue_store']
    rows = {'pD': [], 'L': [], 'D': []}
    for s, ks in tiles_in_loop_order(ml).items():
        lb = [ow[(s, ks[i])][1] - ml[(s, ks[i - 1])][1] <= 250 if i > 0 else False for i in range(len(ks))]
        for i in range(8, len(ks) - 8):
            k = ks[i]
            vals = [P[n][(s, k)][1] - P[n][(s, k)][0] for n in PH[1:]]
            vals.append(ow[(s, ks[i + 2])][0] - st[(s, k)][1])  # gap to own next tile
            if lb[i]:
                rows['L'].append(vals)
            elif lb[i + 1]:
                rows['pD'].append(vals)
            elif not lb[i - 1]:
                rows['D'].append(vals)
    return {c: np.mean(v, 0) if v else None for c, v in rows.items()}, {c: len(v) for c, v in rows.items()}


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-26s %3s %6s %8s %8s %8s %8s %6s' % ('run', 'cls', 'n', 'load_w', 'loop', 'regs', 'store', 'gap'))
for path in sys.argv[1:]:
    m, n = classes(path)
    for c in ('pD', 'L', 'D'):
        if m[c] is not None:
            print('%-26s %3s %6d %8.0f %8.0f %8.0f %8.0f %6.0f' % ((path.split('/')[-1][:26], c, n[c]) + tuple(m[c])))
