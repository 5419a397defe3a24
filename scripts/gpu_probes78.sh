#!/usr/bin/env bash
# Probe set 78 of issue 12 (docs/experiments.md M168): a fresh seed (150),
# the fixed pingpong at short tiles (K = 256 / 384 / 512), small M, N = 256
# and K = 768 under delays and a spin, each predicted from its zero-delay
# run by the built-in and by M168's candidate (the store's issue slowed by
# the other warpgroup's mainloop: a `contend epilogue_store` line); bres at
# K = 256 and a small M from its own zero-delay run.
#
#   scripts/gpu_probes78.sh OUTDIR      -> OUTDIR/probes78.tgz (+ the run files, the log)
SET=78
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 150"
M=200704
P=196
pp ml_00000 --shape $SH
pp k256_ml_00000 --shape $M,768,256,$P
pp k256_epi_04000 --shape $M,768,256,$P --epi-delay 4000
pp k384_epi_01200 --shape $M,768,384,$P --epi-delay 1200
pp k384_ml_02000 --shape $M,768,384,$P --mainloop-delay 2000
pp k512_ml_00000 --shape $M,768,512,$P
pp k512_epi_02500 --shape $M,768,512,$P --epi-delay 2500
pp m45056_ml_00000 --shape 45056,768,768,$P
pp m84480_epi_01500 --shape 84480,768,768,$P --epi-delay 1500
pp n256_epi_04000 --shape $M,256,768,$P --epi-delay 4000
pp epi_02000 --shape $SH --epi-delay 2000
pp epi_06500 --shape $SH --epi-delay 6500
pp ml_02200 --shape $SH --mainloop-delay 2200
br ml_00000 --shape $SH
br k256_epi_00600 --shape $M,768,256,$P --epi-delay 600
br m42240_epi_01500 --shape 42240,768,768,$P --epi-delay 1500
probe_set_finish
