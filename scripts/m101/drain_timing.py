#!/usr/bin/env python3
"""docs/experiments.md M101: what ends pingpong's order_wait, per run.

  scripts/m101/drain_timing.py RUN.h5...

Per tile (each SM's first three and last left out): the order_wait's mean;
its end less the other warpgroup's previous loop end (the turn: p10, p50);
its start and end less the start of the warpgroup's own previous
epilogue_store (the drain: bulk_wait_read_all at the tile's top waits for
that store to have read the staging buffer)."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace  # noqa: E402


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    print('%-22s %6s | %-17s | %-12s | %-17s' % ('run', 'ow', 'end - turn p10/50', 'start - own', 'end - own p10/50'))
    for p in argv:
        tr = read_trace(p)
        rows = []
        for u in tr.sms():
            ob, oe, _ = tr.phase(u, 'consumer', 'order_wait')
            le = tr.phase(u, 'consumer', 'mainloop')[1]
            sb = tr.phase(u, 'consumer', 'epilogue_store')[0]
            n = min(len(ob), len(le), len(sb))
            for i in range(3, n - 1):
                rows.append((oe[i] - ob[i], oe[i] - le[i - 1], ob[i] - sb[i - 2], oe[i] - sb[i - 2]))
        ow, turn, start, end = np.array(rows, float).T
        print('%-22s %6.0f | %7.0f / %7.0f | %12.0f | %7.0f / %7.0f' % (
            os.path.basename(p), ow.mean(), np.percentile(turn, 10), np.median(turn), np.median(start),
            np.percentile(end, 10), np.median(end)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
