"""A consumer warpgroup's traced phases per SM, for the M133 analyses
(docs/experiments.md M133): read once, indexed by (sm, warp, phase)."""
import h5py
import numpy as np


def load(path):
    """(phase names, arrays of the consumer rows, the run's --epi-delay)"""
    with h5py.File(path, 'r') as f:
        t = f['trace']
        names = [x.decode() if isinstance(x, bytes) else x for x in t.attrs['phase_names']]
        cols = {k: t[k][:] for k in ('role', 'phase', 'sm', 'warp')}
        cols['begin'] = t['begin'][:].astype(float)
        cols['end'] = t['end'][:].astype(float)
        delay = float(f['kernel'].attrs.get('epi_delay', 0))
    keep = cols['role'] == 1
    return names, {k: v[keep] for k, v in cols.items()}, delay


def groups(names, c):
    """yield (own, other): per SM and warpgroup, a function phase -> the
    rows of that phase sorted by begin, for this warpgroup and the other"""
    for s in np.unique(c['sm']):
        on_sm = c['sm'] == s
        for w in np.unique(c['warp'][on_sm]):
            def pick(mask):
                def rows(phase):
                    r = np.where(mask & (c['phase'] == names.index(phase)))[0]
                    return r[np.argsort(c['begin'][r])]
                return rows
            yield pick(on_sm & (c['warp'] == w)), pick(on_sm & (c['warp'] != w))


def overlap(a0, a1, b0, b1):
    """total overlap of [a0, a1] with the intervals [b0[i], b1[i]]"""
    return np.clip(np.minimum(b1, a1) - np.maximum(b0, a0), 0, None).sum()
