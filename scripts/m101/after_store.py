#!/usr/bin/env python3
"""docs/experiments.md M101: pingpong with the --epi-delay spun before the
D store (the production trace build) and after it (the diagnostic build
-DPG_DIAG_DELAY_AFTER_STORE), each predicted from its own zero-delay run by
the built-in schedule and by `storewin=1`.

  scripts/m101/after_store.py RUNS_DIR

RUNS_DIR holds before_epi_DDDDD.h5 and after_epi_DDDDD.h5 (scripts/gpu_m101.sh).
For the after-store build the schedule moves the delay from the
epilogue's work to a step of its own after the store (written to a
temporary file from `pegemm model show`).  Prints, per run and model, the
measured and predicted loop (mean mainloop) and tile period."""
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace  # noqa: E402

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))
WORK, WORK_AFTER = '  work epilogue_regs + $epi_delay\n', '  work epilogue_regs\n'
GAP = '  delay $consumer_gap + consumer_untraced\n'
STOREWIN_OFF, STOREWIN_ON = 'option storewin 0 0|1', 'option storewin 1 0|1'


def schedules(tmp):
    """{(build, model): schedule file}"""
    text = subprocess.run([PG, 'model', 'show', '--schedule', 'h100-pingpong'], check=True,
                          capture_output=True, text=True).stdout
    if WORK not in text or GAP not in text or STOREWIN_OFF not in text:
        sys.exit('after_store.py: h100-pingpong no longer has the lines this script moves')
    after = text.replace(WORK, WORK_AFTER).replace(GAP, '  delay $epi_delay\n' + GAP)
    out = {}
    for build, t in (('before', text), ('after', after)):
        for model, u in (('built-in', t), ('storewin', t.replace(STOREWIN_OFF, STOREWIN_ON))):
            path = os.path.join(tmp, '%s_%s.sched' % (build, model))
            with open(path, 'w') as f:
                f.write(u)
            out[build, model] = path
    return out


def measured_loop(path):
    tr = read_trace(path)
    return float(np.mean(np.concatenate([e - b for b, e, _ in (tr.phase(u, 'consumer', 'mainloop') for u in tr.sms())])))


def predicted(fitted, delay):
    out = subprocess.run([PG, 'model', 'predict', '--schedule', fitted, '--set', 'epi_delay=%d' % delay,
                          '--json', '-', '--tiles', '40000'], check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    return r['phases']['mainloop']['mean'], r['tile_period']


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        sch = schedules(tmp)
        print('%-7s %6s %-9s %7s %7s %6s | %7s %7s %7s' % ('build', 'delay', 'model', 'loop', 'pred', 'diff',
                                                           'period', 'pred', 'diff'))
        for build in ('before', 'after'):
            runs = sorted(glob.glob(os.path.join(argv[0], build + '_epi_*.h5')))
            if not runs:
                continue
            for model in ('built-in', 'storewin'):
                fitted = os.path.join(tmp, 'fit_%s_%s.sched' % (build, model))
                subprocess.run([PG, 'model', 'fit', runs[0], '--schedule', sch[build, model], '-q', '-o', fitted],
                               check=True, stdout=subprocess.DEVNULL)
                val = subprocess.run([PG, 'model', 'validate', runs[0]] + runs[1:] +
                                     ['--schedule', sch[build, model], '--json', '-', '-q'],
                                     capture_output=True, text=True).stdout
                periods = {os.path.basename(r['path']): r for r in json.loads(val)['runs']}
                for p in runs:
                    d = int(read_trace(p).kernel.get('epi_delay', 0))
                    loop = measured_loop(p)
                    ploop, _ = predicted(fitted, d)
                    r = periods[os.path.basename(p)]
                    pm, pp = r['tile_period_measured'], r['tile_period_predicted']
                    print('%-7s %6d %-9s %7.0f %7.0f %+6.0f | %7.0f %7.0f %+6.1f%%' % (
                        build, d, model, loop, ploop, ploop - loop, pm, pp, 100 * (pp / pm - 1)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
