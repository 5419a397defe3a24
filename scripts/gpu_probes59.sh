#!/usr/bin/env bash
# Probe set 59 of issue 12 (docs/experiments.md M128, its second fresh set):
# a fresh seed (131), M128 where its pairing is partial or untried: bres at
# K = 512 under short --epi-delays, at K = 256 and 384, with both delays,
# at N = 1,152 and M = 100,352, bres64 at K = 384, K = 640 beside them,
# and pingpong at K <= 512 under long delays (does pingpong pair too?).
# The zero-delay runs at N = K = 768 calibrate the scoreboard.
#
#   scripts/gpu_probes59.sh OUTDIR      -> OUTDIR/probes59.tgz (+ the run files, the log)
SET=59
source "$(dirname "$0")/probe_set_lib.sh"
S131="--seed 131"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S131
probe pingpong_k384_epi_03000 $PG --variant pingpong --shape $M,768,384,$P $S131 --epi-delay 3000
probe pingpong_k256_epi_02500 $PG --variant pingpong --shape $M,768,256,$P $S131 --epi-delay 2500
probe pingpong_k512_epi_02000 $PG --variant pingpong --shape $M,768,512,$P $S131 --epi-delay 2000
probe pingpong_k512_epi_04000 $PG --variant pingpong --shape $M,768,512,$P $S131 --epi-delay 4000
probe bres_ml_00000 $PG --variant bres --shape $SH $S131
probe bres_k512_epi_00900 $PG --variant bres --shape $M,768,512,$P $S131 --epi-delay 900
probe bres_k512_epi_01300 $PG --variant bres --shape $M,768,512,$P $S131 --epi-delay 1300
probe bres_k384_epi_01500 $PG --variant bres --shape $M,768,384,$P $S131 --epi-delay 1500
probe bres_k256_epi_02500 $PG --variant bres --shape $M,768,256,$P $S131 --epi-delay 2500
probe bres_k512_both_2400_0400 $PG --variant bres --shape $M,768,512,$P $S131 --epi-delay 2400 --mainloop-delay 400
probe bres_k640_epi_01800 $PG --variant bres --shape $M,768,640,$P $S131 --epi-delay 1800
probe bres64_k384_epi_02000 $PG --variant bres64 --shape $M,768,384,$P $S131 --epi-delay 2000
probe bres_n1152_k512_epi_02400 $PG --variant bres --shape $M,1152,512,$P $S131 --epi-delay 2400
probe bres_m100352_k512_epi_02000 $PG --variant bres --shape 100352,768,512,$P $S131 --epi-delay 2000
probe_set_finish
