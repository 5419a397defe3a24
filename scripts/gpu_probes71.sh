#!/usr/bin/env bash
# Probe set 71 of issue 12 (docs/experiments.md M158): a fresh seed (143),
# the default kernel bres alone at settings no set has had: epilogue delays
# from 200 to 8,000, K = 640 / 1,024 / 1,280, N = 576 / 1,152, M = 100,352,
# mainloop spins of 600 and 3,000, both at once, and bres64 from bres's
# calibration.  bres is calibrated on its own zero-delay run.
#
#   scripts/gpu_probes71.sh OUTDIR      -> OUTDIR/probes71.tgz (+ the run files, the log)
SET=71
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 143"
M=200704
P=196
br ml_00000 --shape $SH
br epi_00200 --shape $SH --epi-delay 200
br epi_00900 --shape $SH --epi-delay 900
br epi_02000 --shape $SH --epi-delay 2000
br epi_04500 --shape $SH --epi-delay 4500
br epi_08000 --shape $SH --epi-delay 8000
br k640_epi_01500 --shape $M,768,640,$P --epi-delay 1500
br k1024_epi_00600 --shape $M,768,1024,$P --epi-delay 600
br k1280_epi_00000 --shape $M,768,1280,$P
br n576_epi_02000 --shape $M,576,768,$P --epi-delay 2000
br n1152_epi_00900 --shape $M,1152,768,$P --epi-delay 900
br m100352_epi_03500 --shape 100352,768,768,$P --epi-delay 3500
br ml_00600 --shape $SH --mainloop-delay 600
br ml_03000 --shape $SH --mainloop-delay 3000
br both_1200_1200 --shape $SH --mainloop-delay 1200 --epi-delay 1200
probe bres64_epi_02500 $PG --variant bres64 $S --shape $SH --epi-delay 2500
probe_set_finish
