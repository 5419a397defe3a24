#!/usr/bin/env bash
# Probe set 15 of issue 12 (docs/experiments.md M55): bres's --epi-delay
# sweep traced at a new seed (31) across both regimes -- the load-bound
# loop (0-1,300), the store-drain chain (M55) and the epilogue-bound end
# (2,000-4,000) -- so each phase of the chain can be read against the delay
# on both GPUs; each variant's zero-delay calibration and the bench's floors.
# Every traced run keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes15.sh OUTDIR      -> OUTDIR/probes15.tgz (+ the run files, the log)
SET=15
source "$(dirname "$0")/probe_set_lib.sh"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 0 300 600 900 1200 1600 2000 2600 3200 4000; do
    probe bres_epi_s31_$(printf %05d $d) $PG --variant bres --shape $SH --seed 31 --epi-delay $d
done
probe_set_finish
