#!/usr/bin/env python3
"""Every probe set at once (docs/experiments.md M33): for each SET/GPU/runs
directory given, calibrate each kernel on its own zero-delay run there
(pingpong_ml_00000, bres_ml_00000; a bres --epi-delay seed sweep
bres_epi_sN_* on its bres_epi_sN_00000) and predict every other run of it
with `pegemm model validate`; count the out-of-sample runs whose period is
within 3%, whose every mean wait is within 15% or 150 cycles, and both.

  scripts/probe_scoreboard.py SETDIR...        (SETDIR/{h100,h200}/runs/*.h5, or a committed set's
                                               folder of runs, traces/probes/h200_s84: its name's
                                               first four letters say the GPU)
  PP="--schedule F --set contend.window=1"     extra validate arguments for pingpong
  BR="..."                                     the same for bres;  V=1: one line per run
  X=1                                          also across GPUs: each GPU's runs from the other's
                                               calibration, with --floors from both probes.log
                                               (the bench's D2D copy floor)
  FLOOR=1                                      same machine with --floors CAL too (the bandwidth
                                               line at the set's own copy floor: M42, not the default)
  HELD=1                                       validate --held: with V=1, each run's held shares per
                                               latency (measured/predicted; M152: the turn's share)
  BIAS=1                                       also, per GPU, kernel and what the runs change (validate's
                                               `change`: delay, K, delay+N, ...), the mean signed period
                                               error, the mean |error| and the period misses: a bias
                                               the counts hide (docs/experiments.md M117)

Exit 0 when every table was computed, 1 if a validate call failed, 2 on bad input."""
import glob, json, os, subprocess, sys, collections

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'cli', 'pegemm'))

def groups(runs_dir):
    files = sorted(f for f in glob.glob(runs_dir + '/*.h5') if 'bench' not in os.path.basename(f))
    base = lambda f: os.path.basename(f)
    out = []
    pp = [f for f in files if base(f).startswith('pingpong')]
    if pp and os.path.exists(runs_dir + '/pingpong_ml_00000.h5'):
        out.append(('pingpong', runs_dir + '/pingpong_ml_00000.h5', pp, os.environ.get('PP', '').split()))
    br = [f for f in files if base(f).startswith('bres') and '_epi_s' not in base(f)]
    if br and os.path.exists(runs_dir + '/bres_ml_00000.h5'):
        out.append(('bres', runs_dir + '/bres_ml_00000.h5', br, os.environ.get('BR', '').split()))
    for cal in sorted(glob.glob(runs_dir + '/bres_epi_s*_00000.h5')):
        pre = cal[:-len('00000.h5')]
        out.append(('bres_epi', cal, [f for f in files if f.startswith(pre)], os.environ.get('BR', '').split()))
    return out

def floor(sd, g):
    """The bench's D2D copy floor (GB/s) in SETDIR/GPU/probes.log, or None."""
    try:
        with open(os.path.join(sd, g, 'probes.log')) as f:
            for line in f:
                if line.strip().startswith('D2D copy of compulsory bytes'):
                    return float(line.split('GB/s')[0].split()[-1])
    except OSError:
        pass
    return None

def tables(sd, cross):
    """(label, calibration runs dir, target runs dir, extra args) for one set."""
    out = []
    flat = os.path.basename(os.path.normpath(sd))
    if glob.glob(os.path.join(sd, '*.h5')) and flat[:4] in ('h100', 'h200'):
        # a committed set: the runs and probes.log in one folder (traces/probes/h200_s84)
        f = floor(sd, '')
        return [(flat[:4], sd, sd, ['--floors', '%g' % f] if f and os.environ.get('FLOOR') else [])]
    for g in ('h100', 'h200'):
        d, f = os.path.join(sd, g, 'runs'), floor(sd, g)
        if os.path.isdir(d):
            out.append((g, d, d, ['--floors', '%g' % f] if f and os.environ.get('FLOOR') else []))
    if cross:
        for g, o in (('h200', 'h100'), ('h100', 'h200')):
            d, c = os.path.join(sd, g, 'runs'), os.path.join(sd, o, 'runs')
            fc, fg = floor(sd, o), floor(sd, g)
            if os.path.isdir(d) and os.path.isdir(c) and fc and fg:
                out.append(('%s<-%s' % (g, o), c, d, ['--floors', '%g,%g' % (fc, fg)]))
    return out

