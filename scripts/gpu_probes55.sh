#!/usr/bin/env bash
# Probe set 55 of issue 12 (docs/experiments.md M124): a fresh seed (127)
# at settings no set has had, to test out of sample what this session found
# from the committed sets: a calibration at another K (M121: pingpong at
# K = 1,280 predicting K = 768 and the large K under delays; bres at K = 640
# predicting K = 768), the note on a calibration whose ring holds the whole
# tile (M123: K = 512), and the built-in model's bias on new pingpong and
# bres settings.  The zero-delay runs at N = K = 768 calibrate the
# scoreboard; the K = 1,280, 640 and 512 zero-delay runs calibrate by hand.
#
#   scripts/gpu_probes55.sh OUTDIR      -> OUTDIR/probes55.tgz (+ the run files, the log)
SET=55
source "$(dirname "$0")/probe_set_lib.sh"
S127="--seed 127"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S127
probe pingpong_k1280 $PG --variant pingpong --shape $M,768,1280,$P $S127
probe pingpong_k512 $PG --variant pingpong --shape $M,768,512,$P $S127
probe pingpong_k1024_epi_00900 $PG --variant pingpong --shape $M,768,1024,$P $S127 --epi-delay 900
probe pingpong_k1152_epi_01200 $PG --variant pingpong --shape $M,768,1152,$P $S127 --epi-delay 1200
probe pingpong_k1408_epi_00600 $PG --variant pingpong --shape $M,768,1408,$P $S127 --epi-delay 600
probe pingpong_k896_ml_01300 $PG --variant pingpong --shape $M,768,896,$P $S127 --mainloop-delay 1300
probe pingpong_epi_02900 $PG --variant pingpong --shape $SH $S127 --epi-delay 2900
probe pingpong_ml_01250 $PG --variant pingpong --shape $SH $S127 --mainloop-delay 1250
probe bres_ml_00000 $PG --variant bres --shape $SH $S127
probe bres_k640 $PG --variant bres --shape $M,768,640,$P $S127
probe bres_k512 $PG --variant bres --shape $M,768,512,$P $S127
probe bres_k896_epi_01800 $PG --variant bres --shape $M,768,896,$P $S127 --epi-delay 1800
probe bres_epi_03800 $PG --variant bres --shape $SH $S127 --epi-delay 3800
probe bres_k640_epi_01700 $PG --variant bres --shape $M,768,640,$P $S127 --epi-delay 1700
probe_set_finish
