#!/usr/bin/env python3
"""M136: the epilogue's register work against its overlap with the other
warpgroup's mainloop (the next tile's; its --mainloop-delay spin taken off
the loop's end), from a trace.  Per run: the means, the least-squares slope
and the median epilogue per 500-cycle bin of overlap (bins of 50 tiles).
   usage: epilogue_overlap.py RUN.h5..."""
import sys

import h5py
import numpy as np

from tile_phases import phase_intervals, tiles_in_loop_order

BINS = np.arange(0, 4001, 500)


def pairs(path):
    with h5py.File(path, 'r') as f:
        spin = int(f['kernel'].attrs['mainloop_delay'])
    D = phase_intervals(path, ('mainloop', 'epilogue_regs'))
    ML, EP = D['mainloop'], D['epilogue_regs']
    ov, ep, loop = [], [], []
    for s, ks in tiles_in_loop_order(ML).items():
        for i in range(1, len(ks) - 1):
            k, n = (s, ks[i]), (s, ks[i + 1])
            if k not in EP:
                continue
            eb, ee = EP[k]
            mb, me = ML[n][0], ML[n][1] - spin
            ov.append(max(0.0, min(ee, me) - max(eb, mb)))
            ep.append(ee - eb)
            loop.append(me - mb)
    return spin, np.array(ov), np.array(ep), np.array(loop)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        spin, ov, ep, loop = pairs(path)
        slope = np.polyfit(ov, ep, 1)[0]
        idx = np.digitize(ov, BINS)
        cells = ' '.join('%5.0f' % np.median(ep[idx == i]) if (idx == i).sum() >= 50 else '    .' for i in range(1, len(BINS)))
        print('%-30s spin %4d epilogue %4.0f overlap %4.0f loop %4.0f slope %.3f | %s'
              % (path[-30:], spin, ep.mean(), ov.mean(), loop.mean(), slope, cells))
    print(' ' * 88 + ' '.join('%5d' % x for x in BINS[:-1]))
