#!/usr/bin/env python3
"""M141: where pingpong's producer issues, from one launch's per-k-block
clocks (scripts/gpu_kbt.sh KBT_M122=1: NAME.kbt, int64 [132 CTAs][64
tiles][16 k-blocks][issue, landed, released], the ring counted per CTA:
stage g = tile x KB + k, slot g % 4).  Over tiles 8..55, per run:
  - per k-block k: the median of its issue less the release of the slot it
    reuses (stage g - 4), and the share of issues after that release (a
    small positive median: the issue waits for the slot; a large one: the
    slot was free long before and something else held the producer);
  - each k-block's release as a fraction of its tile's loop (from the later
    of its first landing and the previous tile's last release, the clocks
    holding no turn, to its last release), beside the fraction (k + 1) / KB a schedule's
    `consumer.mainloop@F` event uses;
  - the producer's issue-to-issue gaps: within a tile, and from a tile's
    last issue to the next tile's first.
   usage: ring_events.py KB:NAME.kbt...   (KB: k-blocks per tile, K / 128)"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm138'))
from landings import CTAS, kblock_clocks  # noqa: E402

STAGES = 4
ISSUE, LANDED, RELEASED = 0, 1, 2
FIRST, LAST = 8, 56


def slot_wait(a, kb):
    """{k: (median issue less the reused slot's release, share positive)}"""
    iss = a[:, :, :kb, ISSUE].reshape(CTAS, -1)
    rel = a[:, :, :kb, RELEASED].reshape(CTAS, -1)
    out = {}
    for k in range(kb):
        d = []
        for t in range(FIRST, LAST):
            g = t * kb + k
            ok = (iss[:, g] > 0) & (rel[:, g - STAGES] > 0)
            d.append(iss[ok, g] - rel[ok, g - STAGES])
        d = np.concatenate(d)
        out[k] = (np.median(d), np.mean(d > 0))
    return out


def release_fractions(a, kb):
    # the loop starts once its first stage landed and the other warpgroup's
    # loop ended (its last release): the turn, which the clocks do not hold
    t0 = np.maximum(a[:, FIRST:LAST, 0, LANDED], a[:, FIRST - 1:LAST - 1, kb - 1, RELEASED])
    loop = a[:, FIRST:LAST, kb - 1, RELEASED] - t0
    return np.median(loop), [np.median((a[:, FIRST:LAST, j, RELEASED] - t0) / loop) for j in range(kb)]


def issue_gaps(a, kb):
    iss = a[:, :, :kb, ISSUE]
    across = iss[:, FIRST + 1:LAST, 0] - iss[:, FIRST:LAST - 1, kb - 1]
    within = np.diff(iss[:, FIRST:LAST, :], axis=2)
    return np.median(across), [np.median(within[:, :, j]) for j in range(kb - 1)]


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for arg in sys.argv[1:]:
        kb, path = arg.split(':', 1)
        kb = int(kb)
        a = kblock_clocks(path).astype(float)
        waits = slot_wait(a, kb)
        loop, frac = release_fractions(a, kb)
        across, within = issue_gaps(a, kb)
        print('%s  KB %d  loop %.0f' % (path.split('/')[-1], kb, loop))
        print('  issue less its slot\'s release, k = 0..: ' + ' '.join('%.0f(%.2f)' % waits[k] for k in range(kb)))
        print('  release at loop fraction:  ' + ' '.join('%.2f' % f for f in frac))
        print('  a schedule\'s (k + 1) / KB: ' + ' '.join('%.2f' % ((j + 1) / kb) for j in range(kb)))
        print('  issue gaps within the tile: ' + ' '.join('%.0f' % g for g in within)
              + ' | last issue to the next tile\'s first: %.0f' % across)
