#!/usr/bin/env python3
"""M155: where a tile's first load goes out and lands against the end of
the loop before it (the other warpgroup's, the CTA's previous tile), from
one launch's per-k-block clocks (NAME.kbt as kblock_lengths.py).  Over
tiles 8..55: the median of the first issue less the previous tile's last
release (its loop end as the observer saw it), the median and p75 of the
first landing less that end, and the share of tiles whose first load lands
300 cycles or more after it (a tile queued behind that loop would wait for
its load).
   usage: first_issue.py KB:NAME.kbt..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import kblock_clocks  # noqa: E402

ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        kb, name = arg.split(':', 1)
        kb = int(kb)
        a = kblock_clocks(name).astype(float)
        prev_end = a[:, FIRST - 1:LAST - 1, kb - 1, RELEASED]
        issue = a[:, FIRST:LAST, 0, ISSUE] - prev_end
        landed = a[:, FIRST:LAST, 0, LANDED] - prev_end
        print('%-22s first issue - previous loop end %6.0f | landed - end median %5.0f p75 %5.0f | landed >= 300 after: %.2f'
              % (os.path.basename(name), np.median(issue), np.median(landed), np.percentile(landed, 75),
                 np.mean(landed >= 300)))
