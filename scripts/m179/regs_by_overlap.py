#!/usr/bin/env python3
"""docs/experiments.md M179: the epilogue's register work against the other
warpgroup's next mainloop, in a run's trace or a simulated one (`pegemm
model predict --trace-out`; give its delay as RUN.h5:DELAY).  Per run: the
work (the epilogue_regs phase less the delay, which the kernel spins after
the work), a least-squares line against the overlap of that work with the
next tile's mainloop, the mainloop's mean, and the mean work (count) in
overlap bins of 500 cycles.  Run from the repository root.
  scripts/m179/regs_by_overlap.py RUN.h5[:DELAY]..."""
import sys, os, numpy as np, h5py
sys.path.insert(0, 'scripts/m136')
from tile_phases import phase_intervals, steady_tiles, overlap
for arg in sys.argv[1:]:
    p, _, D = arg.partition(':')
    D = int(D) if D else int(h5py.File(p)['kernel'].attrs['epi_delay'])
    I = phase_intervals(p, ('mainloop', 'epilogue_regs'))
    ml, er = I['mainloop'], I['epilogue_regs']
    R = []
    for s, ks, j in steady_tiles(ml):
        if (s, ks[j]) not in er: continue
        x0, x1 = er[(s, ks[j])]
        w = x1 - x0 - D
        n0, n1 = ml[(s, ks[j+1])]
        R.append((w, overlap(x0, x0 + w, n0, n1), n1 - n0))
    R = np.array(R)
    c = np.linalg.lstsq(np.vstack([np.ones(len(R)), R[:,1]]).T, R[:,0], rcond=None)[0]
    b = [R[(R[:,1] >= lo) & (R[:,1] < lo + 500), 0] for lo in range(0, 3500, 500)]
    print('%-24s work %5.0f = %5.0f + %.3f x work-overlap | ML %5.0f | by overlap bin of 500:' % (os.path.basename(p)[:-3], R[:,0].mean(), c[0], c[1], R[:,2].mean()),
          ' '.join('%4.0f(%d)' % (x.mean(), len(x)) if len(x) > 20 else '   -' for x in b))
