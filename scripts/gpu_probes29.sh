#!/usr/bin/env bash
# Probe set 29 of issue 12 (docs/experiments.md M78): keep=busy on
# h100-bres's `contend` lines tested where it differs from keep=1, the
# delays that leave the other warpgroup spinning beside an epilogue: bres
# at --epi-delay 800 to 6,000, a spin, a delay with a spin, delays at K =
# 256-640 and at another M and N; bres64 at two delays and a small K with
# one; pingpong (unchanged by M78) at two delays.  Seed 73.  Each
# variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes29.sh OUTDIR      -> OUTDIR/probes29.tgz (+ the run files, the log)
SET=29
source "$(dirname "$0")/probe_set_lib.sh"
S73="--seed 73"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S73
probe bres_epi_00800 $PG --variant bres --shape $SH $S73 --epi-delay 800
probe bres_epi_01600 $PG --variant bres --shape $SH $S73 --epi-delay 1600
probe bres_epi_02800 $PG --variant bres --shape $SH $S73 --epi-delay 2800
probe bres_epi_04400 $PG --variant bres --shape $SH $S73 --epi-delay 4400
probe bres_epi_06000 $PG --variant bres --shape $SH $S73 --epi-delay 6000
probe bres_ml_01500 $PG --variant bres --shape $SH $S73 --mainloop-delay 1500
probe bres_both_1200_0600 $PG --variant bres --shape $SH $S73 --epi-delay 1200 --mainloop-delay 600
probe bres_k256_epi_00600 $PG --variant bres --shape $M,768,256,$P $S73 --epi-delay 600
probe bres_k384_epi_01000 $PG --variant bres --shape $M,768,384,$P $S73 --epi-delay 1000
probe bres_k512_epi_01800 $PG --variant bres --shape $M,768,512,$P $S73 --epi-delay 1800
probe bres_k640_epi_02400 $PG --variant bres --shape $M,768,640,$P $S73 --epi-delay 2400
probe bres_m100352_epi_03000 $PG --variant bres --shape 100352,768,768,$P $S73 --epi-delay 3000
probe bres_n576_epi_02000 $PG --variant bres --shape $M,576,768,$P $S73 --epi-delay 2000
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S73
probe bres64_epi_01200 $PG --variant bres64 --shape $SH $S73 --epi-delay 1200
probe bres64_epi_02500 $PG --variant bres64 --shape $SH $S73 --epi-delay 2500
probe bres64_k384_epi_00800 $PG --variant bres64 --shape $M,768,384,$P $S73 --epi-delay 800
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S73
probe pingpong_epi_01000 $PG --variant pingpong --shape $SH $S73 --epi-delay 1000
probe pingpong_epi_03000 $PG --variant pingpong --shape $SH $S73 --epi-delay 3000
probe_set_finish
