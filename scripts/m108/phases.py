#!/usr/bin/env python3
"""M108 (docs/experiments.md): per phase, measured against the model's
prediction for each delay run of a probe set at its calibration's shape
(pingpong_{ml,epi,both}_*.h5 beside pingpong_ml_00000.h5), with h100-pingpong
at regs_by_compute=0 (off) and =1 (on, the built-in since M109): the loop and the
epilogue's register work less their probe's spin, the store, the load and
order waits.  Ends with each model's mean |error| of the register work over
the runs with a --mainloop-delay.

  scripts/m108/phases.py RUNSDIR        (PEGEMM=binary, default build/cli/pegemm)
Exit 0, or 2 on bad input."""
import glob, os, re, subprocess, sys, tempfile
import h5py

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))
PHASES = ('order_wait', 'load_wait', 'mainloop', 'epilogue_regs', 'epilogue_store')

def measured(path):
    t = h5py.File(path, 'r')['trace']
    names = [n.decode() if isinstance(n, bytes) else n for n in t.attrs['phase_names']]
    ph, d = t['phase'][:], (t['end'][:] - t['begin'][:]).astype(float)
    return {n: d[ph == names.index(n)].mean() for n in PHASES}

def delays(path):
    k = h5py.File(path, 'r')['kernel'].attrs
    return int(k['epi_delay']), int(k['mainloop_delay'])

def predicted(cal, sched, epi, ml):
    out = subprocess.run([PG, 'model', 'fit', cal, '-q', '--schedule', sched, '--set', 'epi_delay=%d' % epi,
                          '--set', 'mainloop_delay=%d' % ml], capture_output=True, text=True, check=True).stdout
    p = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] in PHASES:
            p[f[0]] = float(f[1])
    return p

def main():
    if len(sys.argv) != 2 or not os.path.exists(os.path.join(sys.argv[1], 'pingpong_ml_00000.h5')):
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    cal = os.path.join(d, 'pingpong_ml_00000.h5')
    with tempfile.TemporaryDirectory() as tmp:
        scheds = {}
        for label, v in (('off', '0'), ('on', '1')):
            scheds[label] = os.path.join(tmp, label + '.sched')
            with open(scheds[label], 'w') as f:
                subprocess.run([PG, 'model', 'show', '--schedule', 'h100-pingpong', '--set', 'regs_by_compute=' + v], stdout=f, check=True)
        err = {k: [] for k in scheds}
        print('%-28s %5s %5s  %-17s %-17s %-17s %-17s %-17s' % ('run', 'epi', 'spin', 'regs meas/off/on', 'loop meas/off/on',
                                                                'ow meas/off/on', 'lw meas/off/on', 'store meas/off/on'))
        for path in sorted(glob.glob(os.path.join(d, 'pingpong_*.h5'))):
            b = os.path.basename(path)
            if not re.match(r'pingpong_(ml|epi|both)_\d+(_\d+)?\.h5$', b) or b == 'pingpong_ml_00000.h5':
                continue
            e, m = delays(path)
            mm = measured(path)
            p = {k: predicted(cal, s, e, m) for k, s in scheds.items()}
            col = lambda ph, off: '%5.0f/%5.0f/%5.0f' % (mm[ph] - off, p['off'][ph] - off, p['on'][ph] - off)
            print('%-28s %5d %5d  %s %s %s %s %s' % (b, e, m, col('epilogue_regs', e), col('mainloop', m),
                                                      col('order_wait', 0), col('load_wait', 0), col('epilogue_store', 0)))
            if m > 0:
                for k in scheds:
                    err[k].append(abs(p[k]['epilogue_regs'] - mm['epilogue_regs']))
        for k, v in err.items():
            if v:
                print('mean |regs error| over %d runs with a spin, %s: %.0f cycles' % (len(v), k, sum(v) / len(v)))
    return 0

if __name__ == '__main__':
    sys.exit(main())
