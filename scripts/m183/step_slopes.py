#!/usr/bin/env python3
"""docs/experiments.md M183: how the leader's register work W depends on the
follower's loop beside it, across --epi-delay, from the diagnostic build's
clocks (KBT_M180=1 scripts/gpu_kbt.sh: NAME.kbt.ept and NAME.kbt, read as
scripts/m180/epi_steps.py reads them; traces/probes/kbt_m180/).  For each
CTA's tiles 8..55, per warp: W = combined -> staged; ov = W's overlap with
the next tile's loop (the other warpgroup's); g = that loop's start less
W's start (when the other warpgroup started: the exogenous timing the
model's fit uses, contend_fit.c); nrel = the loop's stage releases inside W
(k-blocks retired); kfrac = the loop's k-blocks inside W, each k-block the
span between two releases (the loop's begin for the first), counted by the
fraction of it inside W.  Per run: least squares W = a + b ov (own fit), the
instrumental slope cov(W, g+) / cov(ov, g+), W = a + b kfrac, and the tiles
the loop overlaps whole (ov > 0.9 W): their W, ov and nrel.  Then one law
for all runs at once (pooled), each run's mean residual under it.
  scripts/m183/step_slopes.py NAME.kbt..."""
import os
import sys

import numpy as np

CTAS, TILES, WARPS, KMAX, KBLOCKS = 132, 64, 4, 16, 6
COMBINED, STAGED, LOOP_BEGIN, LOOP_END = 1, 2, 5, 6
RELEASED = 2


def rows(path):
    ept = np.fromfile(path + '.ept', dtype=np.int64).reshape(CTAS, TILES, WARPS, -1).astype(float)
    kbt = np.fromfile(path, dtype=np.int64).reshape(CTAS, TILES, KMAX, 3).astype(float)
    out = []
    for c in range(CTAS):
        for i in range(8, 56):
            nxt = ept[c, i + 1, 0]
            rel = kbt[c, i + 1, :KBLOCKS, RELEASED]
            if nxt[LOOP_BEGIN] <= 0 or (rel <= 0).any():
                continue
            lo = np.concatenate([[nxt[LOOP_BEGIN]], rel[:-1]])
            for w in range(WARPS):
                e = ept[c, i, w]
                if (e[:STAGED + 1] <= 0).any():
                    continue
                a, b = e[COMBINED], e[STAGED]
                ov = max(0.0, min(b, nxt[LOOP_END]) - max(a, nxt[LOOP_BEGIN]))
                kfrac = (np.clip(np.minimum(b, rel) - np.maximum(a, lo), 0, None) / np.maximum(rel - lo, 1)).sum()
                out.append((b - a, ov, nxt[LOOP_BEGIN] - a, ((rel > a) & (rel <= b)).sum(), kfrac))
    return np.array(out)


def lsq(cols, y):
    X = np.vstack([np.ones(len(y))] + list(cols)).T
    return np.linalg.lstsq(X, y, rcond=None)[0]


def main(paths):
    runs = {os.path.basename(p)[:-4]: rows(p) for p in paths}
    for name, R in runs.items():
        W, ov, g, nrel, kf = R.T
        a = lsq([ov], W)
        gp = np.clip(g, 0, None)
        iv = np.cov(W, gp)[0, 1] / np.cov(ov, gp)[0, 1]
        k = lsq([kf], W)
        full = ov > 0.9 * W
        print('%-12s n %5d | W %4.0f ov %4.0f | own W = %4.0f + %.3f ov | instrumental %.3f (u %4.0f) | '
              'W = %4.0f + %3.0f kfrac (kfrac %.2f) | overlapped whole %5d: W %4.0f ov %4.0f nrel %.2f'
              % (name, len(W), W.mean(), ov.mean(), a[0], a[1], iv, (W - iv * ov).mean(), k[0], k[1], kf.mean(),
                 full.sum(), W[full].mean(), ov[full].mean(), nrel[full].mean()))
    allR = np.concatenate(list(runs.values()))
    for label, col in (('ov', 1), ('kfrac', 4)):
        b = lsq([allR[:, col]], allR[:, 0])
        res = ' '.join('%s %+4.0f' % (n, (R[:, 0] - b[0] - b[1] * R[:, col]).mean()) for n, R in runs.items())
        print('pooled W = %.0f + %.3f %s | mean residual per run: %s' % (b[0], b[1], label, res))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
