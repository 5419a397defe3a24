#!/usr/bin/env bash
# Probe set 52 of issue 12 (docs/experiments.md M114): the producer's wait
# floor (`until start + producer_floor`) at a fresh seed (124): pingpong at
# one column block (N = 256: zero delay, epilogue and mainloop delays, a
# smaller M), at N = 512 and under a 2,100-cycle spin; bres64 from bres's
# calibration; bres at --epi-delay 1,300 and K = 512 under a delay.  Each
# kernel's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes52.sh OUTDIR      -> OUTDIR/probes52.tgz (+ the run files, the log)
SET=52
source "$(dirname "$0")/probe_set_lib.sh"
S124="--seed 124"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S124
probe pingpong_n256 $PG --variant pingpong --shape $M,256,768,$P $S124
for d in 700 1500; do
    probe pingpong_n256_epi_$(printf %05d $d) $PG --variant pingpong --shape $M,256,768,$P $S124 --epi-delay $d
done
for d in 900 1600; do
    probe pingpong_n256_ml_$(printf %05d $d) $PG --variant pingpong --shape $M,256,768,$P $S124 --mainloop-delay $d
done
probe pingpong_m150528_n256 $PG --variant pingpong --shape 150528,256,768,$P $S124
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P $S124
probe pingpong_n512_epi_01300 $PG --variant pingpong --shape $M,512,768,$P $S124 --epi-delay 1300
probe pingpong_ml_02100 $PG --variant pingpong --shape $SH $S124 --mainloop-delay 2100
probe bres_ml_00000 $PG --variant bres --shape $SH $S124
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S124
probe bres64_epi_01500 $PG --variant bres64 --shape $SH $S124 --epi-delay 1500
probe bres_epi_01300 $PG --variant bres --shape $SH $S124 --epi-delay 1300
probe bres_k512_epi_01200 $PG --variant bres --shape $M,768,512,$P $S124 --epi-delay 1200
probe_set_finish
