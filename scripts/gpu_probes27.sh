#!/usr/bin/env bash
# Probe set 27 of issue 12 (docs/experiments.md M75, M76): the ring lines
# at every depth a tile's k-blocks allow (K = 128 to 512, with delays and
# spins), and the DRAM wall: bres at N = 192 (one column block: A read by
# one CTA, the most bytes per tile) and N = 384, where the H100 runs at its
# stream floor; bres64 and pingpong at small K; a new seed (67).  Each
# variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes27.sh OUTDIR      -> OUTDIR/probes27.tgz (+ the run files, the log)
SET=27
source "$(dirname "$0")/probe_set_lib.sh"
S67="--seed 67"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S67
for K in 128 256 384; do
    probe bres_k$K $PG --variant bres --shape $M,768,$K,$P $S67
done
probe bres_k128_epi_01500 $PG --variant bres --shape $M,768,128,$P $S67 --epi-delay 1500
probe bres_k256_ml_01000 $PG --variant bres --shape $M,768,256,$P $S67 --mainloop-delay 1000
probe bres_k384_epi_00600 $PG --variant bres --shape $M,768,384,$P $S67 --epi-delay 600
probe bres_k512_ml_01200 $PG --variant bres --shape $M,768,512,$P $S67 --mainloop-delay 1200
probe bres_n384 $PG --variant bres --shape $M,384,768,$P $S67
probe bres_n384_epi_01000 $PG --variant bres --shape $M,384,768,$P $S67 --epi-delay 1000
probe bres_n192 $PG --variant bres --shape $M,192,768,$P $S67
probe bres_n192_k384 $PG --variant bres --shape $M,192,384,$P $S67
probe bres64_ml_00000 $PG --variant bres64 --shape $SH $S67
probe bres64_k128 $PG --variant bres64 --shape $M,768,128,$P $S67
probe bres64_k256 $PG --variant bres64 --shape $M,768,256,$P $S67
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S67
probe pingpong_k128 $PG --variant pingpong --shape $M,768,128,$P $S67
probe pingpong_k256 $PG --variant pingpong --shape $M,768,256,$P $S67
probe_set_finish
