#!/usr/bin/env python3
"""M136: the first load's latency against the position of the same
warpgroup's previous store (the `storenear ... own=1` law), from a trace.

Per tile (each SM's tiles in loop order from the third): o = the start of
tile k - 2's epilogue_store less tile k's first-load issue (producer_issue
begin), y = load_wait end less that issue: exact where the load bound
(load_wait > 150 cycles), else an upper bound.  Prints per 500-cycle bin of o
the Kaplan-Meier median of the latency (left-censored: the estimate on -y),
where a bin has 40 tiles and 10 exact ones.
   usage: load_law.py RUN.h5..."""
import sys

import numpy as np

from tile_phases import phase_intervals, tiles_in_loop_order

BINS = np.arange(-6000, 1501, 500)


def km_median(y, exact):
    """median of a left-censored sample: Kaplan-Meier on -y (right-censored there)"""
    z = -y
    order = np.argsort(z)
    z, ex = z[order], exact[order]
    at_risk, surv, i = len(z), 1.0, 0
    while i < len(z):
        j, d = i, 0
        while j < len(z) and z[j] == z[i]:
            d += ex[j]
            j += 1
        if d:
            surv *= 1 - d / at_risk
        if surv <= 0.5:
            return -z[i]
        at_risk -= j - i
        i = j
    return np.nan


def tiles(path):
    D = phase_intervals(path, ('producer_issue', 'load_wait', 'mainloop', 'epilogue_store'))
    o, y, ex = [], [], []
    for s, ks in tiles_in_loop_order(D['mainloop']).items():
        for i in range(2, len(ks)):
            k, p2 = (s, ks[i]), (s, ks[i - 2])
            if k not in D['producer_issue'] or k not in D['load_wait'] or p2 not in D['epilogue_store']:
                continue
            issue, lw = D['producer_issue'][k][0], D['load_wait'][k]
            o.append(D['epilogue_store'][p2][0] - issue)
            y.append(lw[1] - issue)
            ex.append(lw[1] - lw[0] > 150)
    return np.array(o), np.array(y), np.array(ex)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        o, y, ex = tiles(path)
        idx = np.digitize(o, BINS)
        cells = []
        for i in range(1, len(BINS)):
            m = idx == i
            ok = m.sum() >= 40 and ex[m].sum() >= 10
            cells.append('%5.0f' % km_median(y[m], ex[m]) if ok else '    .')
        print('%-36s n=%5d bound %.2f ' % (path[-36:], len(o), ex.mean()) + ' '.join(cells))
    print(' ' * 55 + ' '.join('%5d' % x for x in BINS[:-1]))
