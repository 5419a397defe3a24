#!/usr/bin/env python3
"""M140: bres's cycle in parts, from a trace (measured, or the model's own
`--trace-out`), over each SM's tiles 8 .. n - 9 in loop order: the epilogue
(epilogue_regs less the run's --epi-delay), its work's overlap with the next
tile's mainloop (the spin taken off the epilogue's end), the gap from a
warpgroup's store end to its next order wait, the drain where the turn is
drain-bound (the turn more than 250 cycles after the other loop's end: the
turn less the own store's end, and that drain's overlap with the other
loop), and the first load where it binds (load_wait > 300: its end less the
producer's issue).  Run it on a measured run and on the model's trace of
the same setting to see which part the model misses.
   usage: trace_parts.py RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, tiles_in_loop_order  # noqa: E402

PHASES = ('mainloop', 'epilogue_regs', 'epilogue_store', 'order_wait', 'load_wait', 'producer_issue')
LOOP_BOUND = 250   # turn within this of the other loop's end: loop-bound
LOAD_BOUND = 300   # a load wait longer than this: the first load binds


def parts(path):
    with h5py.File(path, 'r') as f:
        delay = float(f['kernel'].attrs['epi_delay'])
    P = phase_intervals(path, PHASES)
    ml, ep, st, ow, lw, pi = (P[n] for n in PHASES)
    out = {k: [] for k in ('epi', 'epi_ov', 'gap', 'drain', 'drain_ov', 'first_load')}
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            me, prev, prev2, nxt = (s, ks[i]), (s, ks[i - 1]), (s, ks[i - 2]), (s, ks[i + 1])
            eb, ee = ep[me][0], ep[me][1] - delay
            out['epi'].append(ee - eb)
            out['epi_ov'].append(overlap(eb, ee, *ml[nxt]))
            if prev in st:
                out['gap'].append(ow[nxt][0] - st[prev][1])
            turn = ow[me][1]
            if turn - ml[prev][1] > LOOP_BOUND:
                out['drain'].append(turn - st[prev2][1])
                out['drain_ov'].append(overlap(st[prev2][1], turn, *ml[prev]))
            if lw[me][1] - lw[me][0] > LOAD_BOUND:
                out['first_load'].append(lw[me][1] - pi[me][0])
    return delay, {k: np.array(v, float) for k, v in out.items()}


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        d, p = parts(path)
        print('%-30s D %5.0f | epilogue %5.0f its overlap %4.0f | store->next turn gap %4.0f | drain-bound %4.2f: '
              'drain %5.0f its overlap %4.0f | first load where it binds %5.0f (%4.2f)'
              % (path[-30:], d, p['epi'].mean(), p['epi_ov'].mean(), p['gap'].mean(),
                 len(p['drain']) / len(p['epi']), p['drain'].mean() if len(p['drain']) else np.nan,
                 p['drain_ov'].mean() if len(p['drain']) else np.nan, p['first_load'].mean(),
                 len(p['first_load']) / len(p['epi'])))
