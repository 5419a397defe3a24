#!/usr/bin/env bash
# Probe set 63 of issue 12 (docs/experiments.md M137): a fresh seed (135),
# bres only (7 of its 14 settings ran in earlier sets with other seeds):
# --epi-delay across the transition and past it, short K, another M,
# another N, a mainloop spin and bres64,
# to score M137's candidate schedule (traces/probes/reckoning/m137/
# h100-bres-m137.sched: the drain law, the gap line, the spin's cost) out
# of sample beside the committed h100-bres.  The zero-delay run at N = K =
# 768 calibrates both.
#
#   scripts/gpu_probes63.sh OUTDIR      -> OUTDIR/probes63.tgz (+ the run files, the log)
SET=63
source "$(dirname "$0")/probe_set_lib.sh"
S135="--seed 135"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S135
for d in 300 1000 1800 2500 4200 7000; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S135 --epi-delay $d
done
probe bres_k512_epi_01600 $PG --variant bres --shape $M,768,512,$P $S135 --epi-delay 1600
probe bres_k384_epi_01800 $PG --variant bres --shape $M,768,384,$P $S135 --epi-delay 1800
probe bres_k640_epi_02200 $PG --variant bres --shape $M,768,640,$P $S135 --epi-delay 2200
probe bres_k256_epi_00700 $PG --variant bres --shape $M,768,256,$P $S135 --epi-delay 700
probe bres_m150528_epi_01300 $PG --variant bres --shape 150528,768,768,$P $S135 --epi-delay 1300
probe bres_n1152_epi_02600 $PG --variant bres --shape $M,1152,768,$P $S135 --epi-delay 2600
probe bres_ml_01800 $PG --variant bres --shape $SH $S135 --mainloop-delay 1800
probe bres64_epi_01000 $PG --variant bres64 --shape $SH $S135 --epi-delay 1000
probe_set_finish
