#!/usr/bin/env bash
# Probe set 43 of issue 12 (docs/experiments.md M94): bres's order_wait with
# its untraced gap stretched by the next tile's mainloop (a second stretch
# line, traces/probes/reckoning/m94/bres_gap.sched) against the built-in,
# at a fresh seed (111): short K with delays (where the gap runs alone),
# long delays, a spin, another N, bres64.  Each variant's zero-delay run
# at N = K = 768 calibrates.
#
#   scripts/gpu_probes43.sh OUTDIR      -> OUTDIR/probes43.tgz (+ the run files, the log)
SET=43
source "$(dirname "$0")/probe_set_lib.sh"
S111="--seed 111"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S111
probe bres_k256_epi_00500 $PG --variant bres --shape $M,768,256,$P $S111 --epi-delay 500
probe bres_k256_epi_01400 $PG --variant bres --shape $M,768,256,$P $S111 --epi-delay 1400
probe bres_k384_epi_00800 $PG --variant bres --shape $M,768,384,$P $S111 --epi-delay 800
probe bres_k384_epi_02200 $PG --variant bres --shape $M,768,384,$P $S111 --epi-delay 2200
probe bres_k512_epi_01100 $PG --variant bres --shape $M,768,512,$P $S111 --epi-delay 1100
probe bres_k512_epi_02800 $PG --variant bres --shape $M,768,512,$P $S111 --epi-delay 2800
probe bres_k640_epi_01500 $PG --variant bres --shape $M,768,640,$P $S111 --epi-delay 1500
for d in 1300 5000; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S111 --epi-delay $d
done
probe bres_ml_00900 $PG --variant bres --shape $SH $S111 --mainloop-delay 900
probe bres_n1536_epi_02000 $PG --variant bres --shape $M,1536,768,$P $S111 --epi-delay 2000
probe bres64_k384_epi_00800 $PG --variant bres64 --shape $M,768,384,$P $S111 --epi-delay 800
probe_set_finish
