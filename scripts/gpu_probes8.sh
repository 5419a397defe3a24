#!/usr/bin/env bash
# Probe set 8 of issue 12 (docs/experiments.md M35: across GPUs the loads a
# schedule's `dramq` line lists queue at each machine's copy floor), settings
# not measured before and predicted (committed) before this script first ran,
# the same list on an H100 and an H200 so that every run is predicted from
# the other GPU's zero-delay calibration too: pingpong at --epi-delay 1300,
# --mainloop-delay 1800 and M = 351,232; bres at --mainloop-delay 1600, both
# probes at once (epi 800 + mainloop 800), M = 351,232 and an --epi-delay
# sweep at generator seed 17 (0/700/1500); bres64 at --mainloop-delay 500
# and --epi-delay 1800 (from bres's calibration); each variant's zero-delay
# calibration and the bench's floors.  Every traced run keeps rows 0:64 and
# times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes8.sh OUTDIR       -> OUTDIR/probes8.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=8
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_epi_01300 $PG --variant pingpong --shape $SH --epi-delay 1300
probe pingpong_ml_01800 $PG --variant pingpong --shape $SH --mainloop-delay 1800
probe pingpong_m351232 $PG --variant pingpong --shape 351232,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
probe bres_ml_01600 $PG --variant bres --shape $SH --mainloop-delay 1600
for d in 0 700 1500; do
    probe "bres_epi_s17_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 17 --epi-delay $d
done
probe bres_both_0800_0800 $PG --variant bres --shape $SH --epi-delay 800 --mainloop-delay 800
probe bres_m351232 $PG --variant bres --shape 351232,768,768,196
probe bres64_ml_00500 $PG --variant bres64 --shape $SH --mainloop-delay 500
probe bres64_epi_01800 $PG --variant bres64 --shape $SH --epi-delay 1800
probe_set_finish
