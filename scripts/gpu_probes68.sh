#!/usr/bin/env bash
# Probe set 68 of issue 12 (docs/experiments.md M153): a fresh seed (140),
# the fixed pingpong at long epilogue delays (to 10,000), K, N and M under
# a delay, a mainloop delay and both at once, two prefetch builds, and bres
# as a control, at settings no set has had.  Each kernel is calibrated on
# its own zero-delay run at N = K = 768; the prefetch builds have none and
# are predicted from the plain pingpong's (M148).
#
#   scripts/gpu_probes68.sh OUTDIR      -> OUTDIR/probes68.tgz (+ the run files, the log)
SET=68
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 140"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_01400 --shape $SH --epi-delay 1400
pp epi_03500 --shape $SH --epi-delay 3500
pp epi_05500 --shape $SH --epi-delay 5500
pp epi_07500 --shape $SH --epi-delay 7500
pp epi_10000 --shape $SH --epi-delay 10000
pp k1024_epi_04000 --shape $M,768,1024,$P --epi-delay 4000
pp k640_epi_03500 --shape $M,768,640,$P --epi-delay 3500
pp k896_epi_06000 --shape $M,768,896,$P --epi-delay 6000
pp n512_epi_04000 --shape $M,512,768,$P --epi-delay 4000
pp n1024_epi_05000 --shape $M,1024,768,$P --epi-delay 5000
pp m125440_epi_03000 --shape 125440,768,768,$P --epi-delay 3000
pp ml_01200 --shape $SH --mainloop-delay 1200
pp both_2200_3000 --shape $SH --mainloop-delay 2200 --epi-delay 3000
pp pf1_epi_06000 --shape $SH --a-prefetch 1 --epi-delay 6000
pp pf1_k1024_epi_03000 --shape $M,768,1024,$P --a-prefetch 1 --epi-delay 3000
br ml_00000 --shape $SH
br epi_03000 --shape $SH --epi-delay 3000
br epi_06000 --shape $SH --epi-delay 6000
br ml_01500 --shape $SH --mainloop-delay 1500
probe_set_finish
