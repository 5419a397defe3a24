#!/usr/bin/env python3
"""docs/experiments.md M111, M112: the rhythm of a run's two consumer
warpgroups.  Per run (a measured trace, or the model's from `pegemm model
fit --trace-out`): the gaps from one mainloop start to the next on an SM
(the warpgroups alternate), p10 / p25 / p50 / p75 / p90, and the shape:
  paired  at least 20% of the gaps within 50 cycles of their p10 and
          p75 - p25 >= 800 (one warpgroup follows the other as closely as
          it can, then the other waits);
  locked  p90 - p10 <= 400 (the two held half a cycle apart);
  neither otherwise.

  scripts/m111/rhythm_shape.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace  # noqa: E402


def gaps(path):
    tr = read_trace(path)
    out = []
    for u in tr.sms():
        lb, _, _ = tr.phase(u, 'consumer', 'mainloop')
        out += list(np.diff(lb)[3:-1])
    return float(tr.kernel.get('epi_delay', 0)), np.array(out, dtype=float)


def shape(g):
    p10, p25, p75, p90 = np.percentile(g, [10, 25, 75, 90])
    near = np.mean(np.abs(g - p10) <= 50)
    if near >= 0.2 and p75 - p25 >= 800:
        return 'paired', near
    if p90 - p10 <= 400:
        return 'locked', near
    return 'neither', near


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    for p in argv:
        d, g = gaps(p)
        s, near = shape(g)
        print('%-34s epi %5.0f  gaps p10/25/50/75/90 %s  near p10 %4.0f%%  %s' %
              (os.path.basename(p), d, ' '.join('%5.0f' % x for x in np.percentile(g, [10, 25, 50, 75, 90])),
               100 * near, s))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
