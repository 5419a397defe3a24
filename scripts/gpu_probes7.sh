#!/usr/bin/env bash
# Probe set 7 of issue 12 (docs/experiments.md M34), settings not measured
# before and predicted (committed) before this script first ran, mostly
# bres (M34 changed bres's schedule): --mainloop-delay 700/2200/4400; a
# --epi-delay sweep at generator seed 3 (0/500/1000/2000); both probes at
# once (epi 1200 + mainloop 300); M = 501,760; bres64 at --mainloop-delay
# 1500 (from bres's calibration); pingpong at --mainloop-delay 1100,
# --epi-delay 2600 and M = 250,880; each variant's zero-delay calibration of
# this session and the bench's floors.  Every traced run keeps rows 0:64 and
# times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes7.sh OUTDIR       -> OUTDIR/probes7.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu).  A failed run is logged and the rest go on.
# The harness is scripts/probe_set_lib.sh.
SET=7
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_ml_01100 $PG --variant pingpong --shape $SH --mainloop-delay 1100
probe pingpong_epi_02600 $PG --variant pingpong --shape $SH --epi-delay 2600
probe pingpong_m250880 $PG --variant pingpong --shape 250880,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 700 2200 4400; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH --mainloop-delay $d
done
for d in 0 500 1000 2000; do
    probe "bres_epi_s3_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 3 --epi-delay $d
done
probe bres_both_1200_0300 $PG --variant bres --shape $SH --epi-delay 1200 --mainloop-delay 300
probe bres_m501760 $PG --variant bres --shape 501760,768,768,196
probe bres64_ml_01500 $PG --variant bres64 --shape $SH --mainloop-delay 1500
probe_set_finish
