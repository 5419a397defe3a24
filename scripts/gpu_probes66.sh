#!/usr/bin/env bash
# Probe set 66 of issue 12 (docs/experiments.md M147): a fresh seed (138),
# broad on the fixed kernels (pingpong since M142, bres unchanged): every
# kind of change the probes have, at settings no set has had -- epilogue
# and mainloop delays, both at once, other K, N and M, a short run (8 tiles
# per SM), bres64 from bres's calibration, and two pingpong runs with the A
# prefetch on (--a-prefetch 1, "another kernel" to the model).  Each kernel
# is calibrated on its own zero-delay run at N = K = 768.
#
#   scripts/gpu_probes66.sh OUTDIR      -> OUTDIR/probes66.tgz (+ the run files, the log)
SET=66
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 138"
M=200704
P=196
pp ml_00000 --shape $SH
for d in 1000 2200 3000 4400 6200 8500; do pp epi_$(printf %05d $d) --shape $SH --epi-delay $d; done
for d in 600 1800 3000 4800; do pp ml_$(printf %05d $d) --shape $SH --mainloop-delay $d; done
pp both_1000_2000 --shape $SH --mainloop-delay 1000 --epi-delay 2000
pp k640_epi_01500 --shape $M,768,640,$P --epi-delay 1500
pp k896_epi_00000 --shape $M,768,896,$P
pp k1152_epi_02000 --shape $M,768,1152,$P --epi-delay 2000
pp k1408_epi_00000 --shape $M,768,1408,$P
pp n512_epi_02500 --shape $M,512,768,$P --epi-delay 2500
pp n1024_ml_01500 --shape $M,1024,768,$P --mainloop-delay 1500
pp m150528_epi_01200 --shape 150528,768,768,$P --epi-delay 1200
pp m22528 --shape 22528,768,768,$P
pp pf1_epi_00000 --shape $SH --a-prefetch 1
pp pf1_epi_03000 --shape $SH --a-prefetch 1 --epi-delay 3000
br ml_00000 --shape $SH
for d in 300 700 1100 2400 4000; do br epi_$(printf %05d $d) --shape $SH --epi-delay $d; done
for d in 800 2000; do br ml_$(printf %05d $d) --shape $SH --mainloop-delay $d; done
br k512_epi_00800 --shape $M,768,512,$P --epi-delay 800
br n384_epi_01000 --shape $M,384,768,$P --epi-delay 1000
br m175616_ml_01000 --shape 175616,768,768,$P --mainloop-delay 1000
probe bres64_ml_00000 $PG --variant bres64 $S --shape $SH
probe_set_finish
