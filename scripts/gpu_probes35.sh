#!/usr/bin/env bash
# Probe set 35 of issue 12 (docs/experiments.md M85): today's model, no
# change, on the settings the session's adopted lines moved (bres past the
# store's turn, M79; pingpong at other N and one column block, M82, M84),
# at a fresh seed, against the model before them.  Seed 103.  Each
# variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes35.sh OUTDIR      -> OUTDIR/probes35.tgz (+ the run files, the log)
SET=35
source "$(dirname "$0")/probe_set_lib.sh"
S103="--seed 103"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S103
probe bres_epi_02200 $PG --variant bres --shape $SH $S103 --epi-delay 2200
probe bres_epi_04600 $PG --variant bres --shape $SH $S103 --epi-delay 4600
probe bres_epi_07000 $PG --variant bres --shape $SH $S103 --epi-delay 7000
probe bres_m150528_epi_03400 $PG --variant bres --shape 150528,768,768,$P $S103 --epi-delay 3400
probe bres_n1152_epi_05000 $PG --variant bres --shape $M,1152,768,$P $S103 --epi-delay 5000
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S103
probe pingpong_n256_epi_00600 $PG --variant pingpong --shape $M,256,768,$P $S103 --epi-delay 600
probe pingpong_n256_ml_02000 $PG --variant pingpong --shape $M,256,768,$P $S103 --mainloop-delay 2000
probe pingpong_n512_ml_00600 $PG --variant pingpong --shape $M,512,768,$P $S103 --mainloop-delay 600
probe pingpong_n1536_epi_01200 $PG --variant pingpong --shape $M,1536,768,$P $S103 --epi-delay 1200
probe pingpong_n3072 $PG --variant pingpong --shape $M,3072,768,$P $S103
probe_set_finish
