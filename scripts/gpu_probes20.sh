#!/usr/bin/env bash
# Probe set 20 of issue 12 (docs/experiments.md M66): the test of the
# `stretch` and `storenear` lines (bres's store drain and first load under
# an --epi-delay) before they are switched on: bres at a seed no set ran
# (37) and --epi-delay values no set ran, from 300 (the bump's start) to
# 5,000; two --mainloop-delay spins, another M with a delay each side of
# the calibration's, and bres64 with a delay (structure + delay), so that
# what the lines must not move is measured beside what they must.
#
#   scripts/gpu_probes20.sh OUTDIR      -> OUTDIR/probes20.tgz (+ the run files, the log)
SET=20
source "$(dirname "$0")/probe_set_lib.sh"
S37="--seed 37"
probe bres_ml_00000 $PG --variant bres --shape $SH $S37
for d in 300 700 1000 1400 1800 2800 5000; do
    probe "bres_epi_$(printf %05d $d)" $PG --variant bres --shape $SH $S37 --epi-delay $d
done
for d in 1000 3000; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH $S37 --mainloop-delay $d
done
probe bres_m100352_epi_00900 $PG --variant bres --shape 100352,768,768,196 $S37 --epi-delay 900
probe bres_m401408_epi_01100 $PG --variant bres --shape 401408,768,768,196 $S37 --epi-delay 1100
probe bres64_epi_01000 $PG --variant bres64 --shape $SH $S37 --epi-delay 1000
probe_set_finish
