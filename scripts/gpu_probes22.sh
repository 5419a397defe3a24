#!/usr/bin/env bash
# Probe set 22 of issue 12 (docs/experiments.md M68): the test of
# `stretch` on with `storenear`'s falling side (after=0.5 fall=0): bres at
# a new seed (43) and --epi-delay values no set ran, two spins, a delay
# with a spin, two other M with a delay, bres64 with a delay; and two
# pingpong probes (reported, outside the rule: its schedule has neither
# line).
#
#   scripts/gpu_probes22.sh OUTDIR      -> OUTDIR/probes22.tgz (+ the run files, the log)
SET=22
source "$(dirname "$0")/probe_set_lib.sh"
S43="--seed 43"
probe bres_ml_00000 $PG --variant bres --shape $SH $S43
for d in 300 700 1400 1800 2600 4000; do
    probe "bres_epi_$(printf %05d $d)" $PG --variant bres --shape $SH $S43 --epi-delay $d
done
probe bres_ml_01000 $PG --variant bres --shape $SH $S43 --mainloop-delay 1000
probe bres_ml_03000 $PG --variant bres --shape $SH $S43 --mainloop-delay 3000
probe bres_both_01800_00300 $PG --variant bres --shape $SH $S43 --epi-delay 1800 --mainloop-delay 300
probe bres_m100352_epi_01800 $PG --variant bres --shape 100352,768,768,196 $S43 --epi-delay 1800
probe bres_m401408_epi_02600 $PG --variant bres --shape 401408,768,768,196 $S43 --epi-delay 2600
probe bres64_epi_01800 $PG --variant bres64 --shape $SH $S43 --epi-delay 1800
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S43
probe pingpong_epi_01400 $PG --variant pingpong --shape $SH $S43 --epi-delay 1400
probe pingpong_ml_01000 $PG --variant pingpong --shape $SH $S43 --mainloop-delay 1000
probe_set_finish
