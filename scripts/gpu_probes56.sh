#!/usr/bin/env bash
# Probe set 56 of issue 12 (docs/experiments.md M126): a fresh seed (128)
# at settings no set has had, to test M126 out of sample: pingpong's ring
# at 3 and 2 stages (builds of their own, predicted from the 4-stage
# zero-delay run by the new `ring=` law), the K and N and delay settings
# whose errors M126 moved on the committed sets, and bres (its model
# unchanged) for the record.  The zero-delay runs at N = K = 768
# calibrate the scoreboard.
#
#   scripts/gpu_probes56.sh OUTDIR      -> OUTDIR/probes56.tgz (+ the run files, the log)
SET=56
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S128="--seed 128"
M=200704
P=196
PG3=./build-gpu-s3/cli/pegemm
PG2=./build-gpu-s2/cli/pegemm
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S128
probe pingpong_s3 $PG3 --variant pingpong --shape $SH $S128
probe pingpong_s3_epi_01400 $PG3 --variant pingpong --shape $SH $S128 --epi-delay 1400
probe pingpong_s2 $PG2 --variant pingpong --shape $SH $S128
probe pingpong_k640_epi_00500 $PG --variant pingpong --shape $M,768,640,$P $S128 --epi-delay 500
probe pingpong_k1280_ml_01100 $PG --variant pingpong --shape $M,768,1280,$P $S128 --mainloop-delay 1100
probe pingpong_k1536_epi_01800 $PG --variant pingpong --shape $M,768,1536,$P $S128 --epi-delay 1800
probe pingpong_k1024 $PG --variant pingpong --shape $M,768,1024,$P $S128
probe pingpong_n256_epi_01300 $PG --variant pingpong --shape $M,256,768,$P $S128 --epi-delay 1300
probe pingpong_n512_ml_01700 $PG --variant pingpong --shape $M,512,768,$P $S128 --mainloop-delay 1700
probe pingpong_ml_00700 $PG --variant pingpong --shape $SH $S128 --mainloop-delay 700
probe pingpong_ml_01900 $PG --variant pingpong --shape $SH $S128 --mainloop-delay 1900
probe pingpong_ml_02400 $PG --variant pingpong --shape $SH $S128 --mainloop-delay 2400
probe pingpong_epi_01600 $PG --variant pingpong --shape $SH $S128 --epi-delay 1600
probe pingpong_epi_03400 $PG --variant pingpong --shape $SH $S128 --epi-delay 3400
probe pingpong_m125440_ml_01500 $PG --variant pingpong --shape 125440,768,768,$P $S128 --mainloop-delay 1500
probe bres_ml_00000 $PG --variant bres --shape $SH $S128
probe bres_ml_01700 $PG --variant bres --shape $SH $S128 --mainloop-delay 1700
probe bres_epi_02200 $PG --variant bres --shape $SH $S128 --epi-delay 2200
probe bres_k512_epi_02100 $PG --variant bres --shape $M,768,512,$P $S128 --epi-delay 2100
probe_set_finish
