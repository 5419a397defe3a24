#!/usr/bin/env bash
# Probe set 26 of issue 12 (docs/experiments.md M74): rings deeper than a
# tile's k-blocks (kblocks < stages), where the schedules' `buffer stages`
# line held the producer's first-stage wait on the wrong tile: bres at K =
# 128, 256, 384 (4 stages), with a delay or spin; bres64 at K = 256, 384
# (8 stages of 64); pingpong at K = 256, 384; bres at K = 512 with a spin
# (kblocks = stages: unchanged by the fix), at a new seed (61).  Each
# variant's zero-delay run at K = 768 calibrates; bres64 also from bres's.
#
#   scripts/gpu_probes26.sh OUTDIR      -> OUTDIR/probes26.tgz (+ the run files, the log)
SET=26
source "$(dirname "$0")/probe_set_lib.sh"
S61="--seed 61"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S61
for K in 128 256 384; do
    probe bres_k$K $PG --variant bres --shape $M,768,$K,$P $S61
done
probe bres_k384_epi_01000 $PG --variant bres --shape $M,768,384,$P $S61 --epi-delay 1000
probe bres_k384_ml_01500 $PG --variant bres --shape $M,768,384,$P $S61 --mainloop-delay 1500
probe bres_k256_epi_02500 $PG --variant bres --shape $M,768,256,$P $S61 --epi-delay 2500
probe bres_k512_ml_00700 $PG --variant bres --shape $M,768,512,$P $S61 --mainloop-delay 700
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S61
probe bres64_k384 $PG --variant bres64 --shape $M,768,384,$P $S61
probe bres64_k256 $PG --variant bres64 --shape $M,768,256,$P $S61
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S61
probe pingpong_k384 $PG --variant pingpong --shape $M,768,384,$P $S61
probe pingpong_k256 $PG --variant pingpong --shape $M,768,256,$P $S61
probe pingpong_k384_epi_01500 $PG --variant pingpong --shape $M,768,384,$P $S61 --epi-delay 1500
probe_set_finish
