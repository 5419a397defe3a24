#!/usr/bin/env bash
# Probe set 11 of issue 12 (docs/experiments.md M41: another N or K once
# more, at settings not measured before, after M40's fix), predicted
# (committed, scripts/shape_predict.py with scripts/shape_probes11.txt)
# before this script first ran, the same list on an H100 and an H200: bres
# at K = 640 with --epi-delay 2400, K = 512 with --mainloop-delay 600, N =
# 576 / 960 / 1,152, N = 384 with K = 640, bres64 at K = 512 (from bres's
# calibration); pingpong at K = 640 / 1,280 / 2,048, N = 1,024 / 2,048, K =
# 1,024 with --mainloop-delay 1500, N = 1,024 with K = 1,280; each
# variant's zero-delay calibration and the bench's floors.  Every traced run
# keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes11.sh OUTDIR      -> OUTDIR/probes11.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=11
source "$(dirname "$0")/probe_set_lib.sh"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH
probe bres_k640_epi_02400 $PG --variant bres --shape $M,768,640,$P --epi-delay 2400
probe bres_k512_ml_00600 $PG --variant bres --shape $M,768,512,$P --mainloop-delay 600
probe bres_n576 $PG --variant bres --shape $M,576,768,$P
probe bres_n960 $PG --variant bres --shape $M,960,768,$P
probe bres_n1152 $PG --variant bres --shape $M,1152,768,$P
probe bres_n384_k640 $PG --variant bres --shape $M,384,640,$P
probe bres64_k512 $PG --variant bres64 --shape $M,768,512,$P
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_k640 $PG --variant pingpong --shape $M,768,640,$P
probe pingpong_k1280 $PG --variant pingpong --shape $M,768,1280,$P
probe pingpong_k2048 $PG --variant pingpong --shape $M,768,2048,$P
probe pingpong_n1024 $PG --variant pingpong --shape $M,1024,768,$P
probe pingpong_n2048 $PG --variant pingpong --shape $M,2048,768,$P
probe pingpong_k1024_ml_01500 $PG --variant pingpong --shape $M,768,1024,$P --mainloop-delay 1500
probe pingpong_n1024_k1280 $PG --variant pingpong --shape $M,1024,1280,$P
probe_set_finish
