#!/usr/bin/env python3
"""M92: what one zero-delay trace says of the gap law (what `stretch ...
fit=slowdown` measures on the replay): w0, the median gap nothing
overlaps; the median gap the following mainloop overlaps whole, w0 / (1 - C);
so C = 1 - w0 / that.

  scripts/m92/gap_fit.py RUN.h5..."""
import sys

import numpy as np

from gap_lib import gaps

if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    g, o = gaps(path)
    none, whole = (o <= 0) & (g > 0), (o >= g - 1) & (g > 0)
    if none.sum() < 30 or whole.sum() < 30:
        print('%-34s too few tiles of each kind (%d, %d)' % (path.split('/')[-1], none.sum(), whole.sum()))
        continue
    w0, full = np.median(g[none]), np.median(g[whole])
    print('%-34s tiles none / whole %5d %5d  w0 %4.0f  overlapped whole %4.0f  C %.2f' % (
        path.split('/')[-1], none.sum(), whole.sum(), w0, full, 1 - w0 / full))
