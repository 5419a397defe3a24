#!/usr/bin/env python3
"""M133: can a run see the drain law when few of its tiles are drain-bound?
A censored (Tobit) fit of drain = a + b x overlap + N(0, sd) on all tiles
of drain_law.py: a bound tile's drain is observed, any other's is only
bounded above by its store-end-to-wait-end interval.  Prints the negative
log-likelihood of a grid's best (a, b, sd) and of the law the delayed runs
give (a = 1,300, b = 0.25, sd = 100).   usage: drain_tobit.py RUN.h5..."""
import math
import sys

import numpy as np

from drain_law import drains

_erfc = np.vectorize(math.erfc)


def nll(y, ov, bound, a, b, sd):
    mu = a + b * ov
    exact = -0.5 * ((y[bound] - mu[bound]) / sd) ** 2 - math.log(sd) - 0.5 * math.log(2 * math.pi)
    below = np.log(np.maximum(0.5 * _erfc(-(y[~bound] - mu[~bound]) / (sd * math.sqrt(2))), 1e-300))
    return -(exact.sum() + below.sum())


def best_fit(y, ov, bound):
    grid = ((a, b, sd) for a in range(1000, 1800, 20) for b in np.arange(0, 0.62, 0.04) for sd in (30, 60, 100, 150, 220))
    return min((nll(y, ov, bound, *p), p) for p in grid)


if __name__ == '__main__':
    for path in sys.argv[1:]:
        y, ov, bound = drains(path)
        (v, (a, b, sd)) = best_fit(y, ov, bound)
        print("%-40s bound %5.1f%%  best a %5.0f b %.2f sd %3.0f: %9.1f   law (1300, 0.25, 100): %9.1f"
              % (path[-40:], 100 * bound.mean(), a, b, sd, v, nll(y, ov, bound, 1300, 0.25, 100)))
