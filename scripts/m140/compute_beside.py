#!/usr/bin/env python3
"""M140: bres's epilogue work step (combined rows landed -> staged) and its
whole epilogue regs (start -> staged) against the other warpgroup's next
loop's compute: from the later of that tile's first k-block landing
(NAME.kbt, k-block 0 `landed`, shifted earlier by `--shift` cycles for the
observer's lag) and its turn, to its loop end (NAME.kbt.ept), against
M139's turn-to-end interval.  Both files
from scripts/gpu_kbt.sh KBT_M134=1 (layouts: scripts/m138/landings.py).
Prints per run the means and the within-run least-squares slope of each
step on its compute overlap.
   usage: compute_beside.py [--shift N] NAME..."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'm138'))
sys.path.insert(0, os.path.join(HERE, '..', 'm136'))
from landings import load  # noqa: E402
from tile_phases import overlap  # noqa: E402

WARPS = 4
START, COMBINED, STAGED, TURN, END = 0, 1, 2, 5, 6
LANDED = 1


def rows(name, shift):
    kbt, ept = load(name)
    e, k = ept.astype(float), kbt.astype(float)
    out = []
    for t in range(9, 55):
        me, nxt = e[:, t], e[:, t + 1]
        land = k[:, t + 1, 0, LANDED] - shift
        ok = (me[:, :, :STAGED + 1] > 0).all(axis=(1, 2)) & (nxt[:, 0, TURN] > 0) & (nxt[:, 0, END] > 0) \
            & (k[:, t + 1, 0, LANDED] > 0)
        c0 = np.maximum(land, nxt[:, 0, TURN])[:, None]
        turn, end = nxt[:, :1, TURN], nxt[:, :1, END]
        a_start, a_comb, a_stg = me[:, :, START], me[:, :, COMBINED], me[:, :, STAGED]
        work_c = overlap(a_comb, a_stg, c0, end)
        work_t = overlap(a_comb, a_stg, turn, end)
        regs_c = overlap(a_start, a_stg, c0, end)
        for c in np.where(ok)[0]:
            for w in range(WARPS):
                out.append((a_stg[c, w] - a_comb[c, w], work_t[c, w], work_c[c, w],
                            a_stg[c, w] - a_start[c, w], regs_c[c, w], c0[c, 0] - turn[c, 0]))
    return np.array(out)


def slope(x, y):
    return np.polyfit(x, y, 1)[0] if x.std() > 0 else float('nan')


if __name__ == '__main__':
    args = sys.argv[1:]
    shift = 0.0
    if args[:1] == ['--shift']:
        shift, args = float(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    print('shift %.0f' % shift)
    for name in args:
        r = rows(name, shift)
        print('%-18s n %6d | work %4.0f beside: turn-end %4.0f compute %4.0f (slope %+.2f) | regs %4.0f beside '
              'compute %4.0f (slope %+.2f) | load wait %4.0f'
              % (name.split('/')[-1][:18], len(r), r[:, 0].mean(), r[:, 1].mean(), r[:, 2].mean(),
                 slope(r[:, 2], r[:, 0]), r[:, 3].mean(), r[:, 4].mean(), slope(r[:, 4], r[:, 3]), r[:, 5].mean()))
