#!/usr/bin/env bash
# Probe set 33 of issue 12 (docs/experiments.md M83): the `colshare` line
# (the A loads' DRAM share by the row block's column blocks) on both
# kernels across N, with and without delays: pingpong at N = 256 to 2,560,
# bres at N = 192 to 1,536.  Seed 97.  Each variant's zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes33.sh OUTDIR      -> OUTDIR/probes33.tgz (+ the run files, the log)
SET=33
source "$(dirname "$0")/probe_set_lib.sh"
S97="--seed 97"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S97
probe pingpong_n256_epi_01000 $PG --variant pingpong --shape $M,256,768,$P $S97 --epi-delay 1000
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P $S97
probe pingpong_n1280_ml_00800 $PG --variant pingpong --shape $M,1280,768,$P $S97 --mainloop-delay 800
probe pingpong_n1792 $PG --variant pingpong --shape $M,1792,768,$P $S97
probe pingpong_n2560_epi_02000 $PG --variant pingpong --shape $M,2560,768,$P $S97 --epi-delay 2000
probe pingpong_m100352_n256 $PG --variant pingpong --shape 100352,256,768,$P $S97
probe bres_ml_00000 $PG --variant bres --shape $SH $S97
probe bres_n192 $PG --variant bres --shape $M,192,768,$P $S97
probe bres_n384 $PG --variant bres --shape $M,384,768,$P $S97
probe bres_n576_ml_01000 $PG --variant bres --shape $M,576,768,$P $S97 --mainloop-delay 1000
probe bres_n960 $PG --variant bres --shape $M,960,768,$P $S97
probe bres_n1344_epi_01200 $PG --variant bres --shape $M,1344,768,$P $S97 --epi-delay 1200
probe bres_n1536 $PG --variant bres --shape $M,1536,768,$P $S97
probe_set_finish
