#!/usr/bin/env bash
# Probe set 23 of issue 12 (docs/experiments.md M70): today's default
# model on kinds of change beside the delay sweep, at a new seed (47):
# bres at another N and K with and without a delay, another M with a
# delay, delays and a spin no set ran; pingpong at another N and K with a
# delay or spin.  Each variant's zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes23.sh OUTDIR      -> OUTDIR/probes23.tgz (+ the run files, the log)
SET=23
source "$(dirname "$0")/probe_set_lib.sh"
S47="--seed 47"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S47
probe bres_epi_01100 $PG --variant bres --shape $SH $S47 --epi-delay 1100
probe bres_epi_02200 $PG --variant bres --shape $SH $S47 --epi-delay 2200
probe bres_ml_01500 $PG --variant bres --shape $SH $S47 --mainloop-delay 1500
probe bres_n1536_epi_01400 $PG --variant bres --shape $M,1536,768,$P $S47 --epi-delay 1400
probe bres_n384 $PG --variant bres --shape $M,384,768,$P $S47
probe bres_k512_epi_01400 $PG --variant bres --shape $M,768,512,$P $S47 --epi-delay 1400
probe bres_k640_ml_00800 $PG --variant bres --shape $M,768,640,$P $S47 --mainloop-delay 800
probe bres_m602112_epi_03000 $PG --variant bres --shape 602112,768,768,$P $S47 --epi-delay 3000
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S47
probe pingpong_epi_02600 $PG --variant pingpong --shape $SH $S47 --epi-delay 2600
probe pingpong_n1536_epi_01000 $PG --variant pingpong --shape $M,1536,768,$P $S47 --epi-delay 1000
probe pingpong_k1536_ml_00600 $PG --variant pingpong --shape $M,768,1536,$P $S47 --mainloop-delay 600
probe_set_finish
