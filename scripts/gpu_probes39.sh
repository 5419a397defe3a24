#!/usr/bin/env bash
# Probe set 39 of issue 12 (docs/experiments.md M90): pingpong's loop with
# its fixed cycles (`kblocks ... fixed=` in h100-pingpong) at a fresh seed
# (107): short K (its ring full, the loop's fixed cycles exposed), spins and
# large delays (where the model's loop already stalled more than the
# kernel's), other K and N; four bres runs with no model change.  Each
# variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes39.sh OUTDIR      -> OUTDIR/probes39.tgz (+ the run files, the log)
SET=39
source "$(dirname "$0")/probe_set_lib.sh"
S107="--seed 107"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S107
probe pingpong_k256_epi_00500 $PG --variant pingpong --shape $M,768,256,$P $S107 --epi-delay 500
probe pingpong_k384 $PG --variant pingpong --shape $M,768,384,$P $S107
probe pingpong_k384_epi_01600 $PG --variant pingpong --shape $M,768,384,$P $S107 --epi-delay 1600
probe pingpong_k512_epi_00700 $PG --variant pingpong --shape $M,768,512,$P $S107 --epi-delay 700
probe pingpong_k640_epi_01000 $PG --variant pingpong --shape $M,768,640,$P $S107 --epi-delay 1000
probe pingpong_k896 $PG --variant pingpong --shape $M,768,896,$P $S107
probe pingpong_k1280 $PG --variant pingpong --shape $M,768,1280,$P $S107
probe pingpong_n512_k384 $PG --variant pingpong --shape $M,512,384,$P $S107
probe pingpong_n1024_k256 $PG --variant pingpong --shape $M,1024,256,$P $S107
for d in 800 1800 3000; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S107 --mainloop-delay $d
done
for d in 4500 6000; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S107 --epi-delay $d
done
probe pingpong_both_0800_1500 $PG --variant pingpong --shape $SH $S107 --epi-delay 800 --mainloop-delay 1500
probe bres_ml_00000 $PG --variant bres --shape $SH $S107
probe bres_epi_02800 $PG --variant bres --shape $SH $S107 --epi-delay 2800
probe bres_k256_epi_02000 $PG --variant bres --shape $M,768,256,$P $S107 --epi-delay 2000
probe bres_k384_epi_01200 $PG --variant bres --shape $M,768,384,$P $S107 --epi-delay 1200
probe bres_k512_epi_00800 $PG --variant bres --shape $M,768,512,$P $S107 --epi-delay 800
probe_set_finish
