#!/usr/bin/env bash
# Probe set 44 of issue 12 (docs/experiments.md M95): bres's loop at its
# commonest stall-free length (`kblocks ... fixed_mode=1`,
# traces/probes/reckoning/m95/bres_fixed_mode.sched) against the built-in,
# at a fresh seed (112) and settings no set has had: short K with delays
# (where the loop waits for nothing), K = 768 delays and a spin, both
# probes, another N and M, bres64.  The zero-delay run at N = K = 768
# calibrates.
#
#   scripts/gpu_probes44.sh OUTDIR      -> OUTDIR/probes44.tgz (+ the run files, the log)
SET=44
source "$(dirname "$0")/probe_set_lib.sh"
S112="--seed 112"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S112
for kd in 256:700 256:1600 384:400 384:1300 384:2600 512:500 512:1400 512:2000 640:900 640:2600; do
    k=${kd%:*} d=${kd#*:}
    probe bres_k${k}_epi_$(printf %05d $d) $PG --variant bres --shape $M,768,$k,$P $S112 --epi-delay $d
done
for d in 700 2600 4000; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S112 --epi-delay $d
done
probe bres_ml_01800 $PG --variant bres --shape $SH $S112 --mainloop-delay 1800
probe bres_both_1000_0700 $PG --variant bres --shape $SH $S112 --epi-delay 1000 --mainloop-delay 700
probe bres_n960_k512_epi_01000 $PG --variant bres --shape $M,960,512,$P $S112 --epi-delay 1000
probe bres_m100352_k256_epi_01000 $PG --variant bres --shape 100352,768,256,$P $S112 --epi-delay 1000
probe bres64_k512_epi_01200 $PG --variant bres64 --shape $M,768,512,$P $S112 --epi-delay 1200
probe_set_finish
