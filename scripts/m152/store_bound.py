"""M152: pingpong's store-bound consumer tiles (M151's split), shared by the
drain scripts.  The order wait runs from t0 to t1 (the turn); a tile is
store-bound when the other warpgroup's last mainloop end before t1 is no
later than t0 (the turn was free all along); its drain is t1 - s, s its own
warpgroup's previous epilogue_store end.  Each warpgroup's first two tiles
are skipped (empty pipeline)."""
import h5py
import numpy as np


def read(path, phases):
    """the trace's columns and {phase: index} for the named phases, and the run's --epi-delay"""
    with h5py.File(path, 'r') as f:
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        cols = {k: t[k][:] for k in ('phase', 'sm', 'warp', 'role')}
        cols['begin'] = t['begin'][:].astype(np.int64)
        cols['end'] = t['end'][:].astype(np.int64)
        delay = float(f['kernel'].attrs['epi_delay']) if 'kernel' in f else 0.0
    return cols, {n: names.index(n) for n in phases}, delay


def intervals(c, mask):
    """(begins, ends) of the masked rows, by begin"""
    b, e = c['begin'][mask], c['end'][mask]
    o = np.argsort(b)
    return b[o], e[o]


def order_waits(path, phases=()):
    """yields (t0, t1, s, other, bound) per order wait past each warpgroup's
    first two that has a previous store and an earlier turn: bound is 1 on
    a store-bound tile; other maps each phase of `phases` (and 'mainloop')
    to the other warpgroup's (begins, ends) on that SM; the run's
    --epi-delay comes first, once"""
    want = tuple(dict.fromkeys(('order_wait', 'mainloop', 'epilogue_store') + tuple(phases)))
    c, P, delay = read(path, want)
    yield delay
    cons = c['role'] == 1
    for s in np.unique(c['sm'][cons]):
        for me in (0, 1):
            mine = cons & (c['sm'] == s) & (c['warp'] == me)
            theirs = cons & (c['sm'] == s) & (c['warp'] != me)
            ow = np.stack(intervals(c, mine & (c['phase'] == P['order_wait'])), 1)
            st_end = np.sort(c['end'][mine & (c['phase'] == P['epilogue_store'])])
            other = {n: intervals(c, theirs & (c['phase'] == P[n])) for n in want}
            ml_end = np.sort(other['mainloop'][1])
            for t0, t1 in ow[2:]:
                k = np.searchsorted(ml_end, t1, 'right') - 1
                j = np.searchsorted(st_end, t0, 'right') - 1
                if k < 0 or j < 0:
                    continue
                yield t0, t1, st_end[j], other, ml_end[k] <= t0


def store_bound(path, phases=()):
    """order_waits' store-bound tiles only: (t0, t1, s, other); the run's
    --epi-delay first, once"""
    it = order_waits(path, phases)
    yield next(it)
    for t0, t1, s, other, bound in it:
        if bound:
            yield t0, t1, s, other


def binned_medians(d, x, edges, least=20):
    """'median(n)' of d in each bin [lo, hi) of x, '-(n)' under `least` tiles"""
    cells = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (x >= lo) & (x < hi)
        cells.append('%5.0f(%4d)' % (np.median(d[m]), m.sum()) if m.sum() >= least else '    -(%4d)' % m.sum())
    return ' '.join(cells)
