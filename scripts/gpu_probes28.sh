#!/usr/bin/env bash
# Probe set 28 of issue 12 (docs/experiments.md M77): the ring lines, the
# DRAM wall at the traffic's write share and the contention floor tested
# together on every kind of change at a new seed (71): bres at delays
# before and past the store's turn, a spin, another M, N (384, 576, 1,536)
# and K (128 to 640) with and without a delay; bres64 at small K and a
# delay; pingpong at a delay, small K with a spin, another N.  Each
# variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes28.sh OUTDIR      -> OUTDIR/probes28.tgz (+ the run files, the log)
SET=28
source "$(dirname "$0")/probe_set_lib.sh"
S71="--seed 71"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S71
probe bres_epi_01000 $PG --variant bres --shape $SH $S71 --epi-delay 1000
probe bres_epi_02400 $PG --variant bres --shape $SH $S71 --epi-delay 2400
probe bres_epi_04000 $PG --variant bres --shape $SH $S71 --epi-delay 4000
probe bres_ml_02000 $PG --variant bres --shape $SH $S71 --mainloop-delay 2000
probe bres_m100352_epi_01500 $PG --variant bres --shape 100352,768,768,$P $S71 --epi-delay 1500
probe bres_n384 $PG --variant bres --shape $M,384,768,$P $S71
probe bres_n576_epi_00800 $PG --variant bres --shape $M,576,768,$P $S71 --epi-delay 800
probe bres_n1536 $PG --variant bres --shape $M,1536,768,$P $S71
probe bres_k128 $PG --variant bres --shape $M,768,128,$P $S71
probe bres_k256_epi_00800 $PG --variant bres --shape $M,768,256,$P $S71 --epi-delay 800
probe bres_k384_ml_00500 $PG --variant bres --shape $M,768,384,$P $S71 --mainloop-delay 500
probe bres_k512_epi_02000 $PG --variant bres --shape $M,768,512,$P $S71 --epi-delay 2000
probe bres_k640 $PG --variant bres --shape $M,768,640,$P $S71
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S71
probe bres64_k256 $PG --variant bres64 --shape $M,768,256,$P $S71
probe bres64_epi_01500 $PG --variant bres64 --shape $SH $S71 --epi-delay 1500
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S71
probe pingpong_epi_01800 $PG --variant pingpong --shape $SH $S71 --epi-delay 1800
probe pingpong_k256 $PG --variant pingpong --shape $M,768,256,$P $S71
probe pingpong_k512_ml_01000 $PG --variant pingpong --shape $M,768,512,$P $S71 --mainloop-delay 1000
probe pingpong_n1536 $PG --variant pingpong --shape $M,1536,768,$P $S71
probe_set_finish
