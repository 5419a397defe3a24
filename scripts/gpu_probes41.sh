#!/usr/bin/env bash
# Probe set 41 of issue 12 (docs/experiments.md M92): pingpong's order_wait
# with the consumer's untraced gap stretched by the next tile's mainloop
# (`stretch consumer_untraced ... tile=next fit=slowdown`,
# traces/probes/reckoning/m92/pp_gap.sched) against the built-in, at a fresh
# seed (109): short K (the gap runs alone), large delays, spins (where the
# model's order_wait was already long), long K, another M and N.  The
# zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes41.sh OUTDIR      -> OUTDIR/probes41.tgz (+ the run files, the log)
SET=41
source "$(dirname "$0")/probe_set_lib.sh"
S109="--seed 109"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S109
probe pingpong_k256 $PG --variant pingpong --shape $M,768,256,$P $S109
probe pingpong_k256_epi_01000 $PG --variant pingpong --shape $M,768,256,$P $S109 --epi-delay 1000
probe pingpong_k384_epi_00400 $PG --variant pingpong --shape $M,768,384,$P $S109 --epi-delay 400
probe pingpong_k384_epi_02000 $PG --variant pingpong --shape $M,768,384,$P $S109 --epi-delay 2000
probe pingpong_n512_k256 $PG --variant pingpong --shape $M,512,256,$P $S109
probe pingpong_k512 $PG --variant pingpong --shape $M,768,512,$P $S109
probe pingpong_m150528_k384 $PG --variant pingpong --shape 150528,768,384,$P $S109
for d in 1000 3800 6500; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S109 --epi-delay $d
done
for d in 1000 2200; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S109 --mainloop-delay $d
done
probe pingpong_both_1200_0700 $PG --variant pingpong --shape $SH $S109 --epi-delay 1200 --mainloop-delay 700
probe pingpong_k1024 $PG --variant pingpong --shape $M,768,1024,$P $S109
probe pingpong_n2048_epi_01500 $PG --variant pingpong --shape $M,2048,768,$P $S109 --epi-delay 1500
probe_set_finish
