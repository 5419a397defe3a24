#!/usr/bin/env python3
"""M152: does pingpong's epilogue register work contend more with the start
of the other warpgroup's loop than with its rest?  Per tile (each SM's
tiles 8 .. n - 9, as scripts/m144/regs_overlap.py): the work (epilogue_regs
less the run's --epi-delay) against two overlaps with the other
warpgroup's next mainloop: with its first F cycles (default 2,048 = 4
stages x 512, the k-blocks whose stages can be resident when the loop
starts, which run back to back; --front F) and with the rest of it.  Least squares w = a + b1 ov_front
+ b2 ov_rest, per run.
   usage: regs_front.py [--front F] RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, tiles_in_loop_order  # noqa: E402


def fit(path, front):
    with h5py.File(path, 'r') as f:
        delay = float(f['kernel'].attrs['epi_delay'])
    P = phase_intervals(path, ('mainloop', 'epilogue_regs'))
    ml, ep = P['mainloop'], P['epilogue_regs']
    rows = []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            eb, ee = ep[(s, ks[i])][0], ep[(s, ks[i])][1] - delay
            nb, ne = ml[(s, ks[i + 1])]
            fe = min(ne, nb + front)
            rows.append((ee - eb, overlap(eb, ee, nb, fe), overlap(eb, ee, fe, ne)))
    r = np.array(rows)
    X = np.column_stack([np.ones(len(r)), r[:, 1], r[:, 2]])
    coef, *_ = np.linalg.lstsq(X, r[:, 0], rcond=None)
    return len(r), coef, r[:, 1].mean(), r[:, 2].mean()


args = sys.argv[1:]
front = 2048.0
if args[:1] == ['--front']:
    front, args = float(args[1]), args[2:]
if not args:
    sys.exit(__doc__)
for path in args:
    n, (a, b1, b2), mf, mr = fit(path, front)
    print('%-30s n %5d  a %5.0f  front %.3f (mean ov %4.0f)  rest %.3f (mean ov %4.0f)' % (path.split('/')[-1][:30], n, a, b1, mf, b2, mr))
