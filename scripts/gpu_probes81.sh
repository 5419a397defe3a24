#!/usr/bin/env bash
# Probe set 81 of issue 12 (docs/experiments.md M174): a fresh seed (153),
# the fixed pingpong (4 stages, the production build) at settings sets
# 66-80 did not have -- short tiles under a spin and delays, long K, long
# delays and spins, other N and M -- each predicted from the set's zero-delay
# run by the built-in and by the `storewin` line per load (load_gain=0.5
# load_span=2000); bres beside it, which neither touches.
#
#   scripts/gpu_probes81.sh OUTDIR      -> OUTDIR/probes81.tgz (+ the run files, the log)
SET=81
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 153"
M=200704
P=196
pp ml_00000 --shape $SH
pp k256_ml_01200 --shape $M,768,256,$P --mainloop-delay 1200
pp k384_epi_02000 --shape $M,768,384,$P --epi-delay 2000
pp k512_epi_04500 --shape $M,768,512,$P --epi-delay 4500
pp k640_epi_01000 --shape $M,768,640,$P --epi-delay 1000
pp k1152_epi_03000 --shape $M,768,1152,$P --epi-delay 3000
pp k1536_ml_00000 --shape $M,768,1536,$P
pp epi_04200 --shape $SH --epi-delay 4200
pp epi_09000 --shape $SH --epi-delay 9000
pp ml_03500 --shape $SH --mainloop-delay 3500
pp ml_05000 --shape $SH --mainloop-delay 5000
pp n1280_epi_03000 --shape $M,1280,768,$P --epi-delay 3000
pp n1536_ml_02000 --shape $M,1536,768,$P --mainloop-delay 2000
pp m135168_epi_03000 --shape 135168,768,768,$P --epi-delay 3000
br ml_00000 --shape $SH
br epi_03700 --shape $SH --epi-delay 3700
br k1152_ml_01000 --shape $M,768,1152,$P --mainloop-delay 1000
probe_set_finish
