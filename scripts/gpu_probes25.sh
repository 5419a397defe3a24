#!/usr/bin/env bash
# Probe set 25 of issue 12 (docs/experiments.md M73): bres and pingpong
# across K (3 to 12 k-blocks through the 4-stage ring) at a new seed (59),
# with and without a delay; bres's zero-delay run at K = 768 calibrates.
# The run files are kept: the traces are what M73's analysis reads.
#
#   scripts/gpu_probes25.sh OUTDIR      -> OUTDIR/probes25.tgz (+ the run files, the log)
SET=25
source "$(dirname "$0")/probe_set_lib.sh"
S59="--seed 59"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S59
for K in 384 512 640 896 1024 1280 1536; do
    probe bres_k$K $PG --variant bres --shape $M,768,$K,$P $S59
done
probe bres_k512_epi_00800 $PG --variant bres --shape $M,768,512,$P $S59 --epi-delay 800
probe bres_k1024_epi_01600 $PG --variant bres --shape $M,768,1024,$P $S59 --epi-delay 1600
probe bres_k1024_ml_00900 $PG --variant bres --shape $M,768,1024,$P $S59 --mainloop-delay 900
probe bres_k384_epi_02000 $PG --variant bres --shape $M,768,384,$P $S59 --epi-delay 2000
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S59
probe pingpong_k512 $PG --variant pingpong --shape $M,768,512,$P $S59
probe pingpong_k1024 $PG --variant pingpong --shape $M,768,1024,$P $S59
probe pingpong_k1024_epi_01200 $PG --variant pingpong --shape $M,768,1024,$P $S59 --epi-delay 1200
probe_set_finish
