#!/usr/bin/env bash
# Probe set 70 of issue 12 (docs/experiments.md M156): a fresh seed (142),
# eleven runs of the fixed pingpong built with --a-prefetch D (D = 1, 2, 3)
# at settings no set has had (zero delay to 6,000, K = 896, N = 512 and
# 1,280, M = 150,528, a mainloop delay), predicted from the plain
# pingpong's zero-delay run (M148, M156); plain pingpong and bres runs as
# the built-in's out-of-sample check.
#
#   scripts/gpu_probes70.sh OUTDIR      -> OUTDIR/probes70.tgz (+ the run files, the log)
SET=70
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 142"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_00900 --shape $SH --epi-delay 900
pp epi_02600 --shape $SH --epi-delay 2600
pp epi_04200 --shape $SH --epi-delay 4200
pp epi_06800 --shape $SH --epi-delay 6800
pp k1152_epi_01000 --shape $M,768,1152,$P --epi-delay 1000
pp n1280_epi_02000 --shape $M,1280,768,$P --epi-delay 2000
pp ml_02500 --shape $SH --mainloop-delay 2500
pp pf1_epi_00000 --shape $SH --a-prefetch 1
pp pf1_epi_01000 --shape $SH --a-prefetch 1 --epi-delay 1000
pp pf1_epi_02200 --shape $SH --a-prefetch 1 --epi-delay 2200
pp pf1_epi_03800 --shape $SH --a-prefetch 1 --epi-delay 3800
pp pf2_n1280_epi_00000 --shape $M,1280,768,$P --a-prefetch 2
pp pf3_epi_01600 --shape $SH --a-prefetch 3 --epi-delay 1600
pp pf1_k896_epi_01200 --shape $M,768,896,$P --a-prefetch 1 --epi-delay 1200
pp pf1_n512_epi_02800 --shape $M,512,768,$P --a-prefetch 1 --epi-delay 2800
pp pf1_m150528_epi_00000 --shape 150528,768,768,$P --a-prefetch 1
pp pf1_ml_01500 --shape $SH --a-prefetch 1 --mainloop-delay 1500
pp pf2_epi_06000 --shape $SH --a-prefetch 2 --epi-delay 6000
br ml_00000 --shape $SH
br epi_01800 --shape $SH --epi-delay 1800
br ml_02200 --shape $SH --mainloop-delay 2200
probe_set_finish
