#!/usr/bin/env python3
"""M92: per run, the mean untraced gap after a pingpong warpgroup's store,
its mean overlap with the other warpgroup's following mainloop (spin off),
and (gap - 425) / overlap, the H200's slowdown per cycle of overlap.

  scripts/m92/gap_by_overlap.py RUN.h5..."""
import sys

from gap_lib import gaps

if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    g, o = gaps(path)
    print('%-34s gap %4.0f  overlap %4.0f  overlapped whole %5.1f%%  (gap - 425) / overlap %5.2f' % (
        path.split('/')[-1], g.mean(), o.mean(), 100 * (o >= g - 1).mean(), (g.mean() - 425) / max(o.mean(), 1)))
