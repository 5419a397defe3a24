#!/usr/bin/env bash
# Probe set 36 of issue 12 (docs/experiments.md M86): bres's epilogue
# solved per tile (`contend ... solve=tile`), against the model before it,
# on short tiles with a delay, past the store's turn, other M and N, a
# mainloop spin and bres64, at a fresh seed (104); pingpong (unchanged) as
# a control.  Each variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes36.sh OUTDIR      -> OUTDIR/probes36.tgz (+ the run files, the log)
SET=36
source "$(dirname "$0")/probe_set_lib.sh"
S104="--seed 104"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S104
for d in 01100 03200 05500 09000; do
    probe bres_epi_$d $PG --variant bres --shape $SH $S104 --epi-delay $((10#$d))
done
probe bres_k256_epi_00900 $PG --variant bres --shape $M,768,256,$P $S104 --epi-delay 900
probe bres_k384_epi_00500 $PG --variant bres --shape $M,768,384,$P $S104 --epi-delay 500
probe bres_k384_epi_01500 $PG --variant bres --shape $M,768,384,$P $S104 --epi-delay 1500
probe bres_k512_epi_01000 $PG --variant bres --shape $M,768,512,$P $S104 --epi-delay 1000
probe bres_k640_epi_01200 $PG --variant bres --shape $M,768,640,$P $S104 --epi-delay 1200
probe bres_m250880_epi_02600 $PG --variant bres --shape 250880,768,768,$P $S104 --epi-delay 2600
probe bres_n1344_epi_04000 $PG --variant bres --shape $M,1344,768,$P $S104 --epi-delay 4000
probe bres_ml_02000 $PG --variant bres --shape $SH $S104 --mainloop-delay 2000
probe bres64_epi_01800 $PG --variant bres64 --shape $SH $S104 --epi-delay 1800
probe bres64_k384_epi_01400 $PG --variant bres64 --shape $M,768,384,$P $S104 --epi-delay 1400
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S104
probe pingpong_epi_03500 $PG --variant pingpong --shape $SH $S104 --epi-delay 3500
probe pingpong_k384_epi_01200 $PG --variant pingpong --shape $M,768,384,$P $S104 --epi-delay 1200
probe_set_finish
