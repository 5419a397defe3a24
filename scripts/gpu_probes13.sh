#!/usr/bin/env bash
# Probe set 13 of issue 12 (docs/experiments.md M53: the start-up
# transient, `warmup`), predicted (committed at 8c90c35) before this script
# first ran, the same list on an H100 and an H200: M never measured, with
# 6, 10, 14, 20 and 30 tiles per SM for each kernel (pingpong M = 2,816 x
# T, bres M = 2,112 x T), one small M with a delay each, each variant's
# zero-delay calibration at the usual M and the bench's floors.  Every
# traced run keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes13.sh OUTDIR      -> OUTDIR/probes13.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=13
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
for t in 6 10 14 20 30; do
    m=$((2816 * t))
    probe pingpong_m$m $PG --variant pingpong --shape $m,768,768,196
done
probe pingpong_m39424_epi_02000 $PG --variant pingpong --shape 39424,768,768,196 --epi-delay 2000
probe bres_ml_00000 $PG --variant bres --shape $SH
for t in 6 10 14 20 30; do
    m=$((2112 * t))
    probe bres_m$m $PG --variant bres --shape $m,768,768,196
done
probe bres_m42240_ml_01000 $PG --variant bres --shape 42240,768,768,196 --mainloop-delay 1000
probe_set_finish
