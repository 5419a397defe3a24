#!/usr/bin/env bash
# Probe set 9 of issue 12 (docs/experiments.md M36: bres's loop's fixed
# cycles measured by the fit, and the typical wgmma round trip), settings
# not measured before and predicted (committed) before this script first
# ran, the same list on an H100 and an H200: bres64 (from bres's
# calibration) at zero delay, --mainloop-delay 1200, --epi-delay 700 and
# 3000, M = 401,408; bres at --mainloop-delay 300/1100/3000, both probes at
# once (epi 400 + ml 1200), an --epi-delay sweep at generator seed 23
# (0/350/1100/2600); pingpong at --mainloop-delay 700, --epi-delay 2000 and
# M = 175,616; each variant's zero-delay calibration and the bench's
# floors.  Every traced run keeps rows 0:64 and times 10 launches, as the
# earlier sets.
#
#   scripts/gpu_probes9.sh OUTDIR       -> OUTDIR/probes9.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=9
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_ml_00700 $PG --variant pingpong --shape $SH --mainloop-delay 700
probe pingpong_epi_02000 $PG --variant pingpong --shape $SH --epi-delay 2000
probe pingpong_m175616 $PG --variant pingpong --shape 175616,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 300 1100 3000; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH --mainloop-delay $d
done
for d in 0 350 1100 2600; do
    probe "bres_epi_s23_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 23 --epi-delay $d
done
probe bres_both_0400_1200 $PG --variant bres --shape $SH --epi-delay 400 --mainloop-delay 1200
probe bres64_ml_00000 $PG --variant bres64 --shape $SH
probe bres64_ml_01200 $PG --variant bres64 --shape $SH --mainloop-delay 1200
probe bres64_epi_00700 $PG --variant bres64 --shape $SH --epi-delay 700
probe bres64_epi_03000 $PG --variant bres64 --shape $SH --epi-delay 3000
probe bres64_m401408 $PG --variant bres64 --shape 401408,768,768,196
probe_set_finish
