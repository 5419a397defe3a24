#!/usr/bin/env bash
# Probe set 54 of issue 12 (docs/experiments.md M118): the built-in model,
# unchanged, against settings no set has had, at a fresh seed (126), to test
# M117's reading of its errors as a bias that can be predicted: pingpong
# spins and epilogue delays across the S-curves, other N and K under a
# delay; bres at K = 512 where the SMs lock together, K = 640, 384 and 768
# under long delays.  The zero-delay runs at N = K = 768 calibrate.
#
#   scripts/gpu_probes54.sh OUTDIR      -> OUTDIR/probes54.tgz (+ the run files, the log)
SET=54
source "$(dirname "$0")/probe_set_lib.sh"
S126="--seed 126"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S126
for d in 900 1400 2000 2700; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S126 --mainloop-delay $d
done
for d in 1200 2500 3700 6200; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S126 --epi-delay $d
done
probe pingpong_n1280_epi_01700 $PG --variant pingpong --shape $M,1280,768,$P $S126 --epi-delay 1700
probe pingpong_n512_epi_02000 $PG --variant pingpong --shape $M,512,768,$P $S126 --epi-delay 2000
probe pingpong_n2816_epi_01000 $PG --variant pingpong --shape $M,2816,768,$P $S126 --epi-delay 1000
probe pingpong_k640_epi_01300 $PG --variant pingpong --shape $M,768,640,$P $S126 --epi-delay 1300
probe pingpong_k896_epi_01000 $PG --variant pingpong --shape $M,768,896,$P $S126 --epi-delay 1000
probe bres_ml_00000 $PG --variant bres --shape $SH $S126
for d in 1900 2600; do
    probe bres_k512_epi_$(printf %05d $d) $PG --variant bres --shape $M,768,512,$P $S126 --epi-delay $d
done
probe bres_k640_epi_02800 $PG --variant bres --shape $M,768,640,$P $S126 --epi-delay 2800
probe bres_k384_epi_02400 $PG --variant bres --shape $M,768,384,$P $S126 --epi-delay 2400
probe bres_epi_04500 $PG --variant bres --shape $SH $S126 --epi-delay 4500
probe_set_finish
