#!/usr/bin/env python3
"""M152: the least-squares line period error = a + b (kernel share - model
share) over the rows of scripts/m152/modes_vs_error.sh's output whose run is
a plain epilogue-delay run (an _epi_ name, not a prefetch build, no mainloop
delay, not the zero-delay K runs).
   usage: modes_fit.py MODES_VS_ERROR.txt"""
import re
import sys

import numpy as np

ROW = re.compile(r'^(\S+\.h5)\s+kernel\s+(\S+)\s+model\s+(\S+)\s+period\s+([+-]\d+\.\d)%')

if len(sys.argv) != 2:
    sys.exit(__doc__)
rows = []
with open(sys.argv[1]) as f:
    for line in f:
        m = ROW.match(line)
        if not m or 'nan' in (m.group(2), m.group(3)):
            continue
        name = m.group(1)
        if '_epi_' in name and '_pf' not in name and not name.endswith('epi_00000.h5'):
            rows.append((name, float(m.group(2)) - float(m.group(3)), float(m.group(4))))
d = np.array([r[1] for r in rows])
e = np.array([r[2] for r in rows])
b, a = np.polyfit(d, e, 1)
print('%d plain epilogue-delay runs (%s): error = %+.1f%% %+.1f x (kernel - model share), r = %.2f'
      % (len(rows), ', '.join(r[0] for r in rows), a, b, np.corrcoef(d, e)[0, 1]))
