#!/usr/bin/env python3
"""M133: the store drain where it binds.  For each consumer tile, from its
store's end to the end of the same warpgroup's next order wait (what the
schedules' `until consumer.epilogue_store[2] + store_drain` measures),
against that interval's overlap with the other warpgroup's mainloop.  A
tile is drain-bound when its order wait ended more than 250 cycles after
the other warpgroup's last mainloop (the handover did not hold it).
Prints per run: the share bound, and drain = a + b x overlap fitted on the
bound tiles.   usage: drain_law.py RUN.h5..."""
import sys

import numpy as np

from trace_tiles import groups, load, overlap


def drains(path, spin=0.0):
    """(drain, overlap, bound) per consumer tile; spin: cycles taken off the
    other loop's traced end before the overlap (its --mainloop-delay spin,
    which the trace's mainloop phase includes: scripts/m136/drain_work.py)"""
    names, c, _ = load(path)
    b, e = c['begin'], c['end']
    y, ov, bound = [], [], []
    for own, other in groups(names, c):
        waits, loops = own('order_wait'), other('mainloop')
        for st in own('epilogue_store'):
            k = np.searchsorted(e[waits], e[st])
            if k >= len(waits):
                break
            end = e[waits[k]]
            y.append(end - e[st])
            ov.append(overlap(e[st], end, b[loops], e[loops] - spin))
            before = e[loops][e[loops] <= end + 1]
            bound.append(len(before) == 0 or end - before[-1] > 250)
    return np.array(y), np.array(ov), np.array(bound)


if __name__ == '__main__':
    for path in sys.argv[1:]:
        y, ov, bound = drains(path)
        fit = np.polyfit(ov[bound], y[bound], 1) if bound.sum() > 10 else (np.nan, np.nan)
        print("%-40s bound %5.1f%%  drain %5.0f at overlap %5.0f  drain = %5.0f + %.2f x overlap"
              % (path[-40:], 100 * bound.mean(), y[bound].mean(), ov[bound].mean(), fit[1], fit[0]))
