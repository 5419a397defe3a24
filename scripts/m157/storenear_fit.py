#!/usr/bin/env python3
"""M157: the `storenear` gain a pingpong calibration's own tiles give.  Per
tile (8 .. n - 9 of each SM in loop order): o = the same warpgroup's previous
store start less the first issue, r(o) the line's ramp (0 at -3,000, 1 at
-700), and the first load's issue to landing, seen where the load wait is
over 250 cycles and otherwise known only to be at most the load wait's end
(censored).  Fits log latency = log(L0 (1 + G r)) + normal noise (sd) by
maximum likelihood over a grid (L0 400-2,600 by 25, G 0-3 by 0.1, sd 0.15-
0.5), the censored tiles through the normal's cdf.
   usage: storenear_fit.py RUN.h5..."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm155'))
from first_load import tiles  # noqa: E402

FAR, NEAR = -3000.0, -700.0


def log_cdf(z):
    """log of the standard normal's cdf (Abramowitz and Stegun 7.1.26 for erfc)"""
    x = -z / np.sqrt(2)
    t = 1 / (1 + 0.3275911 * np.abs(x))
    y = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * np.exp(-x * x)
    return np.log(np.maximum(0.5 * np.where(x >= 0, y, 2 - y), 1e-300))


def neg_log_likelihood(l0, g, sd, r, y, censored):
    z = (np.log(y) - np.log(l0 * (1 + g * r))) / sd
    return -(np.sum(-0.5 * z[~censored] ** 2 - np.log(sd)) + np.sum(log_cdf(z[censored])))


def fit(path):
    o, y, wait = tiles(path).T
    r = np.clip((o - FAR) / (NEAR - FAR), 0, 1)
    censored = wait <= 250
    best = (np.inf, None)
    for g in np.arange(0, 3.01, 0.1):
        for sd in (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
            for l0 in np.arange(400, 2600, 25):
                v = neg_log_likelihood(l0, g, sd, r, y, censored)
                if v < best[0]:
                    best = (v, (l0, g, sd))
    return best[1]


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        l0, g, sd = fit(path)
        print('%-60s L0 %4.0f  G %.1f  sd %.2f' % (path, l0, g, sd))
