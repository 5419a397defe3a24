#!/usr/bin/env python3
"""M88: pingpong's store drain and the untraced gap before order_wait, per
run.  On the tiles whose order_wait ended more than 400 cycles after the
other warpgroup's mainloop (the drain bound it): the drain from the same
warpgroup's previous store start (and from its end) to the order_wait's
end, its overlap of the other warpgroup's mainloop, and the per-tile slope
of the drain on that overlap; on every tile the gap from that store's end
to the order_wait's start.

  scripts/m88/drain_by_delay.py RUN.h5..."""
import sys
import numpy as np
from m88_lib import tiles_by_sm

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        rec, seqs = tiles_by_sm(path)
        drain, from_end, ov, gap = [], [], [], []
        for seq in seqs:
            for i in range(2, len(seq)):
                k, other, back = seq[i], seq[i - 1], seq[i - 2]
                try:
                    ow = rec[(k, 'consumer', 'order_wait')]
                    ml = rec[(other, 'consumer', 'mainloop')]
                    st = rec[(back, 'consumer', 'epilogue_store')]
                except KeyError:
                    continue
                gap.append(ow[0] - st[1])
                if ow[1] - ml[1] < 400:
                    continue
                d = ow[1] - st[0]
                drain.append(d)
                from_end.append(ow[1] - st[1])
                ov.append(max(0, min(st[0] + d, ml[1]) - max(st[0], ml[0])))
        drain, ov = np.array(drain, float), np.array(ov, float)
        if len(drain) < 100:
            print('%s: %d drain-bound tiles, too few' % (path, len(drain)))
            continue
        (a, slope), *_ = np.linalg.lstsq(np.vstack([np.ones_like(ov), ov]).T, drain, rcond=None)
        print('%s: gap %.0f | drain-bound %d: drain %.0f (from the store end %.0f), overlap %.0f, slope %.3f'
              % (path, np.mean(gap), len(drain), drain.mean(), np.mean(from_end), ov.mean(), slope))

if __name__ == '__main__':
    main()
