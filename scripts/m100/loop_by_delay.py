#!/usr/bin/env python3
"""docs/experiments.md M100: pingpong's loop and tensor idle across an
--epi-delay sweep, measured against the model fitted on its zero-delay run.

  scripts/m100/loop_by_delay.py [--schedule FILE.sched] ZERO.h5 RUN.h5...

Fits ZERO.h5 (`pegemm model fit`, with the schedule given, e.g. one with
`option storewin 1`), then predicts each RUN's --epi-delay with
`pegemm model predict --set epi_delay=D` (40,000 tiles) and prints the
measured mean mainloop, tensor idle (period less loop) and the model's."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm99'))
from m99_lib import read_trace  # noqa: E402

PG = os.environ.get('PEGEMM', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'cli', 'pegemm'))


def measured(path):
    tr = read_trace(path)
    loops, periods = [], []
    for u in tr.sms():
        b, e, _ = tr.phase(u, 'consumer', 'mainloop')
        loops.extend(e - b)
        if len(b) > 8:
            periods.append((b[-1] - b[2]) / (len(b) - 3))
    return float(tr.kernel.get('epi_delay', 0)), float(np.mean(loops)), float(np.mean(periods))


def main(argv):
    schedule = []
    if len(argv) > 1 and argv[0] == '--schedule':
        schedule, argv = ['--schedule', argv[1]], argv[2:]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        fitted = os.path.join(tmp, 'fit.sched')
        subprocess.run([PG, 'model', 'fit', argv[0], '-q', '-o', fitted] + schedule, check=True, stdout=subprocess.DEVNULL)
        print('%6s %8s %8s %6s %8s %8s %6s' % ('delay', 'loop', 'model', 'diff', 'idle', 'model', 'diff'))
        for p in argv:
            d, loop, period = measured(p)
            out = subprocess.run([PG, 'model', 'predict', '--schedule', fitted, '--set', 'epi_delay=%d' % d,
                                  '--json', '-', '--tiles', '40000'], check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            ploop = r['phases']['mainloop']['mean']
            pidle = r['waits']['tensor_idle']['mean']
            print('%6.0f %8.0f %8.0f %+6.0f %8.0f %8.0f %+6.0f' % (d, loop, ploop, ploop - loop, period - loop, pidle, pidle - (period - loop)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
