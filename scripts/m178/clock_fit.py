#!/usr/bin/env python3
"""docs/experiments.md M178 (post hoc): the clock law's two constants read
off M176's table of measured clocks and duties (clock_duty.txt).  Each run's
clock against its set's zero-delay run is set beside
  (x / x_cal) ** (-1/3),   x = d + R + G t,
d = the measured tensor duty, t = the tile rate in units of the calibration
tile's duty (d K_cal / K).  Prints the five best (R, G) by rms of the log
residual over KERN's runs, the residual per kind of run at R=0.3 G=0 and at
the best, and with R G given, every shape run's residual.
  scripts/m178/clock_fit.py CLOCK_DUTY.txt KERN [R G]"""
import collections
import math
import re
import sys


def kind(n):
    if re.search(r'_s[23]_', n):
        return 'stage'
    if '_pf' in n:
        return 'pf'
    if re.search(r'_(k|n|m)[0-9]', n):
        return 'shape'
    if re.search(r'_ml_0*[1-9]', n):
        return 'spin'
    if re.search(r'_epi_0*[1-9]', n):
        return 'epi'
    return 'zero'


def load(path, kern):
    rows = [l.split() for l in open(path)]
    cal = {(r[0], r[2]): r for r in rows if r[3] == f'{r[2]}_ml_00000.h5'}
    pts = []
    for r in rows:
        c = cal.get((r[0], r[2]))
        if r[2] != kern or not c or r[3] == c[3]:
            continue
        d, d0 = float(r[5]), float(c[5])
        pts.append((r[0], r[3], d, d * int(c[11]) / int(r[11]), d0, float(r[4]) / float(c[4])))
    return pts


def residuals(pts, R, G):
    out = collections.defaultdict(list)
    for s, n, d, t, d0, ratio in pts:
        x, x0 = d + R + G * t, d0 + R + G * d0
        v = math.log(ratio / (x / x0) ** (-1 / 3)) if x > 0 and x0 > 0 else 9.0
        out[kind(n)].append(v)
        out['all'].append(v)
    return out


def rms(v):
    return math.sqrt(sum(a * a for a in v) / len(v))


def summary(pts, R, G):
    o = residuals(pts, R, G)
    return f'R {R:.2f} G {G:.2f} ' + ' '.join(
        '%s n%d mean%+.2f%% rms%.2f%%' % (k, len(v), 100 * sum(v) / len(v), 100 * rms(v)) for k, v in sorted(o.items()))


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    pts = load(sys.argv[1], sys.argv[2])
    grid = sorted((rms(residuals(pts, i * 0.05, j * 0.1 - 0.5)['all']), i * 0.05, j * 0.1 - 0.5)
                  for i in range(21) for j in range(31))
    for b in grid[:5]:
        print('rms %.4f R %.2f G %.2f' % b)
    print(summary(pts, 0.3, 0))
    print(summary(pts, grid[0][1], grid[0][2]))
    if len(sys.argv) == 5:
        R, G = float(sys.argv[3]), float(sys.argv[4])
        print(summary(pts, R, G))
        for s, n, d, t, d0, ratio in pts:
            if kind(n) == 'shape':
                x, x0 = d + R + G * t, d0 + R + G * d0
                print(s, n, '%+.2f%%' % (100 * (ratio / (x / x0) ** (-1 / 3) - 1)))


if __name__ == '__main__':
    main()
