#!/usr/bin/env bash
# Probe set 40 of issue 12 (docs/experiments.md M91): pingpong's first load
# against its own warpgroup's previous store (M88's `storenear ... own=1`,
# traces/probes/reckoning/m91/pp_own.sched) on top of M90's fixed=, at a
# fresh seed (108): --epi-delay at N <= 768 (where the built-in's load_wait
# falls short), long and K = 640 tiles (where the first load's latency
# follows the store's distance), another M and N, a spin.  The zero-delay
# run at N = K = 768 calibrates.
#
#   scripts/gpu_probes40.sh OUTDIR      -> OUTDIR/probes40.tgz (+ the run files, the log)
SET=40
source "$(dirname "$0")/probe_set_lib.sh"
S108="--seed 108"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S108
for d in 700 1300 2100; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S108 --epi-delay $d
done
probe pingpong_n256_epi_01200 $PG --variant pingpong --shape $M,256,768,$P $S108 --epi-delay 1200
probe pingpong_n512_epi_01800 $PG --variant pingpong --shape $M,512,768,$P $S108 --epi-delay 1800
probe pingpong_k640 $PG --variant pingpong --shape $M,768,640,$P $S108
probe pingpong_k640_epi_00600 $PG --variant pingpong --shape $M,768,640,$P $S108 --epi-delay 600
probe pingpong_k1152 $PG --variant pingpong --shape $M,768,1152,$P $S108
probe pingpong_k1280_epi_00800 $PG --variant pingpong --shape $M,768,1280,$P $S108 --epi-delay 800
probe pingpong_k1536 $PG --variant pingpong --shape $M,768,1536,$P $S108
probe pingpong_k1024_epi_01500 $PG --variant pingpong --shape $M,768,1024,$P $S108 --epi-delay 1500
probe pingpong_m100352_epi_00900 $PG --variant pingpong --shape 100352,768,768,$P $S108 --epi-delay 900
probe pingpong_n1280_epi_01400 $PG --variant pingpong --shape $M,1280,768,$P $S108 --epi-delay 1400
probe pingpong_ml_01500 $PG --variant pingpong --shape $SH $S108 --mainloop-delay 1500
probe pingpong_both_0600_1000 $PG --variant pingpong --shape $SH $S108 --epi-delay 600 --mainloop-delay 1000
probe_set_finish
