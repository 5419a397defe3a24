#!/usr/bin/env bash
# Probe set 77 of issue 12 (docs/experiments.md M167): a fresh seed (149),
# the fixed pingpong where no set since the fix has traced it -- short
# tiles (K = 256 / 384 / 512: the 4-stage ring holds a whole tile or more),
# one column block (N = 256) and many (N = 2,048 / 3,072), a small M -- and
# bres at K = 384 / 512 and N = 384.  pingpong predicted from its
# zero-delay run, bres from its own.
#
#   scripts/gpu_probes77.sh OUTDIR      -> OUTDIR/probes77.tgz (+ the run files, the log)
SET=77
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 149"
M=200704
P=196
pp ml_00000 --shape $SH
pp k256_epi_01500 --shape $M,768,256,$P --epi-delay 1500
pp k384_ml_00000 --shape $M,768,384,$P
pp k384_epi_03000 --shape $M,768,384,$P --epi-delay 3000
pp k512_epi_00800 --shape $M,768,512,$P --epi-delay 800
pp k512_ml_01200 --shape $M,768,512,$P --mainloop-delay 1200
pp n256_ml_00000 --shape $M,256,768,$P
pp n256_epi_02000 --shape $M,256,768,$P --epi-delay 2000
pp n256_ml_01500 --shape $M,256,768,$P --mainloop-delay 1500
pp n2048_epi_01000 --shape $M,2048,768,$P --epi-delay 1000
pp n3072_ml_00000 --shape $M,3072,768,$P
pp m56320_epi_02000 --shape 56320,768,768,$P --epi-delay 2000
br ml_00000 --shape $SH
br k384_epi_01000 --shape $M,768,384,$P --epi-delay 1000
br k512_ml_01000 --shape $M,768,512,$P --mainloop-delay 1000
br n384_ml_00000 --shape $M,384,768,$P
probe_set_finish
