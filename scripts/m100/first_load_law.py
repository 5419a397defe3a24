#!/usr/bin/env python3
"""docs/experiments.md M100: pingpong's first load (issue to landing) by
where the same warpgroup's previous D store started, per run.

  scripts/m100/first_load_law.py RUN.h5...

Per tile (each SM's first three and last left out): o = the start of the
warpgroup's previous epilogue_store less the producer's first issue of the
tile; latency = the tile's load_wait end less that issue.  Only tiles whose
consumer waited more than 160 cycles count (a landing before the turn is
not seen).  Cells: median latency / % of all tiles in the bin."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace  # noqa: E402

EDGES = [-99999, -3000, -2500, -2000, -1500, -1000, -700, -400, 0, 400, 99999]


def tiles(path):
    tr = read_trace(path)
    out = []
    for u in tr.sms():
        wb, we = tr.phase(u, 'consumer', 'load_wait')[:2]
        sb = tr.phase(u, 'consumer', 'epilogue_store')[0]
        pb = tr.phase(u, 'producer', 'producer_issue')[0]
        n = min(len(wb), len(sb), len(pb))
        for i in range(3, n - 1):
            out.append((we[i] - pb[i], sb[i - 2] - pb[i], we[i] - wb[i]))
    return np.array(out, float)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    print('%-28s' % 'o ->', ' '.join('%8s' % ('<%d' % h if h < 99999 else '>') for h in EDGES[1:]))
    for p in argv:
        lat, o, lw = tiles(p).T
        seen = lw > 160
        cells = []
        for lo, hi in zip(EDGES[:-1], EDGES[1:]):
            m = (o >= lo) & (o < hi)
            cells.append('%4.0f/%3d' % (np.median(lat[m & seen]), 100 * m.mean()) if (m & seen).sum() > 30 else '    -   ')
        print('%-28s' % os.path.basename(p)[:28], ' '.join(cells))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
