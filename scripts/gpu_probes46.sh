#!/usr/bin/env bash
# Probe set 46 of issue 12 (docs/experiments.md M98): pingpong at N = K =
# 768 under spins and epilogue delays no set has had, at a fresh seed
# (114), to test M98's reading of the loop (it shortens with the share of
# the period the SMs stream their ring, with a threshold; a spin's floor
# below a delay's) and the model's loop against it.  The zero-delay run
# calibrates.
#
#   scripts/gpu_probes46.sh OUTDIR      -> OUTDIR/probes46.tgz (+ the run files, the log)
SET=46
source "$(dirname "$0")/probe_set_lib.sh"
S114="--seed 114"
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S114
for d in 1300 2000 2600; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S114 --mainloop-delay $d
done
for d in 1800 3200 4200; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S114 --epi-delay $d
done
probe pingpong_both_1100_1100 $PG --variant pingpong --shape $SH $S114 --epi-delay 1100 --mainloop-delay 1100
probe_set_finish
