#!/usr/bin/env bash
# Probe set 82 of issue 12 (docs/experiments.md M178): a fresh seed (154),
# the fixed pingpong (4 stages, the production build) and bres at spins and
# epilogue delays sets 66-81 did not have, both delays at once, and three
# shapes under a spin, to put M178's clock law (the SM clock at the power
# cap from the predicted tensor duty and tile rate) to data it was not read
# from: each run's clock and period predicted from the set's zero-delay run
# by scripts/m178/clock_law.py (MODE=cycles: the clock; MODE=ns: the loads
# and the drain held in ns at that clock) and by the built-in.
#
#   scripts/gpu_probes82.sh OUTDIR      -> OUTDIR/probes82.tgz (+ the run files, the log)
SET=82
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 154"
M=200704
P=196
pp ml_00000 --shape $SH
pp ml_02800 --shape $SH --mainloop-delay 2800
pp ml_04300 --shape $SH --mainloop-delay 4300
pp ml_06500 --shape $SH --mainloop-delay 6500
pp epi_01600 --shape $SH --epi-delay 1600
pp epi_04700 --shape $SH --epi-delay 4700
pp epi_07800 --shape $SH --epi-delay 7800
pp both_1500_2500 --shape $SH --epi-delay 1500 --mainloop-delay 2500
pp n1280_ml_03000 --shape $M,1280,768,$P --mainloop-delay 3000
pp k1024_ml_01500 --shape $M,768,1024,$P --mainloop-delay 1500
pp k640_ml_02000 --shape $M,768,640,$P --mainloop-delay 2000
br ml_00000 --shape $SH
br ml_02500 --shape $SH --mainloop-delay 2500
br ml_06000 --shape $SH --mainloop-delay 6000
br epi_05500 --shape $SH --epi-delay 5500
br epi_01600 --shape $SH --epi-delay 1600
probe_set_finish
