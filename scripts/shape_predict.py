#!/usr/bin/env python3
"""Probes at another K or N predicted before they run (docs/experiments.md
M40, M41): each probe of a list predicted from a zero-delay calibration
run, with the what-ifs `pegemm model validate` derives for it
(model/validate_whatif.c; spelled out here by the same definitions, since
the runs do not exist yet; on set 10 they matched validate's own on every
run) applied to the calibration's self-fit.  (Named m40_predict.py, with
set 10's list inside, until M41.)

  scripts/shape_predict.py RUNSDIR LIST   (RUNSDIR/{bres,pingpong}_ml_00000.h5)
  VARIANT="P=V ..."                       pingpong fitted with these (validate --variant; M47)

LIST: one probe per line, `NAME KIND N K TILE_K STAGES [SET...]` (KIND bres
or pingpong: the calibration run and the tile width; SET: extra what-ifs
such as epi_delay=1000); # starts a comment.

Prints one line per probe: the predicted tile period, its ratio to the
calibration's measured period, and the mean waits.  Exit 0, 1 if a
validate call failed, 2 on bad input."""
import json, os, subprocess, sys

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'cli', 'pegemm'))
M = 200704  # the probe sets' M (and the calibrations': N = K = 768)

def tiles(m, n, tile_n):
    return -(-m // 64) * -(-n // tile_n)

def shape_sets(kind, n, k, tile_k, stages, cal_stages=4, cal_tile_k=128):
    """What validate derives for a run at (M, n, k) from a calibration at (M, 768, 768)."""
    tile_n = 192 if kind == 'bres' else 256
    t = tiles(M, n, tile_n)
    sets = []
    if n != 768:
        sets.append('tiles=%d' % t)
    if n != 768 or k != 768:
        sets.append('flops=%d' % (2 * M * n * k))
    if kind == 'bres' and n != 768:
        groups = 132 // (n // 192)
        if groups * (n // 192) != 132:
            sets.append('units=%d' % (groups * (n // 192)))
    if k // tile_k != 768 // cal_tile_k:
        sets.append('kblocks=%d' % (k // tile_k))
    if stages != cal_stages:
        sets.append('stages=%d' % stages)
    return sets, t, k / 768.0

def fitted_compute(cal):
    """The calibration's fitted kblocks compute (as written: a number or TILE/(COUNT))."""
    out = subprocess.run([PG, 'model', 'fit', cal, '-q', '-o', '-'], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    for line in out.stdout.splitlines():
        if line.startswith('kblocks '):
            return dict(x.split('=', 1) for x in line.split() if '=' in x)['compute']
    raise RuntimeError('no kblocks line in the fit of ' + cal)

def predict(cal, sets, variant=()):
    cmd = [PG, 'model', 'validate', cal, cal, '--json', '-', '-q'] + [a for s in sets for a in ('--set', s)]
    cmd += [a for v in variant for a in ('--variant', v)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not r.stdout.strip():
        raise RuntimeError(r.stderr)
    row = json.loads(r.stdout)['runs'][0]
    return row['tile_period_measured'], row['tile_period_predicted'], {k: v['predicted'] for k, v in row['waits'].items()}

def read_list(path):
    probes = []
    with open(path) as f:
        for line in f:
            p = line.split('#', 1)[0].split()
            if not p:
                continue
            if len(p) < 6 or p[1] not in ('bres', 'pingpong'):
                raise ValueError('%s: expected NAME KIND N K TILE_K STAGES [SET...]: %s' % (path, line.strip()))
            probes.append((p[0], p[1], int(p[2]), int(p[3]), int(p[4]), int(p[5]), p[6:]))
    return probes

def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    try:
        probes = read_list(sys.argv[2])
    except (OSError, ValueError) as e:
        print('shape_predict.py: %s' % e, file=sys.stderr)
        return 2
    fits = {}
    for name, kind, n, k, tk, st, extra in probes:
        cal = os.path.join(d, kind + '_ml_00000.h5')
        try:
            if kind not in fits:
                fits[kind] = fitted_compute(cal)
        except RuntimeError as e:
            print('%-26s failed: %s' % (name, e), file=sys.stderr)
            return 1
        kb = fits[kind]
        sets, t, ratio = shape_sets(kind, n, k, tk, st)
        if ratio != 1:
            tile_kb = float(kb.split('/')[0]) if '/' in kb else float(kb) * 6
            # the kblocks loop carries the work; the bandwidth line, on the same phase, keeps its split
            sets += ['kblocks.tile_compute=%.9g' % (tile_kb * ratio)]
        if n != 768 or k != 768:
            sets.append('bandwidth.bytes_per_tile=%.17g' % ((M * k + 2.0 * M * n) / t))
        sets += extra
        try:
            meas, pred, waits = predict(cal, sets, os.environ.get('VARIANT', '').split() if kind == 'pingpong' else ())
        except RuntimeError as e:
            print('%-26s failed: %s' % (name, e), file=sys.stderr)
            return 1
        print('%-26s %7.0f  x%.3f  ' % (name, pred, pred / meas) +
              ' '.join('%s=%.0f' % (w, v) for w, v in sorted(waits.items())) + '   [' + ' '.join(sets) + ']')
    return 0

if __name__ == '__main__':
    sys.exit(main())
