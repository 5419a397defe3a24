#!/usr/bin/env bash
# Probe set 67 of issue 12 (docs/experiments.md M148): a fresh seed (139),
# the fixed pingpong with the A prefetch on (--a-prefetch 1, 2, 4) at
# delays, K, N and M no set has had, predicted from the plain calibration
# (M148's prefetch what-if), beside plain pingpong runs and bres at new
# settings.  Each kernel is calibrated on its own zero-delay run at
# N = K = 768.
#
#   scripts/gpu_probes67.sh OUTDIR      -> OUTDIR/probes67.tgz (+ the run files, the log)
SET=67
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 139"
M=200704
P=196
pp ml_00000 --shape $SH
pp pf1_epi_00000 --shape $SH --a-prefetch 1
pp pf1_epi_01500 --shape $SH --a-prefetch 1 --epi-delay 1500
pp pf1_epi_04500 --shape $SH --a-prefetch 1 --epi-delay 4500
pp pf2_epi_02500 --shape $SH --a-prefetch 2 --epi-delay 2500
pp pf4_epi_00000 --shape $SH --a-prefetch 4
pp pf1_ml_02000 --shape $SH --a-prefetch 1 --mainloop-delay 2000
pp pf1_k1152_epi_01500 --shape $M,768,1152,$P --a-prefetch 1 --epi-delay 1500
pp pf1_n512_epi_00000 --shape $M,512,768,$P --a-prefetch 1
pp pf1_n1024_epi_02000 --shape $M,1024,768,$P --a-prefetch 1 --epi-delay 2000
pp pf1_m100352_epi_02000 --shape 100352,768,768,$P --a-prefetch 1 --epi-delay 2000
pp epi_01800 --shape $SH --epi-delay 1800
pp epi_05000 --shape $SH --epi-delay 5000
pp ml_02500 --shape $SH --mainloop-delay 2500
pp k640_epi_02500 --shape $M,768,640,$P --epi-delay 2500
pp n512_epi_01500 --shape $M,512,768,$P --epi-delay 1500
pp k1280_epi_00000 --shape $M,768,1280,$P
br ml_00000 --shape $SH
br epi_01600 --shape $SH --epi-delay 1600
br ml_01400 --shape $SH --mainloop-delay 1400
br k384_epi_00500 --shape $M,768,384,$P --epi-delay 500
probe_set_finish
