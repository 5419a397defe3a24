#!/usr/bin/env bash
# Probe set 21 of issue 12 (docs/experiments.md M67): the test of the
# `storenear` line alone (bres's first load slowed by the SMs' stores near
# its issue), after set 20 turned the two lines down together: bres at
# another new seed (41) and --epi-delay values no set ran, a spin, two
# other M with a delay, a delay and a spin together, and bres64 with a
# delay.
#
#   scripts/gpu_probes21.sh OUTDIR      -> OUTDIR/probes21.tgz (+ the run files, the log)
SET=21
source "$(dirname "$0")/probe_set_lib.sh"
S41="--seed 41"
probe bres_ml_00000 $PG --variant bres --shape $SH $S41
for d in 500 900 1200 1600 2200 3600; do
    probe "bres_epi_$(printf %05d $d)" $PG --variant bres --shape $SH $S41 --epi-delay $d
done
probe bres_ml_02000 $PG --variant bres --shape $SH $S41 --mainloop-delay 2000
probe bres_m50176_epi_00800 $PG --variant bres --shape 50176,768,768,196 $S41 --epi-delay 800
probe bres_m802816_epi_00600 $PG --variant bres --shape 802816,768,768,196 $S41 --epi-delay 600
probe bres_both_01000_00500 $PG --variant bres --shape $SH $S41 --epi-delay 1000 --mainloop-delay 500
probe bres64_epi_00600 $PG --variant bres64 --shape $SH $S41 --epi-delay 600
probe_set_finish
