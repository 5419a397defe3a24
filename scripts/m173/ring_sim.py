#!/usr/bin/env python3
"""M173: a ring of S stages fed by one producer and drained by consumers
that take tiles in turn (pingpong), simulated k-block by k-block with a
landing-to-release round trip, against M155/M165/M172's per-k-block clocks.
Per k-block g (tiles back to back in the ring, KB k-blocks a tile):
  issue[g]   = release[g - S] + h          (the producer waits on the slot)
  landed[g]  = issue[g] + L
  start[g]   = max(landed[g] + w, retire[g - 1])   w: the consumer's wake
               (within a tile; a tile's first k-block also waits for the
               previous tile's loop end plus the turn)
  retire[g]  = start[g] + c
  release[g] = max(start[g + 1] + r, retire[g]) for g not a tile's last
               (the consumer frees slot g once g + 1's wgmmas are issued and
               g retired: r the issue-and-arrive time), the loop end for the last
Prints the steady mean of each k-block's length (release j - release j - 1,
as the clocks measure it) for each ring and K the clocks have.
   usage: ring_sim.py [L c h w r turn]"""
import sys

MEASURED = {  # (S, KB): k-blocks 1..KB-1 lengths, one H200, zero delay
    (4, 6): [584, 548, 1019, 549, 481], (4, 7): [571, 548, 961, 686, 590, 480],
    (4, 10): [602, 548, 864, 535, 723, 552, 984, 572, 480],
    (3, 6): [649, 932, 1366, 662, 431], (3, 7): [629, 1533, 642, 1843, 606, 412],
    (3, 9): [626, 1484, 644, 1875, 617, 1407, 638, 415],
    (2, 5): [1874, 2488, 1746, 463], (2, 6): [1963, 2002, 1869, 1321, 458],
    (2, 7): [1820, 2491, 1725, 1706, 1691, 461],
}


def simulate(S, KB, L, c, h, w, r, turn, tiles=60):
    n = tiles * KB
    issue, landed, start, retire, release = ([0.0] * n for _ in range(5))
    for g in range(n):
        k = g % KB
        issue[g] = (release[g - S] + h) if g >= S else 0.0
        landed[g] = issue[g] + L
        if k == 0:
            prev_end = retire[g - 1] + turn if g else 0.0
            start[g] = max(landed[g] + w, prev_end)
        else:
            start[g] = max(landed[g] + w, retire[g - 1])
        retire[g] = start[g] + c
        if k > 0:  # slot g - 1 freed once g is issued and g - 1 retired
            release[g - 1] = max(start[g] + r, retire[g - 1])
        if k == KB - 1:
            release[g] = retire[g]
    lens = [[] for _ in range(KB - 1)]
    for t in range(20, tiles - 5):
        for j in range(1, KB):
            g = t * KB + j
            lens[j - 1].append(release[g] - release[g - 1])
    return [sum(x) / len(x) for x in lens]


if __name__ == '__main__':
    a = [float(x) for x in sys.argv[1:]] or [1600, 540, 80, 150, 250, 150]
    L, c, h, w, r, turn = a
    print('L %.0f c %.0f h %.0f w %.0f r %.0f turn %.0f' % (L, c, h, w, r, turn))
    err = 0.0
    for (S, KB), meas in sorted(MEASURED.items()):
        sim = simulate(S, KB, L, c, h, w, r, turn)
        err += sum(abs(x - y) for x, y in zip(sim, meas)) / len(meas)
        print('S %d KB %2d  sim  %s' % (S, KB, ' '.join('%5.0f' % x for x in sim)))
        print('          meas %s' % ' '.join('%5.0f' % x for x in meas))
    print('mean |sim - meas| per k-block, averaged over the shapes: %.0f' % (err / len(MEASURED)))
