#!/usr/bin/env bash
# Probe set 34 of issue 12 (docs/experiments.md M84): the `colshare` line
# on pingpong alone, at one and two column blocks with delays, a spin,
# another M and K, and at larger N.  Seed 101.  The zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes34.sh OUTDIR      -> OUTDIR/probes34.tgz (+ the run files, the log)
SET=34
source "$(dirname "$0")/probe_set_lib.sh"
S101="--seed 101"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S101
probe pingpong_n256 $PG --variant pingpong --shape $M,256,768,$P $S101
probe pingpong_n256_epi_02500 $PG --variant pingpong --shape $M,256,768,$P $S101 --epi-delay 2500
probe pingpong_n256_ml_01200 $PG --variant pingpong --shape $M,256,768,$P $S101 --mainloop-delay 1200
probe pingpong_n256_k512 $PG --variant pingpong --shape $M,256,512,$P $S101
probe pingpong_m50176_n256 $PG --variant pingpong --shape 50176,256,768,$P $S101
probe pingpong_n512_epi_00800 $PG --variant pingpong --shape $M,512,768,$P $S101 --epi-delay 800
probe pingpong_n1024_epi_03000 $PG --variant pingpong --shape $M,1024,768,$P $S101 --epi-delay 3000
probe pingpong_n2304 $PG --variant pingpong --shape $M,2304,768,$P $S101
probe pingpong_epi_01500 $PG --variant pingpong --shape $SH $S101 --epi-delay 1500
probe_set_finish
