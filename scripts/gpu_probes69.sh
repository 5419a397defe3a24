#!/usr/bin/env bash
# Probe set 69 of issue 12 (docs/experiments.md M154): bres built with
# --a-prefetch 1 / 2 / 4 (the A block D tiles ahead into the L2, instead
# of the tile's own just before its loads) beside the plain bres at the
# same settings, a fresh seed (141).  The prefetch builds are predicted
# from the plain bres's zero-delay run (scripts/m154/score_pf.sh).
#
#   scripts/gpu_probes69.sh OUTDIR      -> OUTDIR/probes69.tgz (+ the run files, the log)
SET=69
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 141"
br ml_00000 --shape $SH
br epi_01100 --shape $SH --epi-delay 1100
br epi_03000 --shape $SH --epi-delay 3000
br ml_01500 --shape $SH --mainloop-delay 1500
br pf1_epi_00000 --shape $SH --a-prefetch 1
br pf1_epi_01100 --shape $SH --a-prefetch 1 --epi-delay 1100
br pf1_epi_03000 --shape $SH --a-prefetch 1 --epi-delay 3000
br pf1_ml_01500 --shape $SH --a-prefetch 1 --mainloop-delay 1500
br pf2_epi_00000 --shape $SH --a-prefetch 2
br pf4_epi_01100 --shape $SH --a-prefetch 4 --epi-delay 1100
probe_set_finish
