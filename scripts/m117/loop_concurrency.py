#!/usr/bin/env python3
"""How many SMs run their k-block loop at once (docs/experiments.md M117).

  scripts/m117/loop_concurrency.py RUN.h5...

Each SM's clock64 goes onto the global timer through the trace's per-SM
anchors (/trace/anchor_clock, anchor_globaltimer_ns); a --mainloop-delay
spin is taken off the traced loop's end.  Over the middle 80% of the run:
the mean traced loop (cycles), the mean number of other SMs' loops running
during a loop, the machine-wide count of running loops over time (mean,
sd: a large sd means the SMs' loops cluster in time), and the slope of a
tile's loop length against the loops running beside it (cycles per loop)."""
import sys
import numpy as np
import h5py


def loops_on_global_time(f):
    t = f['trace']
    names = [x if isinstance(x, str) else x.decode() for x in t.attrs['phase_names']]
    roles = [x if isinstance(x, str) else x.decode() for x in t.attrs['role_names']]
    hz = float(f['kernel'].attrs['sm_clock_hz'])
    spin = float(f['kernel'].attrs.get('mainloop_delay', 0))
    m = (t['phase'][:] == names.index('mainloop')) & (t['role'][:] == roles.index('consumer'))
    sm = t['sm'][:][m]
    ac, ag = t['anchor_clock'][:], t['anchor_globaltimer_ns'][:]
    begin = ag[sm] + (t['begin'][:][m] - ac[sm]) / hz * 1e9
    end = ag[sm] + (t['end'][:][m] - spin - ac[sm]) / hz * 1e9
    return begin, end, hz, len(ac)


def running_count(begin, end):
    """the step function 'loops running' as (times, counts, integral at each time)"""
    ev = np.concatenate([np.stack([begin, np.ones_like(begin)], 1), np.stack([end, -np.ones_like(end)], 1)])
    ev = ev[np.argsort(ev[:, 0], kind='stable')]
    times, counts = ev[:, 0], np.cumsum(ev[:, 1])
    area = np.concatenate([[0], np.cumsum(counts[:-1] * np.diff(times))])
    return times, counts, area


def integral(times, counts, area, x):
    i = np.clip(np.searchsorted(times, x, side='right') - 1, 0, len(times) - 1)
    return area[i] + counts[i] * (x - times[i])


def report(path):
    with h5py.File(path, 'r') as f:
        begin, end, hz, sms = loops_on_global_time(f)
    times, counts, area = running_count(begin, end)
    t0, t1 = np.percentile(begin, 10), np.percentile(begin, 90)
    sel = (begin > t0) & (end < t1)
    length = (end - begin)[sel] * hz / 1e9
    beside = (integral(times, counts, area, end) - integral(times, counts, area, begin))[sel] / (end - begin)[sel] - 1
    grid = np.linspace(t0, t1, 20000)
    over_time = counts[np.clip(np.searchsorted(times, grid, side='right') - 1, 0, len(times) - 1)]
    slope = np.polyfit(beside, length, 1)[0]
    print('%-28s loop %5.0f cycles | beside a loop %5.1f of %d SMs | running over time mean %5.1f sd %4.1f | '
          'slope %+5.1f cycles per loop beside' % (path.split('/')[-1], length.mean(), beside.mean(), sms,
                                                   over_time.mean(), over_time.std(), slope))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for p in sys.argv[1:]:
        report(p)
