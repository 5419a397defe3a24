"""M92: each pingpong tile's untraced gap (its warpgroup's store end to its
next order_wait's start) and that gap's overlap with the other warpgroup's
following mainloop, the --mainloop-delay spin taken off."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm88'))
from m88_lib import tiles_by_sm  # noqa: E402

def overlap(a, b):
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))

def gaps(path):
    """(gap, overlap) arrays over every SM's tiles but its first and last two."""
    with h5py.File(path, 'r') as f:
        spin = int(f['kernel'].attrs['mainloop_delay'])
    rec, seqs = tiles_by_sm(path)
    g, o = [], []
    for seq in seqs:
        for i in range(2, len(seq) - 2):
            k, nxt, own = seq[i], seq[i - 1], seq[i - 2]
            try:
                order = rec[(k, 'consumer', 'order_wait')]
                loop = rec[(nxt, 'consumer', 'mainloop')]
                store = rec[(own, 'consumer', 'epilogue_store')]
            except KeyError:
                continue
            gap = (store[1], order[0])
            g.append(gap[1] - gap[0])
            o.append(overlap(gap, (loop[0], loop[1] - spin)))
    return np.array(g, float), np.array(o, float)
