#!/usr/bin/env bash
# Probe set 50 of issue 12 (docs/experiments.md M110): pingpong at other N
# (256 to 4,096) under epilogue delays and spins, at settings no set has
# had and a fresh seed (122), for colshare moving only the unqueued part of
# the in-loop loads and rowfirst on, against the schedule before them; one
# N = 768 run under a delay as the control (both schedules the same there).
# The zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes50.sh OUTDIR      -> OUTDIR/probes50.tgz (+ the run files, the log)
SET=50
source "$(dirname "$0")/probe_set_lib.sh"
S122="--seed 122"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S122
probe pingpong_epi_01000 $PG --variant pingpong --shape $SH $S122 --epi-delay 1000
probe pingpong_n256_epi_00700 $PG --variant pingpong --shape $M,256,768,$P $S122 --epi-delay 700
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P $S122
probe pingpong_n1024_epi_00600 $PG --variant pingpong --shape $M,1024,768,$P $S122 --epi-delay 600
probe pingpong_n1536_ml_00900 $PG --variant pingpong --shape $M,1536,768,$P $S122 --mainloop-delay 900
probe pingpong_n2048_epi_01200 $PG --variant pingpong --shape $M,2048,768,$P $S122 --epi-delay 1200
probe pingpong_n2560 $PG --variant pingpong --shape $M,2560,768,$P $S122
probe pingpong_n2816_epi_01600 $PG --variant pingpong --shape $M,2816,768,$P $S122 --epi-delay 1600
probe pingpong_n3584_epi_00900 $PG --variant pingpong --shape $M,3584,768,$P $S122 --epi-delay 900
probe pingpong_n4096 $PG --variant pingpong --shape $M,4096,768,$P $S122
probe pingpong_n1280_k1024_epi_00800 $PG --variant pingpong --shape $M,1280,1024,$P $S122 --epi-delay 800
probe_set_finish
