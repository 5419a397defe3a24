#!/usr/bin/env python3
"""M152: how firmly pingpong's paired turn mode holds, kernel against model.
Per SM, tiles in loop order (8 .. n - 9, as scripts/m144/turn_modes.py): a
tile is loop-bound ('L') when its turn came within 250 cycles of the other
warpgroup's previous loop end, else drain-bound.  For each tile, t1 - s is
its turn less the end of its own warpgroup's previous epilogue_store (two
tiles back in loop order): on a drain-bound tile that is the drain; on a
loop-bound one, the drain plus the margin by which the turn came later.
Prints, per run, the share of L tiles, the median t1 - s on D and on L
tiles (their difference: the paired mode's margin), and the mean epilogue
regs of the D tile just before an L tile (the paired drain-bound
warpgroup, its regs under the other's whole loop) against the L tile's own.
   usage: paired_margin.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402


def margins(path):
    P = phase_intervals(path, ('mainloop', 'order_wait', 'epilogue_store', 'epilogue_regs'))
    ml, ow, st, rg = P['mainloop'], P['order_wait'], P['epilogue_store'], P['epilogue_regs']
    d_ts, l_ts, regs_pairD, regs_L, regs_D = [], [], [], [], []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            t1 = ow[(s, ks[i])][1]
            loop_bound = t1 - ml[(s, ks[i - 1])][1] <= 250
            ts = t1 - st[(s, ks[i - 2])][1]
            r = rg[(s, ks[i])][1] - rg[(s, ks[i])][0]
            if loop_bound:
                l_ts.append(ts); regs_L.append(r)
                prev_bound = ow[(s, ks[i - 1])][1] - ml[(s, ks[i - 2])][1] <= 250
                if not prev_bound:
                    regs_pairD.append(rg[(s, ks[i - 1])][1] - rg[(s, ks[i - 1])][0])
            else:
                d_ts.append(ts); regs_D.append(r)
    n = len(d_ts) + len(l_ts)
    med = lambda a: np.median(a) if a else float('nan')
    mean = lambda a: np.mean(a) if a else float('nan')
    return n, len(l_ts) / n, med(d_ts), med(l_ts), mean(regs_pairD), mean(regs_L), mean(regs_D)


if len(sys.argv) < 2:
    sys.exit(__doc__)
print('%-30s %6s %6s %8s %8s %7s %9s %7s %7s' % ('run', 'tiles', 'L', 't1-s D', 't1-s L', 'margin', 'regs pD', 'regs L', 'regs D'))
for path in sys.argv[1:]:
    n, sh, d, l, rpd, rl, rd = margins(path)
    print('%-30s %6d %6.2f %8.0f %8.0f %7.0f %9.0f %7.0f %7.0f' % (path.split('/')[-1][:30], n, sh, d, l, l - d, rpd, rl, rd))
