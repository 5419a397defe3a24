#!/usr/bin/env bash
# Probe set 57 of issue 12 (docs/experiments.md M127): a fresh seed (129)
# to test M127 out of sample: pingpong's 3- and 2-stage rings under delays
# and at other K and N (builds of their own, predicted from the 4-stage
# zero-delay run), delays, K, N and M at settings no set has had, and bres
# (its model unchanged) for the record.  The zero-delay runs at N = K =
# 768 calibrate the scoreboard.
#
#   scripts/gpu_probes57.sh OUTDIR      -> OUTDIR/probes57.tgz (+ the run files, the log)
SET=57
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S129="--seed 129"
M=200704
P=196
PG3=./build-gpu-s3/cli/pegemm
PG2=./build-gpu-s2/cli/pegemm
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S129
probe pingpong_s3_ml_01500 $PG3 --variant pingpong --shape $SH $S129 --mainloop-delay 1500
probe pingpong_s3_k1024 $PG3 --variant pingpong --shape $M,768,1024,$P $S129
probe pingpong_s3_n512 $PG3 --variant pingpong --shape $M,512,768,$P $S129
probe pingpong_s2_epi_00900 $PG2 --variant pingpong --shape $SH $S129 --epi-delay 900
probe pingpong_s2_ml_02000 $PG2 --variant pingpong --shape $SH $S129 --mainloop-delay 2000
probe pingpong_ml_01200 $PG --variant pingpong --shape $SH $S129 --mainloop-delay 1200
probe pingpong_ml_02800 $PG --variant pingpong --shape $SH $S129 --mainloop-delay 2800
probe pingpong_epi_00900 $PG --variant pingpong --shape $SH $S129 --epi-delay 900
probe pingpong_epi_02200 $PG --variant pingpong --shape $SH $S129 --epi-delay 2200
probe pingpong_epi_05500 $PG --variant pingpong --shape $SH $S129 --epi-delay 5500
probe pingpong_k896_epi_01500 $PG --variant pingpong --shape $M,768,896,$P $S129 --epi-delay 1500
probe pingpong_k1152_ml_00600 $PG --variant pingpong --shape $M,768,1152,$P $S129 --mainloop-delay 600
probe pingpong_k640_ml_01800 $PG --variant pingpong --shape $M,768,640,$P $S129 --mainloop-delay 1800
probe pingpong_n1280_ml_01300 $PG --variant pingpong --shape $M,1280,768,$P $S129 --mainloop-delay 1300
probe pingpong_n256_ml_00500 $PG --variant pingpong --shape $M,256,768,$P $S129 --mainloop-delay 500
probe pingpong_m75264_epi_01100 $PG --variant pingpong --shape 75264,768,768,$P $S129 --epi-delay 1100
probe bres_ml_00000 $PG --variant bres --shape $SH $S129
probe bres_ml_01100 $PG --variant bres --shape $SH $S129 --mainloop-delay 1100
probe bres_epi_01700 $PG --variant bres --shape $SH $S129 --epi-delay 1700
probe_set_finish