def target_runs(runs_dir, cal_runs):
    """The runs in runs_dir that correspond to each calibration's group."""
    names = set(os.path.basename(f) for f in glob.glob(runs_dir + '/*.h5'))
    return [os.path.join(runs_dir, os.path.basename(f)) for f in cal_runs if os.path.basename(f) in names]

def main(argv):
    if not argv or not os.access(PG, os.X_OK):
        print(__doc__ if not argv else 'no pegemm at %s (build first, or set PEGEMM)' % PG, file=sys.stderr)
        return 2
    tot, failed = collections.Counter(), 0
    bias = collections.defaultdict(list)  # (gpu, kernel, change) -> [(period error, ok)]
    labels = []
    for sd in argv:
        for g, cal_dir, runs_dir, xargs in tables(sd, os.environ.get('X')):
            if g not in labels:
                labels.append(g)
            for kind, cal, cal_runs, extra in groups(cal_dir):
                runs = target_runs(runs_dir, cal_runs)
                if not runs:
                    continue
                held = ['--held'] if os.environ.get('HELD') else []
                r = subprocess.run([PG, 'model', 'validate', cal] + runs + extra + xargs + held + ['--json', '-', '-q'],
                                   capture_output=True, text=True)
                if not r.stdout.strip():
                    print('failed: %s %s %s: %s' % (sd, g, kind, r.stderr.strip()), file=sys.stderr)
                    failed += 1
                    continue
                for row in json.loads(r.stdout)['runs']:
                    if row['kind'] != 'out-of-sample':
                        continue
                    p, w = row['tile_period_ok'], row['waits_ok']
                    err = row['tile_period_predicted'] / row['tile_period_measured'] - 1
                    bias[(g, kind.split('_')[0], row['change'])].append((err, p))
                    for k, v in (('n', 1), ('p', p), ('w', w), ('b', p and w)):
                        tot[(g, kind, k)] += v
                    if os.environ.get('V'):
                        print('%s %s %-9s %-28s %+6.1f%% %-4s %-4s %s' % (os.path.basename(sd.rstrip('/')), g, kind,
                              os.path.basename(row['path']), 100 * err, 'ok' if p else 'MISS', 'ok' if w else 'MISS',
                              ' '.join(k for k, v in row['waits'].items() if not v['ok'])) + held_text(row))
    print('gpu       kernel    runs period waits both')
    for g in labels:
        for kind in ('pingpong', 'bres', 'bres_epi'):
            if tot[(g, kind, 'n')]:
                print('%-9s %-9s %4d %6d %5d %4d' % (g, kind, tot[(g, kind, 'n')], tot[(g, kind, 'p')],
                                                    tot[(g, kind, 'w')], tot[(g, kind, 'b')]))
    if os.environ.get('BIAS'):
        print_bias(bias)
    return 1 if failed else 0

def held_text(row):
    """' | held NAME m/p% ...' from validate --held's row ('' without it)"""
    pct = lambda x: '-' if x is None else '%.0f' % (100 * x)
    return ''.join(' | held %s %s/%s%%' % (k, pct(v['measured']), pct(v['predicted']))
                   for k, v in row.get('held', {}).items())

def print_bias(bias):
    """One row per (gpu, kernel, change): runs, mean signed and mean absolute
    period error (%), period misses."""
    print('gpu       kernel    change              runs   mean   |mean|  period misses')
    for (g, kind, change), rows in sorted(bias.items()):
        errs = [100 * e for e, _ in rows]
        print('%-9s %-9s %-18s %5d %+6.2f%% %6.2f%%  %d' % (g, kind, change or '(none)', len(rows),
              sum(errs) / len(errs), sum(abs(e) for e in errs) / len(errs), sum(1 for _, ok in rows if not ok)))

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
