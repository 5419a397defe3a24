"""The traced phases of a run per tile, for the M136 scripts and those after
them: each phase's (begin, end) keyed by (SM, tile), each SM's tiles in the
order their mainloops began, and the overlap of two intervals."""
import os
import sys

import h5py
import numpy as np


def phase_intervals(path, phases):
    """{phase: {(sm, tile): (begin, end)}} for the named phases"""
    with h5py.File(path, 'r') as f:
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        ph, sm, tile = t['phase'][:], t['sm'][:].astype(np.int64), t['tile'][:].astype(np.int64)
        b, e = t['begin'][:].astype(float), t['end'][:].astype(float)
    out = {}
    for n in phases:
        m = ph == names.index(n)
        out[n] = {(s, k): (x, y) for s, k, x, y in zip(sm[m], tile[m], b[m], e[m])}
    return out


def overlap(a0, a1, b0, b1):
    """how long [a0, a1] and [b0, b1] overlap (0 if apart), elementwise on arrays"""
    return np.clip(np.minimum(a1, b1) - np.maximum(a0, b0), 0, None)


def tiles_in_loop_order(mainloop):
    """{sm: [tile, ...]} sorted by the tile's mainloop begin"""
    per_sm = {}
    for s, k in mainloop:
        per_sm.setdefault(s, []).append(k)
    for s, ks in per_sm.items():
        ks.sort(key=lambda k: mainloop[(s, k)][0])
    return per_sm


def steady_tiles(mainloop):
    """(sm, its tiles in loop order, j) for each SM's tiles 8 .. n - 9: the
    steady state, past the start-up swing and before the tail"""
    for s, ks in tiles_in_loop_order(mainloop).items():
        for j in range(8, len(ks) - 8):
            yield s, ks, j


def runs_with_rows(argv, rows, doc):
    """(path, rows(path)) for each RUN.h5 in argv[1:]; a run with no steady
    tiles (fewer than 17 per SM) is skipped with a line; no argument: exit
    with the caller's doc"""
    if len(argv) < 2:
        sys.exit(doc)
    for path in argv[1:]:
        R = rows(path)
        if len(R) == 0:
            print('%s: no steady tiles to read (fewer than 17 per SM, or refused above), skipped' % os.path.basename(path))
            continue
        yield path, R
