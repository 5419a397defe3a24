#!/usr/bin/env bash
# Probe set 32 of issue 12 (docs/experiments.md M82): pingpong across N and
# K, where the `bandwidth` line's traffic at another N is in question
# (traffic=dram, today, against dram_k and kblocks): N = 256 to 2,048 with
# and without delays, a spin at another N, another M and N together, K =
# 256 to 1,536.  Seed 89.  The zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes32.sh OUTDIR      -> OUTDIR/probes32.tgz (+ the run files, the log)
SET=32
source "$(dirname "$0")/probe_set_lib.sh"
S89="--seed 89"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S89
probe pingpong_n256 $PG --variant pingpong --shape $M,256,768,$P $S89
probe pingpong_n512_epi_01500 $PG --variant pingpong --shape $M,512,768,$P $S89 --epi-delay 1500
probe pingpong_n1024 $PG --variant pingpong --shape $M,1024,768,$P $S89
probe pingpong_n1024_ml_01000 $PG --variant pingpong --shape $M,1024,768,$P $S89 --mainloop-delay 1000
probe pingpong_n1536 $PG --variant pingpong --shape $M,1536,768,$P $S89
probe pingpong_n2048_epi_00800 $PG --variant pingpong --shape $M,2048,768,$P $S89 --epi-delay 800
probe pingpong_m100352_n1280 $PG --variant pingpong --shape 100352,1280,768,$P $S89
probe pingpong_k256 $PG --variant pingpong --shape $M,768,256,$P $S89
probe pingpong_k384 $PG --variant pingpong --shape $M,768,384,$P $S89
probe pingpong_k640 $PG --variant pingpong --shape $M,768,640,$P $S89
probe pingpong_k1024 $PG --variant pingpong --shape $M,768,1024,$P $S89
probe pingpong_k1536_epi_01000 $PG --variant pingpong --shape $M,768,1536,$P $S89 --epi-delay 1000
probe_set_finish
