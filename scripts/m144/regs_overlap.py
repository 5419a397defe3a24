#!/usr/bin/env python3
"""M144: pingpong's epilogue register work (epilogue_regs less the run's
--epi-delay) against its overlap with the other warpgroup's next mainloop,
per tile (each SM's tiles 8 .. n - 9): the least-squares slope per wall
cycle and per cycle of the loop's compute (3,072 of its duration), the
intercept, and the mean work in five overlap quintiles.  On a measured run
it is the kernel's contention law; on the model's --trace-out, whether the
model's tiles follow it.
   usage: regs_overlap.py RUN.h5..."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, tiles_in_loop_order  # noqa: E402

COMPUTE = 3072.0   # 24 x m64n256k32 at 8,192 FLOP/cycle (K = 768)


def work_and_overlap(path):
    with h5py.File(path, 'r') as f:
        delay = float(f['kernel'].attrs['epi_delay'])
    P = phase_intervals(path, ('mainloop', 'epilogue_regs'))
    ml, ep = P['mainloop'], P['epilogue_regs']
    work, ov, ov_compute = [], [], []
    for s, ks in tiles_in_loop_order(ml).items():
        for i in range(8, len(ks) - 8):
            eb, ee = ep[(s, ks[i])][0], ep[(s, ks[i])][1] - delay
            nb, ne = ml[(s, ks[i + 1])]
            o = overlap(eb, ee, nb, ne)
            work.append(ee - eb)
            ov.append(o)
            ov_compute.append(o * COMPUTE / (ne - nb))
    return np.array(work), np.array(ov), np.array(ov_compute)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        w, o, oc = work_and_overlap(path)
        wall, comp = np.polyfit(o, w, 1), np.polyfit(oc, w, 1)
        edges = np.quantile(o, np.linspace(0, 1, 6))
        bins = ['%.0f:%.0f' % (o[(o >= lo) & (o <= hi)].mean(), w[(o >= lo) & (o <= hi)].mean())
                for lo, hi in zip(edges[:-1], edges[1:])]
        print('%s: slope %.3f per wall cycle, %.3f per compute cycle, intercept %.0f | overlap:work by quintile %s'
              % (path, wall[0], comp[0], wall[1], ' '.join(bins)))
