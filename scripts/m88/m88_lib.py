"""Per-SM tile sequences of a pegemm run file's trace, for M88's analyses
(docs/experiments.md M88, M89): each SM's tiles in the order their
consumer mainloops started, with every traced (role, phase) interval."""
import h5py

def _names(attr):
    return [x.decode() if isinstance(x, bytes) else x for x in attr]

def tiles_by_sm(path):
    """(rec, seqs): rec[(tile, role, phase)] = (begin, end) (the first
    traced interval); seqs: per SM, its tiles in mainloop-start order."""
    with h5py.File(path, 'r') as f:
        t = f['trace']
        pn, rn = _names(t.attrs['phase_names']), _names(t.attrs['role_names'])
        cols = {k: t[k][:] for k in ('begin', 'end', 'phase', 'role', 'sm', 'tile')}
    rec, sm = {}, {}
    for b, e, p, r, tl, s in zip(cols['begin'], cols['end'], cols['phase'], cols['role'], cols['tile'], cols['sm']):
        rec.setdefault((int(tl), rn[r], pn[p]), (int(b), int(e)))
        sm[int(tl)] = int(s)
    seqs = {}
    for tl, s in sm.items():
        if (tl, 'consumer', 'mainloop') in rec:
            seqs.setdefault(s, []).append(tl)
    for s in seqs:
        seqs[s].sort(key=lambda x: rec[(x, 'consumer', 'mainloop')][0])
    return rec, list(seqs.values())
