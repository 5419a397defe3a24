#!/usr/bin/env bash
# Probe set 47 of issue 12 (docs/experiments.md M99): pingpong under spins,
# epilogue delays and both, at other N, M and K, at a fresh seed (115) and
# settings no set has had, for the `storewin` line (the other warpgroup's
# store window beside the loop) against the built-in.  The zero-delay run
# at N = K = 768 calibrates.
#
#   scripts/gpu_probes47.sh OUTDIR      -> OUTDIR/probes47.tgz (+ the run files, the log)
SET=47
source "$(dirname "$0")/probe_set_lib.sh"
S115="--seed 115"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S115
for d in 1700 2300 2900; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S115 --mainloop-delay $d
done
for d in 1400 2700 3900; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S115 --epi-delay $d
done
probe pingpong_both_1300_0900 $PG --variant pingpong --shape $SH $S115 --epi-delay 1300 --mainloop-delay 900
probe pingpong_n512_ml_01900 $PG --variant pingpong --shape $M,512,768,$P $S115 --mainloop-delay 1900
probe pingpong_m150528_ml_02400 $PG --variant pingpong --shape 150528,768,768,$P $S115 --mainloop-delay 2400
probe pingpong_k1152_ml_01000 $PG --variant pingpong --shape $M,768,1152,$P $S115 --mainloop-delay 1000
probe pingpong_k640_epi_00800 $PG --variant pingpong --shape $M,768,640,$P $S115 --epi-delay 800
probe pingpong_n1536_epi_02000 $PG --variant pingpong --shape $M,1536,768,$P $S115 --epi-delay 2000
probe_set_finish
