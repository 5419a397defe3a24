#!/usr/bin/env python3
"""M152: each pingpong phase's spread per tile (sd and interquartile range;
the epilogue columns are epilogue_regs then epilogue_store), the untraced
gap from a tile's store end to its warpgroup's next order wait, and the
warpgroup's cycle (its loop start to its next loop start), over each SM's
tiles 8 .. n - 9 in loop order.  A measured run and the model's
--trace-out alike.
   usage: phase_spread.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals, tiles_in_loop_order  # noqa: E402

PH = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')

if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    P = phase_intervals(path, PH)
    ml = P['mainloop']
    out = {n: [] for n in PH}
    gap, cyc = [], []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            for n in PH:
                out[n].append(P[n][(s, ks[i])][1] - P[n][(s, ks[i])][0])
            gap.append(P['order_wait'][(s, ks[i + 2])][0] - P['epilogue_store'][(s, ks[i])][1])
            cyc.append(ml[(s, ks[i + 2])][0] - ml[(s, ks[i])][0])
    cols = list(out.items())[1:] + [('gap', gap), ('cycle', cyc)]
    print('%-28s' % path.split('/')[-1][:28],
          ' '.join('%s sd %4.0f iqr %4.0f' % (n[:8], np.std(v), np.subtract(*np.percentile(v, [75, 25]))) for n, v in cols))
