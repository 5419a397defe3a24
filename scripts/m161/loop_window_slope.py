#!/usr/bin/env python3
"""M161: pingpong's loop against its overlap with the other warpgroup's
store window (the 3,000 cycles from the start of the previous loop's
tile's epilogue_store, as h100-pingpong's `storewin` line has it): the
least-squares line loop = a + b x overlap over each SM's tiles 8 .. n - 9,
and the mean overlap.  Works on a measured run or the model's trace.
   usage: loop_window_slope.py RUN.h5..."""
import sys, os, numpy as np
sys.path.insert(0, '/work/main/scripts/m136')
from tile_phases import phase_intervals, tiles_in_loop_order, overlap
span=3000
if len(sys.argv) < 2:
    sys.exit(__doc__)
for path in sys.argv[1:]:
    P = phase_intervals(path, ('mainloop','epilogue_store'))
    ml,st=P['mainloop'],P['epilogue_store']
    R=[]
    for s,ks in tiles_in_loop_order(ml).items():
        for j in range(8,len(ks)-8):
            k,kp=ks[j],ks[j-1]
            a0,a1=ml[(s,k)]; o=st[(s,kp)][0]
            R.append((a1-a0, overlap(a0,a1,o,o+span)))
    R=np.array(R)
    A=np.vstack([np.ones(len(R)),R[:,1]]).T
    c=np.linalg.lstsq(A,R[:,0],rcond=None)[0]
    print('%-34s loop = %5.0f + %.3f x overlap(window %d)  mean overlap %5.0f'%(os.path.basename(path),c[0],c[1],span,R[:,1].mean()))
