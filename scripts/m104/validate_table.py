#!/usr/bin/env python3
"""docs/experiments.md M104/M105: `pegemm model validate CAL.h5 RUN.h5...`
as one line per out-of-sample run: its what-if kind, period error, and the
waits that miss the target (15% or 150 cycles).

  scripts/m104/validate_table.py CAL.h5 RUN.h5... [-- VALIDATE ARGS]
  PEGEMM=path/to/pegemm to use another build."""
import json
import os
import subprocess
import sys
import tempfile

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))


def main(argv):
    extra = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'v.json')
        subprocess.run([PG, 'model', 'validate'] + argv + ['--json', out, '-q'] + extra, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.exists(out):
            print('validate wrote no report', file=sys.stderr)
            return 1
        d = json.load(open(out))
    n = ok_p = ok_w = ok_b = 0
    for r in d['runs']:
        if r['kind'] != 'out-of-sample':
            continue
        err = 100 * (r['tile_period_predicted'] / r['tile_period_measured'] - 1)
        miss = [k for k, v in r['waits'].items() if not v['ok']]
        n += 1
        ok_p += abs(err) <= 3
        ok_w += not miss
        ok_b += abs(err) <= 3 and not miss
        print('%-24s %-12s %+5.1f%% %s' % (os.path.basename(r['path']), r['change'], err,
                                          'waits ok' if not miss else 'miss ' + ' '.join(miss)))
    print('out of sample: %d runs; periods within 3%% %d, waits %d, both %d' % (n, ok_p, ok_w, ok_b))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
