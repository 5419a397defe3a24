#!/usr/bin/env python3
"""M138: bres's epilogue work step against the ring's landings beside it,
from one launch's diagnostic clocks (scripts/gpu_kbt.sh KBT_M134=1):
NAME.kbt (int64 [132 CTAs][64 tiles][16 k-blocks][issue, landed, released])
and NAME.kbt.ept (int64 [132][64 tiles][4 warps][start, combined, staged,
spun, barrier, loop begin, loop end]).  Per CTA tile 8..55 and warp: the
work step = combined -> staged, and the number of stage landings (any tile
of the CTA, k-blocks below K / 128) strictly inside it.  Prints per run:
the work step's mean, the mean landings inside it, the share of steps with
any, the within-run least-squares slope of the step on its landings, and
the epilogue's start less the tile's last release as the observer thread
saw it (median; negative: the observer sees the barriers late), and the
landings counted again moved earlier by that lag.
   usage: landings.py KBLOCKS:NAME...   (NAME.kbt and NAME.kbt.ept)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm134'))
from ept import clocks as ept_clocks  # noqa: E402

CTAS, TILES, KMAX, WARPS = 132, 64, 16, 4  # ept.py's layout, and the k-block file's
START, COMBINED, STAGED = 0, 1, 2


def kblock_clocks(path):
    """a .kbt file: int64 [CTA][tile][k-block][issue, landed, released]"""
    return np.fromfile(path, dtype=np.int64).reshape(CTAS, TILES, KMAX, 3)


def load(name):
    return kblock_clocks(name + '.kbt'), ept_clocks(name + '.kbt.ept')


def lag(kbt, ept, nk):
    """how late the observer thread sees a tile's last release: the median of
    (that release less the epilogue's start) where positive, else 0 (the
    release comes before the epilogue starts; the observer polls behind)"""
    rel = kbt[:, 8:56, nk - 1, 2].astype(float)
    start = ept[:, 8:56, 0, START].astype(float)
    ok = (rel > 0) & (start > 0)
    return max(0.0, float(np.median(rel[ok] - start[ok])))


def per_step(kbt, ept, nk, shift=0.0):
    """(work, landings) per warp-tile, the landings moved `shift` earlier, and
    the start-less-release offsets"""
    work, land, offs = [], [], []
    for c in range(CTAS):
        landed = kbt[c, :, :nk, 1].ravel()
        landed = np.sort(landed[landed > 0]) - shift
        for t in range(8, 56):
            pts = ept[c, t, :, :STAGED + 1]
            if (pts <= 0).any():
                continue
            rel = kbt[c, t, nk - 1, 2]
            if rel > 0:
                offs.append(ept[c, t, 0, START] - rel)
            for w in range(WARPS):
                a, b = pts[w, COMBINED], pts[w, STAGED]
                work.append(b - a)
                land.append(np.searchsorted(landed, b, 'left') - np.searchsorted(landed, a, 'right'))
    return np.array(work, float), np.array(land, float), np.array(offs, float)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        nk, name = arg.split(':', 1)
        kbt, ept = load(name)
        work, land, offs = per_step(kbt, ept, int(nk))
        late = lag(kbt, ept, int(nk))
        _, land_c, _ = per_step(kbt, ept, int(nk), late)
        slope = np.polyfit(land, work, 1)[0] if land.std() > 0 else float('nan')
        print('%-22s steps %6d | work %5.0f | landings inside %.2f (any %4.1f%%) | slope %+6.1f per landing'
              ' | start - last release %5.0f | landings %.0f earlier: inside %.2f'
              % (name[-22:], len(work), work.mean(), land.mean(), 100 * (land > 0).mean(), slope, np.median(offs),
                 late, land_c.mean()))
