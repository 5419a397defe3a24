#!/usr/bin/env bash
# Probe set 12 of issue 12 (docs/experiments.md M47: pingpong's loop with
# kblocks queue_mean=1 boundaries=1 against the built-in, and bres's
# --epi-delay bump at a new seed), predicted (committed: scripts/
# shape_predict.py with scripts/probes12.txt, from set 11's calibrations)
# before this script first ran, the same list on an H100 and an H200, at
# settings not measured before: pingpong --mainloop-delay 900 / 2600 /
# 5200, --epi-delay 1400 / 4400, both 2000 + 1100, M = 276,480 / 727,040,
# a 3-deep ring at --epi-delay 1500; bres --mainloop-delay 1100 / 3800, M =
# 627,200, a seed-29 --epi-delay sweep (0 / 450 / 850 / 1300 / 3000),
# bres64 at --mainloop-delay 1500; each variant's zero-delay calibration
# and the bench's floors.  Every traced run keeps rows 0:64 and times 10
# launches, as the earlier sets.
#
#   scripts/gpu_probes12.sh OUTDIR      -> OUTDIR/probes12.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu; the 3-stage pingpong gets build-gpu-s3); the harness is
# scripts/probe_set_lib.sh.
SET=12
STAGE_BUILDS="3"
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_ml_00900 $PG --variant pingpong --shape $SH --mainloop-delay 900
probe pingpong_ml_02600 $PG --variant pingpong --shape $SH --mainloop-delay 2600
probe pingpong_ml_05200 $PG --variant pingpong --shape $SH --mainloop-delay 5200
probe pingpong_epi_01400 $PG --variant pingpong --shape $SH --epi-delay 1400
probe pingpong_epi_04400 $PG --variant pingpong --shape $SH --epi-delay 4400
probe pingpong_both_2000_1100 $PG --variant pingpong --shape $SH --mainloop-delay 2000 --epi-delay 1100
probe pingpong_m276480 $PG --variant pingpong --shape 276480,768,768,196
probe pingpong_m727040 $PG --variant pingpong --shape 727040,768,768,196
probe pingpong_s3_epi_01500 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --epi-delay 1500
probe bres_ml_00000 $PG --variant bres --shape $SH
probe bres_ml_01100 $PG --variant bres --shape $SH --mainloop-delay 1100
probe bres_ml_03800 $PG --variant bres --shape $SH --mainloop-delay 3800
probe bres_m627200 $PG --variant bres --shape 627200,768,768,196
probe bres64_ml_01500 $PG --variant bres64 --shape $SH --mainloop-delay 1500
probe bres_epi_s29_00000 $PG --variant bres --shape $SH --seed 29
probe bres_epi_s29_00450 $PG --variant bres --shape $SH --seed 29 --epi-delay 450
probe bres_epi_s29_00850 $PG --variant bres --shape $SH --seed 29 --epi-delay 850
probe bres_epi_s29_01300 $PG --variant bres --shape $SH --seed 29 --epi-delay 1300
probe bres_epi_s29_03000 $PG --variant bres --shape $SH --seed 29 --epi-delay 3000
probe_set_finish
