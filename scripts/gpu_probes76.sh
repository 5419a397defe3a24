#!/usr/bin/env bash
# Probe set 76 of issue 12 (docs/experiments.md M166): a fresh seed (148),
# the fixed pingpong (no A prefetch, since M142) with rings of 3 and 2
# stages at settings sets 74-75 did not have: the ring depth is a
# compile-time constant (PG_STAGES), so each depth gets its own build
# (STAGE_BUILDS).  Every pingpong run is predicted from the 4-stage
# build's zero-delay run; the 4-stage --epi-delay 3,600 beside them.
#
#   scripts/gpu_probes76.sh OUTDIR      -> OUTDIR/probes76.tgz (+ the run files, the log)
SET=76
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 148"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_03600 --shape $SH --epi-delay 3600
ppst 3 epi_00600 --shape $SH --epi-delay 600
ppst 3 epi_05000 --shape $SH --epi-delay 5000
ppst 3 ml_02000 --shape $SH --mainloop-delay 2000
ppst 3 n1024_epi_02000 --shape $M,1024,768,$P --epi-delay 2000
ppst 3 k1024_ml_00000 --shape $M,768,1024,$P
ppst 3 k640_epi_03000 --shape $M,768,640,$P --epi-delay 3000
ppst 2 epi_02000 --shape $SH --epi-delay 2000
ppst 2 epi_08000 --shape $SH --epi-delay 8000
ppst 2 ml_01500 --shape $SH --mainloop-delay 1500
ppst 2 n512_epi_01000 --shape $M,512,768,$P --epi-delay 1000
probe_set_finish
