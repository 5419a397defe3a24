#!/usr/bin/env bash
# Probe set 74 of issue 12 (docs/experiments.md M163): a fresh seed (146),
# the fixed pingpong (no A prefetch, since M142) with rings of 3 and 2
# stages, which no set has traced since the fix: the ring depth is a
# compile-time constant (PG_STAGES), so each depth gets its own build
# (STAGE_BUILDS).  Every pingpong run is predicted from the 4-stage
# build's zero-delay run; bres at zero delay and 2,200 beside them.
#
#   scripts/gpu_probes74.sh OUTDIR      -> OUTDIR/probes74.tgz (+ the run files, the log)
SET=74
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 146"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_02400 --shape $SH --epi-delay 2400
ppst 3 ml_00000 --shape $SH
ppst 3 epi_01200 --shape $SH --epi-delay 1200
ppst 3 epi_04000 --shape $SH --epi-delay 4000
ppst 3 ml_01500 --shape $SH --mainloop-delay 1500
ppst 3 k1024_epi_02000 --shape $M,768,1024,$P --epi-delay 2000
ppst 2 ml_00000 --shape $SH
ppst 2 epi_03000 --shape $SH --epi-delay 3000
ppst 2 ml_01000 --shape $SH --mainloop-delay 1000
br ml_00000 --shape $SH
br epi_02200 --shape $SH --epi-delay 2200
probe_set_finish
