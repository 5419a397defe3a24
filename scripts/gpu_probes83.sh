#!/usr/bin/env bash
# Probe set 83 of issue 12 (docs/experiments.md M179): a fresh seed (155),
# the fixed pingpong (4 stages, the production build) and bres at spins,
# epilogue delays, both delays at once and another M that sets 66-82 did not
# have, and one short tile under a delay, to put the built-in `clock` line
# (the SM clock at the power cap; the clock a delay moves held in ns) to
# data it was not read from: each run predicted from the set's zero-delay
# run by `pegemm model validate`, with the line and with `--set clock=0`.
#
#   scripts/gpu_probes83.sh OUTDIR      -> OUTDIR/probes83.tgz (+ the run files, the log)
SET=83
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 155"
M=200704
P=196
pp ml_00000 --shape $SH
pp ml_01600 --shape $SH --mainloop-delay 1600
pp ml_03400 --shape $SH --mainloop-delay 3400
pp ml_05600 --shape $SH --mainloop-delay 5600
pp ml_09000 --shape $SH --mainloop-delay 9000
pp epi_01100 --shape $SH --epi-delay 1100
pp epi_02800 --shape $SH --epi-delay 2800
pp epi_05800 --shape $SH --epi-delay 5800
pp epi_09200 --shape $SH --epi-delay 9200
pp both_2000_1000 --shape $SH --epi-delay 2000 --mainloop-delay 1000
pp both_3500_4000 --shape $SH --epi-delay 3500 --mainloop-delay 4000
pp m100352_ml_03000 --shape 100352,768,768,$P --mainloop-delay 3000
pp m150528_epi_02600 --shape 150528,768,768,$P --epi-delay 2600
pp k512_epi_03000 --shape $M,768,512,$P --epi-delay 3000
br ml_00000 --shape $SH
br ml_04000 --shape $SH --mainloop-delay 4000
br epi_03000 --shape $SH --epi-delay 3000
br epi_07500 --shape $SH --epi-delay 7500
probe_set_finish
