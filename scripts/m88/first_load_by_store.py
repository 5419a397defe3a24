#!/usr/bin/env python3
"""M88: a pingpong tile's first-load latency against where the same
warpgroup's previous D store started (o = that store's start less the
tile's first issue), on the tiles whose consumer was back within READY
cycles of the issue (their load_wait's end is the landing).  Prints the
median latency per o bin and the gain G of L0 (1 + G r(o)), r from 0 at
-3,000 to 1 at -700, fitted by least squares.

  scripts/m88/first_load_by_store.py RUN.h5...     (READY=1300 by default)"""
import os, sys
import numpy as np
from m88_lib import tiles_by_sm

READY = float(os.environ.get('READY', 1300))
BINS = [-1e9, -3000, -2000, -1500, -1000, -500, 0, 1e9]

def samples(path):
    rec, seqs = tiles_by_sm(path)
    o, lat = [], []
    for seq in seqs:
        for i in range(2, len(seq)):
            k, back = seq[i], seq[i - 2]
            try:
                issue = rec[(k, 'producer', 'producer_issue')][0]
                landed = rec[(k, 'consumer', 'load_wait')][1]
                back_at = rec[(k, 'consumer', 'order_wait')][1]
                store = rec[(back, 'consumer', 'epilogue_store')][0]
            except KeyError:
                continue
            if back_at <= issue + READY:
                o.append(store - issue)
                lat.append(landed - issue)
    return np.array(o, float), np.array(lat, float)

def gain(o, lat, far=-3000.0, near=-700.0):
    r = np.clip((o - far) / (near - far), 0, 1)
    (a, b), *_ = np.linalg.lstsq(np.vstack([np.ones_like(r), r]).T, lat, rcond=None)
    return b / a

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        o, lat = samples(path)
        if len(o) < 100:
            print('%s: %d tiles, too few' % (path, len(o)))
            continue
        idx = np.digitize(o, BINS)
        bins = ['[%g,%g) %.0f (%d)' % (BINS[b - 1], BINS[b], np.median(lat[idx == b]), (idx == b).sum())
                for b in range(1, len(BINS)) if (idx == b).sum() > 100]
        print('%s: %d tiles, o mean %.0f, latency mean %.0f, G = %.2f' % (path, len(o), o.mean(), lat.mean(), gain(o, lat)))
        print('   ' + ' | '.join(bins))

if __name__ == '__main__':
    main()
