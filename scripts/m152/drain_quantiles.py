#!/usr/bin/env python3
"""M152: the quantiles of pingpong's store drain on store-bound tiles
(store_bound.py), per run.
   usage: drain_quantiles.py RUN.h5..."""
import sys

import numpy as np

from store_bound import store_bound

if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    it = store_bound(path)
    next(it)
    d = np.array([t1 - s for _, t1, s, _ in it])
    print('%-28s n %5d p5 %5.0f p25 %5.0f p50 %5.0f p75 %5.0f p95 %5.0f sd %4.0f'
          % ((path.split('/')[-1][:28], len(d)) + tuple(np.percentile(d, [5, 25, 50, 75, 95])) + (d.std(),)))
