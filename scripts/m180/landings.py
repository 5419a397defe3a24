#!/usr/bin/env python3
"""docs/experiments.md M180: the register work W (combined rows landed -> staged,
per warp, CTA tiles 8..55) against its overlap with the other warpgroup's next
loop and the count of stage landings (any k-block of the CTA's, from NAME.kbt)
inside W: least squares W = a + b ov + c n, and the residuals' rms with the
overlap alone, with both, and with the landings alone.
  scripts/m180/landings.py NAME.kbt...   (NAME.kbt.ept beside each)"""
import sys, os, numpy as np
CTAS, TILES, WARPS, KMAX = 132, 64, 4, 16
def ov(a0,a1,b0,b1): return max(0.0, min(a1,b1)-max(a0,b0))
for path in sys.argv[1:]:
    ept = np.fromfile(path + '.ept', dtype=np.int64).reshape(CTAS, TILES, WARPS, -1).astype(float)
    kbt = np.fromfile(path, dtype=np.int64).reshape(CTAS, TILES, KMAX, 3).astype(float)
    rows = []
    for c in range(CTAS):
        land = kbt[c, :, :6, 1].ravel(); land = np.sort(land[land > 0])
        iss = kbt[c, :, :6, 0].ravel(); iss = np.sort(iss[iss > 0])
        for i in range(8, 56):
            nxt = ept[c, i + 1, 0]
            if nxt[5] <= 0 or nxt[6] <= 0: continue
            for w in range(WARPS):
                e = ept[c, i, w]
                if (e[:3] <= 0).any(): continue
                a, b = e[1], e[2]
                n_land = ((land >= a) & (land < b)).sum()
                n_iss = ((iss >= a) & (iss < b)).sum()
                rows.append((b - a, ov(a, b, nxt[5], nxt[6]), n_land, n_iss))
    R = np.array(rows)
    W, o, nl, ni = R.T
    X = np.vstack([np.ones(len(R)), o, nl]).T
    c = np.linalg.lstsq(X, W, rcond=None)[0]
    r0 = W - np.vstack([np.ones(len(R)), o]).T @ np.linalg.lstsq(np.vstack([np.ones(len(R)), o]).T, W, rcond=None)[0]
    r1 = W - X @ c
    X2 = np.vstack([np.ones(len(R)), nl]).T; c2 = np.linalg.lstsq(X2, W, rcond=None)[0]; r2 = W - X2 @ c2
    print('%-12s W = %4.0f + %.3f ov + %4.0f per landing (landings in W: mean %.2f) | rms resid: ov only %4.0f, +landings %4.0f, landings only %4.0f (%4.0f + %4.0f n)' % (os.path.basename(path)[:-4], c[0], c[1], c[2], nl.mean(), r0.std(), r1.std(), r2.std(), c2[0], c2[1]))
