#!/usr/bin/env bash
# Probe set 75 of issue 12 (docs/experiments.md M164): a fresh seed (147),
# the fixed pingpong (no A prefetch, since M142) with rings of 3 and 2
# stages at settings set 74 did not have: the ring depth is a
# compile-time constant (PG_STAGES), so each depth gets its own build
# (STAGE_BUILDS).  Every pingpong run is predicted from the 4-stage
# build's zero-delay run; the 4-stage --epi-delay 5,000 beside them.
#
#   scripts/gpu_probes75.sh OUTDIR      -> OUTDIR/probes75.tgz (+ the run files, the log)
SET=75
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 147"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_05000 --shape $SH --epi-delay 5000
ppst 3 epi_02600 --shape $SH --epi-delay 2600
ppst 3 epi_07000 --shape $SH --epi-delay 7000
ppst 3 ml_03000 --shape $SH --mainloop-delay 3000
ppst 3 n512_epi_01500 --shape $M,512,768,$P --epi-delay 1500
ppst 3 k640_epi_01000 --shape $M,768,640,$P --epi-delay 1000
ppst 2 epi_01000 --shape $SH --epi-delay 1000
ppst 2 epi_06000 --shape $SH --epi-delay 6000
ppst 2 ml_02500 --shape $SH --mainloop-delay 2500
ppst 2 k1024_ml_00000 --shape $M,768,1024,$P
probe_set_finish
