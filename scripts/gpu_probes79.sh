#!/usr/bin/env bash
# Probe set 79 of issue 12 (docs/experiments.md M170): a fresh seed (151),
# the two changes landed in M166 (the ring-depth share) and M168 (the
# store's issue slowed by the other warpgroup's loop) at settings no set
# has had: shallow rings at other K and N, short tiles under longer delays
# and a spin, N = 512 under a delay, a small M.  Every pingpong run from
# the 4-stage build's zero-delay run; no model change.
#
#   scripts/gpu_probes79.sh OUTDIR      -> OUTDIR/probes79.tgz (+ the run files, the log)
SET=79
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 151"
M=200704
P=196
pp ml_00000 --shape $SH
ppst 3 k512_epi_01000 --shape $M,768,512,$P --epi-delay 1000
ppst 3 k384_ml_00000 --shape $M,768,384,$P
ppst 3 k1280_epi_02000 --shape $M,768,1280,$P --epi-delay 2000
ppst 2 k512_ml_00000 --shape $M,768,512,$P
ppst 2 k1024_epi_03000 --shape $M,768,1024,$P --epi-delay 3000
ppst 2 n1024_epi_01500 --shape $M,1024,768,$P --epi-delay 1500
pp k256_epi_02500 --shape $M,768,256,$P --epi-delay 2500
pp k384_epi_05000 --shape $M,768,384,$P --epi-delay 5000
pp k512_ml_02500 --shape $M,768,512,$P --mainloop-delay 2500
pp n512_epi_02000 --shape $M,512,768,$P --epi-delay 2000
pp m67584_ml_00000 --shape 67584,768,768,$P
probe_set_finish
