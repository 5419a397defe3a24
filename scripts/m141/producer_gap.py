#!/usr/bin/env python3
"""M141, M142: the producer's gap from a tile's issue end (its last load issued) to
the next tile's wait (the start of its first slot's wait), per SM over the
producer's tiles in order (the ninth to the ninth from last), median and
mean, with the run's mean load wait; from a trace, measured or the model's.
   usage: producer_gap.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import phase_intervals  # noqa: E402
if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    P = phase_intervals(path, ('producer_wait', 'producer_issue', 'load_wait'))
    PW, PI, LW = P['producer_wait'], P['producer_issue'], P['load_wait']
    per = {}
    for (s, k), (b, e) in PW.items():
        per.setdefault(s, []).append((b, e, PI[(s, k)][0], PI[(s, k)][1]))
    g = []
    for s, v in per.items():
        v.sort()
        for a, b in zip(v[8:-9], v[9:-8]):
            g.append(b[0] - a[3])
    lw = np.mean([e - b for b, e in LW.values()])
    print('%-44s producer issue end -> next wait begin: median %4.0f mean %4.0f | load wait %4.0f' % (path[-44:], np.median(g), np.mean(g), lw))
