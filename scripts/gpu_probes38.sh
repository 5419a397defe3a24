#!/usr/bin/env bash
# Probe set 38 of issue 12 (docs/experiments.md M89): pingpong's first
# load under --epi-delay at a fresh seed (106) and settings no set has had,
# scored with the built-in h100-pingpong and with M88's `storenear ...
# own=1` variant (traces/probes/reckoning/m89/pp_own.sched); bres at new
# settings with no model change.  Each variant's zero-delay run at N = K =
# 768 calibrates.
#
#   scripts/gpu_probes38.sh OUTDIR      -> OUTDIR/probes38.tgz (+ the run files, the log)
SET=38
source "$(dirname "$0")/probe_set_lib.sh"
S106="--seed 106"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S106
for d in 500 900 1700 2300 3300 5500; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S106 --epi-delay $d
done
probe pingpong_n512_epi_01100 $PG --variant pingpong --shape $M,512,768,$P $S106 --epi-delay 1100
probe pingpong_n1024_epi_01800 $PG --variant pingpong --shape $M,1024,768,$P $S106 --epi-delay 1800
probe pingpong_n256_epi_00800 $PG --variant pingpong --shape $M,256,768,$P $S106 --epi-delay 800
probe pingpong_n1536_epi_00700 $PG --variant pingpong --shape $M,1536,768,$P $S106 --epi-delay 700
probe pingpong_m150528_epi_01300 $PG --variant pingpong --shape 150528,768,768,$P $S106 --epi-delay 1300
probe pingpong_both_1000_0600 $PG --variant pingpong --shape $SH $S106 --epi-delay 1000 --mainloop-delay 600
probe pingpong_k1024_epi_00600 $PG --variant pingpong --shape $M,768,1024,$P $S106 --epi-delay 600
probe bres_ml_00000 $PG --variant bres --shape $SH $S106
for d in 700 1900 4200; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S106 --epi-delay $d
done
probe bres_k384_epi_00700 $PG --variant bres --shape $M,768,384,$P $S106 --epi-delay 700
probe bres_k512_epi_01300 $PG --variant bres --shape $M,768,512,$P $S106 --epi-delay 1300
probe bres_k640_epi_00800 $PG --variant bres --shape $M,768,640,$P $S106 --epi-delay 800
probe bres_n960_epi_01600 $PG --variant bres --shape $M,960,768,$P $S106 --epi-delay 1600
probe_set_finish
