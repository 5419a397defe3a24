#!/usr/bin/env bash
# Probe set 6 of issue 12 (docs/experiments.md M33), settings not measured
# before and predicted (committed) before this script first ran:
# --mainloop-delay 500/4000 (pingpong) and 900/5000 (bres); pingpong
# --epi-delay 1800/5600; a bres --epi-delay sweep at generator seed 9
# (250/650/900/1800/4000, the H100's bump region and past it); both probes
# at once (pingpong 1000 + 2500, bres 600 + 600); M = 451,584 (pingpong),
# 903,168 and 60,032 (bres) at zero delay; structure: bres64 at --epi-delay
# 400 and --mainloop-delay 3000 (from bres's calibration); pingpong with a
# 3-deep ring at --mainloop-delay 600 and --epi-delay 4500 and a 2-deep ring
# at --epi-delay 1200 (from the 4-deep calibration); each variant's
# zero-delay calibration of this session and the bench's floors.  Every
# traced run keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes6.sh OUTDIR       -> OUTDIR/probes6.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu; the 2- and 3-stage pingpong get build-gpu-s2/-s3).  A
# failed run is logged and the rest go on.
# The harness is scripts/probe_set_lib.sh.
SET=6
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
for d in 500 4000; do
    probe "pingpong_ml_$(printf %05d $d)" $PG --variant pingpong --shape $SH --mainloop-delay $d
done
for d in 1800 5600; do
    probe "pingpong_epi_$(printf %05d $d)" $PG --variant pingpong --shape $SH --epi-delay $d
done
probe pingpong_both_1000_2500 $PG --variant pingpong --shape $SH --epi-delay 1000 --mainloop-delay 2500
probe pingpong_m451584 $PG --variant pingpong --shape 451584,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 900 5000; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH --mainloop-delay $d
done
probe bres_both_00600 $PG --variant bres --shape $SH --epi-delay 600 --mainloop-delay 600
for m in 903168 60032; do
    probe "bres_m$m" $PG --variant bres --shape $m,768,768,196
done
for d in 0 250 650 900 1800 4000; do
    probe "bres_epi_s9_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 9 --epi-delay $d
done
probe bres64_epi_00400 $PG --variant bres64 --shape $SH --epi-delay 400
probe bres64_ml_03000 $PG --variant bres64 --shape $SH --mainloop-delay 3000
probe pingpong_s3_ml_00600 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --mainloop-delay 600
probe pingpong_s3_epi_04500 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --epi-delay 4500
probe pingpong_s2_epi_01200 ./build-gpu-s2/cli/pegemm --variant pingpong --shape $SH --epi-delay 1200
probe_set_finish
