#!/usr/bin/env python3
"""M133: the epilogue's register work (the traced phase less --epi-delay)
per tile against its overlap with the other warpgroup's mainloop:
work = a + b x overlap, least squares per run, over every traced tile.
The work's interval is taken as the phase's start to its end less D, as
if the spin ended the phase; the fence and the warpgroup's barrier
(~80-120 cycles, M134) come after the spin, so the interval is that much
early.   usage: epilogue_intercept.py RUN.h5..."""
import sys

import numpy as np

from trace_tiles import groups, load, overlap

for path in sys.argv[1:]:
    names, c, delay = load(path)
    b, e = c['begin'], c['end']
    work, ov = [], []
    for own, other in groups(names, c):
        loops = other('mainloop')
        for r in own('epilogue_regs'):
            work.append(e[r] - b[r] - delay)
            ov.append(overlap(b[r], e[r] - delay, b[loops], e[loops]))
    work, ov = np.array(work), np.array(ov)
    slope, a = np.polyfit(ov, work, 1)
    print("%-40s D %5.0f  work %5.0f  overlap %4.0f  work = %4.0f + %.2f x overlap"
          % (path[-40:], delay, work.mean(), ov.mean(), a, slope))
