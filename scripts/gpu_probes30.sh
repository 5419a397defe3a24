#!/usr/bin/env bash
# Probe set 30 of issue 12 (docs/experiments.md M79): the `stretch` line on
# with keep=1 (candidate c) on the kinds of change a user's sweep makes:
# bres at --epi-delay 500 to 8,000, two spins, a delay with a spin,
# another M (smaller and larger) and N with delays, K = 256 / 512 / 640
# with delays; bres64 at two delays and a spin; pingpong (untouched by
# M79) at two delays.  Seed 79.  Each variant's zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes30.sh OUTDIR      -> OUTDIR/probes30.tgz (+ the run files, the log)
SET=30
source "$(dirname "$0")/probe_set_lib.sh"
S79="--seed 79"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S79
for d in 500 1000 2000 3600 5000 8000; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S79 --epi-delay $d
done
probe bres_ml_00800 $PG --variant bres --shape $SH $S79 --mainloop-delay 800
probe bres_ml_03000 $PG --variant bres --shape $SH $S79 --mainloop-delay 3000
probe bres_both_2000_1000 $PG --variant bres --shape $SH $S79 --epi-delay 2000 --mainloop-delay 1000
probe bres_m50176_epi_01000 $PG --variant bres --shape 50176,768,768,$P $S79 --epi-delay 1000
probe bres_m401408_epi_02400 $PG --variant bres --shape 401408,768,768,$P $S79 --epi-delay 2400
probe bres_n384_epi_01500 $PG --variant bres --shape $M,384,768,$P $S79 --epi-delay 1500
probe bres_n1152_epi_03000 $PG --variant bres --shape $M,1152,768,$P $S79 --epi-delay 3000
probe bres_k256_epi_01200 $PG --variant bres --shape $M,768,256,$P $S79 --epi-delay 1200
probe bres_k512_epi_00400 $PG --variant bres --shape $M,768,512,$P $S79 --epi-delay 400
probe bres_k640_epi_03500 $PG --variant bres --shape $M,768,640,$P $S79 --epi-delay 3500
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S79
probe bres64_epi_00800 $PG --variant bres64 --shape $SH $S79 --epi-delay 800
probe bres64_epi_04000 $PG --variant bres64 --shape $SH $S79 --epi-delay 4000
probe bres64_ml_01000 $PG --variant bres64 --shape $SH $S79 --mainloop-delay 1000
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S79
probe pingpong_epi_02000 $PG --variant pingpong --shape $SH $S79 --epi-delay 2000
probe pingpong_epi_05000 $PG --variant pingpong --shape $SH $S79 --epi-delay 5000
probe_set_finish
