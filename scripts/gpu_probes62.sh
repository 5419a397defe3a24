#!/usr/bin/env bash
# Probe set 62 of issue 12 (docs/experiments.md M132): a fresh seed (134),
# bres at --epi-delay and --mainloop-delay settings no set has had, where
# M132's spin cost (~50 cycles from D = 1 on, both delays of h100-bres)
# moves the prediction, with pingpong runs beside them (its schedule is
# unchanged: an out-of-sample check of the committed model).  The zero-delay
# runs at N = K = 768 calibrate the scoreboard.
#
#   scripts/gpu_probes62.sh OUTDIR      -> OUTDIR/probes62.tgz (+ the run files, the log)
SET=62
source "$(dirname "$0")/probe_set_lib.sh"
S134="--seed 134"
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S134
for d in 200 600 1500 2100 2900 5200; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S134 --epi-delay $d
done
probe bres_m175616_epi_01500 $PG --variant bres --shape 175616,768,768,$P $S134 --epi-delay 1500
for d in 600 2300; do
    probe bres_ml_$(printf %05d $d) $PG --variant bres --shape $SH $S134 --mainloop-delay $d
done
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S134
probe pingpong_epi_02450 $PG --variant pingpong --shape $SH $S134 --epi-delay 2450
probe pingpong_ml_03600 $PG --variant pingpong --shape $SH $S134 --mainloop-delay 3600
probe pingpong_m125440_epi_00700 $PG --variant pingpong --shape 125440,768,768,$P $S134 --epi-delay 700
probe_set_finish
