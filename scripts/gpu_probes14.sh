#!/usr/bin/env bash
# Probe set 14 of issue 12 (docs/experiments.md M54: the start-up swing of
# M53 across GPUs), predicted before this script first ran, the same list
# on an H100 and an H200: M never measured, with 8, 12, 17 and 25 tiles per
# SM for each kernel (pingpong M = 2,816 x T, bres M = 2,112 x T), bres64 at
# 12, pingpong at 12 with --epi-delay 1,500, bres at 17 with --epi-delay
# 800, each variant's zero-delay calibration at the usual M and the bench's
# floors.  Every traced run keeps rows 0:64 and times 10 launches, as the
# earlier sets.
#
#   scripts/gpu_probes14.sh OUTDIR      -> OUTDIR/probes14.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=14
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
for t in 8 12 17 25; do
    m=$((2816 * t))
    probe pingpong_m$m $PG --variant pingpong --shape $m,768,768,196
done
probe pingpong_m33792_epi_01500 $PG --variant pingpong --shape 33792,768,768,196 --epi-delay 1500
probe bres_ml_00000 $PG --variant bres --shape $SH
for t in 8 12 17 25; do
    m=$((2112 * t))
    probe bres_m$m $PG --variant bres --shape $m,768,768,196
done
probe bres_m35904_epi_00800 $PG --variant bres --shape 35904,768,768,196 --epi-delay 800
probe bres64_m25344 $PG --variant bres64 --shape 25344,768,768,196
probe_set_finish
