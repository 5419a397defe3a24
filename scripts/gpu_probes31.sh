#!/usr/bin/env bash
# Probe set 31 of issue 12 (docs/experiments.md M81): today's model, no
# change, on the pingpong kernel's kinds of change (delays before and far
# past its turn, spins, a delay with a spin, other M, N and K) and on bres
# at fresh settings after M79.  Seed 83.  Each variant's zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes31.sh OUTDIR      -> OUTDIR/probes31.tgz (+ the run files, the log)
SET=31
source "$(dirname "$0")/probe_set_lib.sh"
S83="--seed 83"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S83
for d in 600 1400 2600 4000 7000; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S83 --epi-delay $d
done
probe pingpong_ml_01200 $PG --variant pingpong --shape $SH $S83 --mainloop-delay 1200
probe pingpong_ml_02500 $PG --variant pingpong --shape $SH $S83 --mainloop-delay 2500
probe pingpong_both_1500_0800 $PG --variant pingpong --shape $SH $S83 --epi-delay 1500 --mainloop-delay 800
probe pingpong_m100352_epi_02000 $PG --variant pingpong --shape 100352,768,768,$P $S83 --epi-delay 2000
probe pingpong_m50176 $PG --variant pingpong --shape 50176,768,768,$P $S83
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P $S83
probe pingpong_n1280_epi_01000 $PG --variant pingpong --shape $M,1280,768,$P $S83 --epi-delay 1000
probe pingpong_k512 $PG --variant pingpong --shape $M,768,512,$P $S83
probe pingpong_k384_epi_00800 $PG --variant pingpong --shape $M,768,384,$P $S83 --epi-delay 800
probe bres_ml_00000 $PG --variant bres --shape $SH $S83
probe bres_epi_01400 $PG --variant bres --shape $SH $S83 --epi-delay 1400
probe bres_epi_03000 $PG --variant bres --shape $SH $S83 --epi-delay 3000
probe bres_ml_02500 $PG --variant bres --shape $SH $S83 --mainloop-delay 2500
probe bres_m301056_epi_01200 $PG --variant bres --shape 301056,768,768,$P $S83 --epi-delay 1200
probe bres_n960_epi_02500 $PG --variant bres --shape $M,960,768,$P $S83 --epi-delay 2500
probe_set_finish
