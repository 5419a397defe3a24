#!/usr/bin/env bash
# Probe set 58 of issue 12 (docs/experiments.md M128): a fresh seed (130)
# to test M128 out of sample: bres with the whole tile's k-blocks in its A
# ring (K = 384 and 512; bres64 at K = 512) under --epi-delays no set has
# had and under a --mainloop-delay, K = 640 and the default K beside them,
# short runs of 10 and 12 tiles per SM (where the run's own period starts
# to apply), and pingpong runs the change should leave where they were.
# The zero-delay runs at N = K = 768 calibrate the scoreboard.
#
#   scripts/gpu_probes58.sh OUTDIR      -> OUTDIR/probes58.tgz (+ the run files, the log)
SET=58
source "$(dirname "$0")/probe_set_lib.sh"
S130="--seed 130"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S130
probe pingpong_epi_02700 $PG --variant pingpong --shape $SH $S130 --epi-delay 2700
probe pingpong_ml_02300 $PG --variant pingpong --shape $SH $S130 --mainloop-delay 2300
probe pingpong_k1024_epi_00900 $PG --variant pingpong --shape $M,768,1024,$P $S130 --epi-delay 900
probe pingpong_n512_ml_01000 $PG --variant pingpong --shape $M,512,768,$P $S130 --mainloop-delay 1000
probe pingpong_m100352_epi_01600 $PG --variant pingpong --shape 100352,768,768,$P $S130 --epi-delay 1600
probe pingpong_m33792 $PG --variant pingpong --shape 33792,768,768,$P $S130
probe pingpong_m28160 $PG --variant pingpong --shape 28160,768,768,$P $S130
probe bres_ml_00000 $PG --variant bres --shape $SH $S130
probe bres_k512_epi_01750 $PG --variant bres --shape $M,768,512,$P $S130 --epi-delay 1750
probe bres_k512_epi_02350 $PG --variant bres --shape $M,768,512,$P $S130 --epi-delay 2350
probe bres_k512_epi_03100 $PG --variant bres --shape $M,768,512,$P $S130 --epi-delay 3100
probe bres_k512_ml_01500 $PG --variant bres --shape $M,768,512,$P $S130 --mainloop-delay 1500
probe bres_k384_epi_02900 $PG --variant bres --shape $M,768,384,$P $S130 --epi-delay 2900
probe bres_k640_epi_03200 $PG --variant bres --shape $M,768,640,$P $S130 --epi-delay 3200
probe bres_epi_02000 $PG --variant bres --shape $SH $S130 --epi-delay 2000
probe bres_epi_03800 $PG --variant bres --shape $SH $S130 --epi-delay 3800
probe bres64_k512_epi_02400 $PG --variant bres64 --shape $M,768,512,$P $S130 --epi-delay 2400
probe bres_n384_k512_epi_02000 $PG --variant bres --shape $M,384,512,$P $S130 --epi-delay 2000
probe bres_m25344 $PG --variant bres --shape 25344,768,768,$P $S130
probe_set_finish
