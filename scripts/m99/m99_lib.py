"""docs/experiments.md M99: pingpong's consumer tiles as the M99 scripts
read them from a run file's trace.  Needs numpy and h5py."""
import h5py
import numpy as np


def _names(attr):
    return [x.decode() if isinstance(x, bytes) else str(x) for x in attr]


def loop_tiles(path):
    """Per consumer tile (but each SM's first two and last), a dict: loop =
    the mainloop less the run's --mainloop-delay, store = the start of the
    other warpgroup's first epilogue_store after its previous loop ended,
    less this loop's start (None if none), turn = this warpgroup's
    order_wait end before the loop less the other warpgroup's previous
    loop end (None if none)."""
    tr = read_trace(path)
    spin = float(tr.kernel.get('mainloop_delay', 0))
    for u in tr.sms():
        lb, le, lw = tr.phase(u, 'consumer', 'mainloop')
        sb, _, sw = tr.phase(u, 'consumer', 'epilogue_store')
        _, oe, owp = tr.phase(u, 'consumer', 'order_wait')
        for i in range(2, len(lb) - 1):
            stores = sb[(sw != lw[i]) & (sb > le[i - 1])]
            turns = oe[(owp == lw[i]) & (oe <= lb[i] + 5)]
            yield {
                'loop': float(le[i] - lb[i] - spin),
                'store': float(stores.min() - lb[i]) if len(stores) else None,
                'turn': float(turns.max() - le[i - 1]) if len(turns) else None,
            }


def overlap(loop, store, span):
    """cycles of [0, loop] within [store, store + span]"""
    return max(0.0, min(store + span, loop) - max(store, 0.0))


class _Trace:
    """A run's trace, per SM: each (role, phase)'s begin, end and warp
    arrays in begin order (M100's scripts)."""

    def __init__(self, path):
        with h5py.File(path, 'r') as f:
            t = f['trace']
            self.phases, self.roles = _names(t.attrs['phase_names']), _names(t.attrs['role_names'])
            self.ph, self.ro, self.sm, self.wp = t['phase'][:], t['role'][:], t['sm'][:], t['warp'][:]
            self.tile = t['tile'][:]
            self.beg, self.end = t['begin'][:].astype(np.int64), t['end'][:].astype(np.int64)
            self.kernel = dict(f['kernel'].attrs) if 'kernel' in f else {}  # model predict --trace-out has none
            self.problem = dict(f['problem'].attrs) if 'problem' in f else {}  # a model's trace (--trace-out) has none

    def sms(self):
        return np.unique(self.sm)

    def phase(self, sm, role, name):
        m = (self.sm == sm) & (self.ro == self.roles.index(role)) & (self.ph == self.phases.index(name))
        o = np.argsort(self.beg[m])
        return self.beg[m][o], self.end[m][o], self.wp[m][o]


def read_trace(path):
    return _Trace(path)
