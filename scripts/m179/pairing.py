#!/usr/bin/env python3
"""docs/experiments.md M179: the two warpgroups' relative phase under a delay,
in a run's trace or in the model's simulated trace (`pegemm model predict
--trace-out`).  Per run, over each SM's steady tiles in loop order: the gap
from one mainloop's end to the next one's start (the other warpgroup's), its
median alternation |gap_j - gap_j+1| and the share of gaps under 300 cycles
(a paired state, the second loop right behind the first, gives half the
gaps short); and the epilogue's register work (less the delay) against its
overlap with the other warpgroup's next mainloop: a least-squares line and
the mean where that loop overlaps it by more than 2,500 cycles (the leader
of a pair).
  scripts/m179/pairing.py RUN.h5[:DELAY]...   (DELAY: the --epi-delay of a
  simulated trace, which has no /kernel attributes)"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'm136'))
from tile_phases import overlap, phase_intervals, steady_tiles  # noqa: E402


def delay_of(path, given):
    if given is not None:
        return int(given)
    with h5py.File(path, 'r') as f:
        return int(f['kernel'].attrs['epi_delay'])


def one(arg):
    path, _, given = arg.partition(':')
    D = delay_of(path, given or None)
    I = phase_intervals(path, ('mainloop', 'epilogue_regs'))
    ml, er = I['mainloop'], I['epilogue_regs']
    gaps, alt, regs = [], [], []
    for s, ks, j in steady_tiles(ml):
        a = ml[(s, ks[j])][0] - ml[(s, ks[j - 1])][1]
        b = ml[(s, ks[j + 1])][0] - ml[(s, ks[j])][1]
        gaps.append(a)
        alt.append(abs(a - b))
        if (s, ks[j]) in er:
            x0, x1 = er[(s, ks[j])]
            regs.append((x1 - x0 - D, overlap(x0, x1, *ml[(s, ks[j + 1])])))
    g, R = np.array(gaps), np.array(regs)
    c = np.linalg.lstsq(np.vstack([np.ones(len(R)), R[:, 1]]).T, R[:, 0], rcond=None)[0]
    lead = R[R[:, 1] > 2500, 0]
    return ('%-26s %5d %6.0f %6.0f %5.2f   %5.0f + %.3f ov  %5.0f (%d)' %
            (os.path.basename(path)[:-3], D, g.mean(), np.median(alt), (g < 300).mean(), c[0], c[1],
             lead.mean() if len(lead) else float('nan'), len(lead)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print('%-26s %5s %6s %6s %5s   %-17s %s' % ('run', 'delay', 'gap', 'alt', '<300', 'regs - delay', 'leader (n)'))
    for a in sys.argv[1:]:
        print(one(a), flush=True)


if __name__ == '__main__':
    main()
