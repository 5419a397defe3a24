#!/usr/bin/env bash
# Probe set 42 of issue 12 (docs/experiments.md M93): the session's model
# (M90-M92) on both kernels at a fresh seed (110) and settings no set has
# had, every kind of probe: --epi-delay, --mainloop-delay, both, K, N, M.
# No model change.  Each variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes42.sh OUTDIR      -> OUTDIR/probes42.tgz (+ the run files, the log)
SET=42
source "$(dirname "$0")/probe_set_lib.sh"
S110="--seed 110"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S110
for d in 800 2800 5000; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S110 --epi-delay $d
done
for d in 600 1600; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S110 --mainloop-delay $d
done
probe pingpong_both_0900_1300 $PG --variant pingpong --shape $SH $S110 --epi-delay 900 --mainloop-delay 1300
probe pingpong_k384_epi_00900 $PG --variant pingpong --shape $M,768,384,$P $S110 --epi-delay 900
probe pingpong_k256_epi_01500 $PG --variant pingpong --shape $M,768,256,$P $S110 --epi-delay 1500
probe pingpong_k1152_epi_00700 $PG --variant pingpong --shape $M,768,1152,$P $S110 --epi-delay 700
# refused at run time (M93): the pingpong kernel needs N to be a multiple of 256
probe pingpong_k768_n384 $PG --variant pingpong --shape $M,384,768,$P $S110
probe pingpong_n1792_epi_01000 $PG --variant pingpong --shape $M,1792,768,$P $S110 --epi-delay 1000
probe pingpong_m250880_epi_01600 $PG --variant pingpong --shape 250880,768,768,$P $S110 --epi-delay 1600
probe bres_ml_00000 $PG --variant bres --shape $SH $S110
for d in 900 3400; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S110 --epi-delay $d
done
probe bres_ml_01400 $PG --variant bres --shape $SH $S110 --mainloop-delay 1400
probe bres_k256_epi_00800 $PG --variant bres --shape $M,768,256,$P $S110 --epi-delay 800
probe bres_k384_epi_00600 $PG --variant bres --shape $M,768,384,$P $S110 --epi-delay 600
probe bres_k512_epi_01600 $PG --variant bres --shape $M,768,512,$P $S110 --epi-delay 1600
probe bres_k640_epi_02000 $PG --variant bres --shape $M,768,640,$P $S110 --epi-delay 2000
probe bres_n1152_epi_01200 $PG --variant bres --shape $M,1152,768,$P $S110 --epi-delay 1200
probe_set_finish
