#!/usr/bin/env bash
# Probe set 19 of issue 12 (docs/experiments.md M62): bres at sizes no set
# ran, from a working set the L2 keeps whole (7,040 rows, 16 MB) through
# its edge (17,920 and 23,040 rows: 41 and 53 MB) to one it streams
# (40,960 rows, 94 MB), and two of them under a spin, to test the
# `l2reuse` line's start-up rows (a small run's waits) before they are
# kept.  The zero-delay calibration and the bench's floors; every traced
# run keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes19.sh OUTDIR      -> OUTDIR/probes19.tgz (+ the run files, the log)
SET=19
source "$(dirname "$0")/probe_set_lib.sh"
probe bres_ml_00000 $PG --variant bres --shape $SH
for m in 7040 11520 17920 23040 40960; do
    probe bres_m$m $PG --variant bres --shape $m,768,768,196
done
probe bres_m11520_epi_02000 $PG --variant bres --shape 11520,768,768,196 --epi-delay 2000
probe bres_m17920_ml_00600 $PG --variant bres --shape 17920,768,768,196 --mainloop-delay 600
probe_set_finish
