#!/usr/bin/env bash
# Probe set 5 of issue 12 (docs/experiments.md M28), settings not measured
# before and predicted (committed) before this script first ran:
# --mainloop-delay 1400/2800 for both variants; pingpong --epi-delay
# 800/3000; a bres --epi-delay sweep at generator seed 5 (500/1200/3200);
# both probes at once (1500 + 1500); M = 301,056 and 752,640 at zero delay;
# structure: bres64 at zero delay (again), --mainloop-delay 2000 and
# --epi-delay 1000/2500 (from bres's calibration); pingpong with a 3-deep
# ring at --mainloop-delay 2000 and --epi-delay 2500 and a 2-deep ring at
# --mainloop-delay 1000 (from the 4-deep calibration); each variant's
# zero-delay calibration of this session and the bench's floors.  Every
# traced run keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes5.sh OUTDIR       -> OUTDIR/probes5.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu; the 2- and 3-stage pingpong get build-gpu-s2/-s3).  A
# failed run is logged and the rest go on.
# The harness is scripts/probe_set_lib.sh.
SET=5
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
for v in pingpong bres; do
    for d in 0 1400 2800; do
        probe "${v}_ml_$(printf %05d $d)" $PG --variant $v --shape $SH --mainloop-delay $d
    done
    probe "${v}_both_01500" $PG --variant $v --shape $SH --epi-delay 1500 --mainloop-delay 1500
    for m in 301056 752640; do
        probe "${v}_m$m" $PG --variant $v --shape $m,768,768,196
    done
done
for d in 800 3000; do
    probe "pingpong_epi_$(printf %05d $d)" $PG --variant pingpong --shape $SH --epi-delay $d
done
for d in 0 500 1200 3200; do
    probe "bres_epi_s5_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 5 --epi-delay $d
done
probe bres64_ml_00000 $PG --variant bres64 --shape $SH
probe bres64_ml_02000 $PG --variant bres64 --shape $SH --mainloop-delay 2000
for d in 1000 2500; do
    probe "bres64_epi_$(printf %05d $d)" $PG --variant bres64 --shape $SH --epi-delay $d
done
probe pingpong_s3_ml_02000 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --mainloop-delay 2000
probe pingpong_s3_epi_02500 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --epi-delay 2500
probe pingpong_s2_ml_01000 ./build-gpu-s2/cli/pegemm --variant pingpong --shape $SH --mainloop-delay 1000
probe_set_finish
