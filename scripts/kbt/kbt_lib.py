"""The diagnostic build's per-k-block clocks (PG_KB_TRACE, docs/experiments.md
M45; kernel/ws_skeleton.cuh) as the scripts of this directory read them:
raw int64 [CT CTAs][TI tiles][KK k-blocks][issue, landed, released], and
the run file's trace beside it (Chrome JSON via `pegemm trace export`)."""
import json, os, struct, subprocess, tempfile, statistics

CT, TI, KK = 132, 64, 16
ISSUE, LANDED, RELEASED = 0, 1, 2
PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))

def load(path):
    raw = open(path, 'rb').read()
    return struct.unpack('<%dq' % (len(raw) // 8), raw)

def get(v, c, t, k, w):
    return v[((c * TI + t) * KK + k) * 3 + w]

def med(x):
    return statistics.median(x) if x else float('nan')

def mean(x):
    return sum(x) / len(x) if x else float('nan')

def trace_events(run_h5):
    """(cycles per us, {SM: [complete events]}) of the run file's trace."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([PG, 'trace', 'export', '--chrome', run_h5, '-o', tmp + '/t.json', '-q'], check=True)
        d = json.load(open(tmp + '/t.json'))
    by = {}
    for e in d['traceEvents']:
        if e.get('ph') == 'X':
            by.setdefault(e['pid'], []).append(e)
    return d['otherData']['sm_clock_hz'] / 1e6, by

def clock_offset(v, c, events, f):
    """The CTA's raw clock less the trace's time (us x f): its producer_issue starts against the k-block 0 issues."""
    piss = sorted([e for e in events if e['name'] == 'producer_issue'], key=lambda e: e['ts'])
    if len(piss) < TI:
        return None
    return med([get(v, c, i, 0, ISSUE) - piss[i]['ts'] * f for i in range(TI) if get(v, c, i, 0, ISSUE) > 0])

def joined(d_dir, name):
    """For each CTA of DIR/NAME.kbt whose trace in DIR/NAME.h5 covers its
    tiles: (c, clocks, its trace events, cycles per us, clock offset)."""
    f, by = trace_events('%s/%s.h5' % (d_dir, name))
    v = load('%s/%s.kbt' % (d_dir, name))
    for c in range(CT):
        evs = by.get(c, [])
        off = clock_offset(v, c, evs, f)  # raw clock = ts * f + off
        if off is not None:
            yield c, v, evs, f, off
