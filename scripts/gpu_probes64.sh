#!/usr/bin/env bash
# Probe set 64 of issue 12 (docs/experiments.md M144): a fresh seed (136),
# the first set on the fixed pingpong (M142: its --a-prefetch loop no longer
# prefetches each tile's own A), at settings no set has had: --epi-delay
# across the transition, spins, K from 512 to 1,792 with and without a
# delay, another N and M; bres beside it (unchanged kernel: a control).
# The committed model predicts each run from the zero-delay run at
# N = K = 768 of its variant.
#
#   scripts/gpu_probes64.sh OUTDIR      -> OUTDIR/probes64.tgz (+ the run files, the log)
SET=64
source "$(dirname "$0")/probe_set_lib.sh"
S136="--seed 136"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S136
for d in 400 1300 2100 3100 4700; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S136 --epi-delay $d
done
for d in 900 2600; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S136 --mainloop-delay $d
done
probe pingpong_k1152 $PG --variant pingpong --shape $M,768,1152,$P $S136
probe pingpong_k1792 $PG --variant pingpong --shape $M,768,1792,$P $S136
probe pingpong_k1280_epi_01400 $PG --variant pingpong --shape $M,768,1280,$P $S136 --epi-delay 1400
probe pingpong_k896_epi_02300 $PG --variant pingpong --shape $M,768,896,$P $S136 --epi-delay 2300
probe pingpong_k640_epi_02000 $PG --variant pingpong --shape $M,768,640,$P $S136 --epi-delay 2000
probe pingpong_k512_ml_01000 $PG --variant pingpong --shape $M,768,512,$P $S136 --mainloop-delay 1000
probe pingpong_n512_epi_01200 $PG --variant pingpong --shape $M,512,768,$P $S136 --epi-delay 1200
probe pingpong_n1280 $PG --variant pingpong --shape $M,1280,768,$P $S136
probe pingpong_m137984_epi_00800 $PG --variant pingpong --shape 137984,768,768,$P $S136 --epi-delay 800
probe bres_ml_00000 $PG --variant bres --shape $SH $S136
for d in 1100 3300; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S136 --epi-delay $d
done
probe_set_finish
