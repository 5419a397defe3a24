#!/usr/bin/env bash
# Probe set 60 of issue 12 (docs/experiments.md M130): a fresh seed (132),
# pingpong at fewer column blocks than its calibration (N = 256 and 512,
# under each delay, another M, another K) where `colshare whole=2` moves
# the in-loop loads' queue too, with N = 1,280 and 2,048 beside them (more
# blocks: unchanged), and bres controls (no colshare line: unchanged).
# The zero-delay runs at N = K = 768 calibrate the scoreboard.
#
#   scripts/gpu_probes60.sh OUTDIR      -> OUTDIR/probes60.tgz (+ the run files, the log)
SET=60
source "$(dirname "$0")/probe_set_lib.sh"
S132="--seed 132"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S132
probe pingpong_n256_epi_01100 $PG --variant pingpong --shape $M,256,768,$P $S132 --epi-delay 1100
probe pingpong_n256_ml_00800 $PG --variant pingpong --shape $M,256,768,$P $S132 --mainloop-delay 800
probe pingpong_n256_both_0600_0600 $PG --variant pingpong --shape $M,256,768,$P $S132 --epi-delay 600 --mainloop-delay 600
probe pingpong_m250880_n256 $PG --variant pingpong --shape 250880,256,768,$P $S132
probe pingpong_n256_k640 $PG --variant pingpong --shape $M,256,640,$P $S132
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P $S132
probe pingpong_n512_epi_01900 $PG --variant pingpong --shape $M,512,768,$P $S132 --epi-delay 1900
probe pingpong_m100352_n512_epi_00900 $PG --variant pingpong --shape 100352,512,768,$P $S132 --epi-delay 900
probe pingpong_n1280_epi_01600 $PG --variant pingpong --shape $M,1280,768,$P $S132 --epi-delay 1600
probe pingpong_n2048_ml_00900 $PG --variant pingpong --shape $M,2048,768,$P $S132 --mainloop-delay 900
probe bres_ml_00000 $PG --variant bres --shape $SH $S132
probe bres_n384_epi_00800 $PG --variant bres --shape $M,384,768,$P $S132 --epi-delay 800
probe bres_k512_epi_02200 $PG --variant bres --shape $M,768,512,$P $S132 --epi-delay 2200
probe bres_n1152_epi_01400 $PG --variant bres --shape $M,1152,768,$P $S132 --epi-delay 1400
probe_set_finish
