#!/usr/bin/env bash
# Probe set 53 of issue 12 (docs/experiments.md M116): bres with the
# `inflight` line on (the first load against the loop's loads in flight)
# and `storenear` at gain 0.04, at a fresh seed (125): K = 512 at zero delay
# and under delays no set has had, K = 768 across the delays where the line
# moves the period, K = 384 and 640, bres64 (which the line leaves alone)
# and another N.  The zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes53.sh OUTDIR      -> OUTDIR/probes53.tgz (+ the run files, the log)
SET=53
source "$(dirname "$0")/probe_set_lib.sh"
S125="--seed 125"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S125
probe bres_k512 $PG --variant bres --shape $M,768,512,$P $S125
for d in 700 1500 2200; do
    probe bres_k512_epi_$(printf %05d $d) $PG --variant bres --shape $M,768,512,$P $S125 --epi-delay $d
done
for d in 900 1250 1900 3400; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S125 --epi-delay $d
done
probe bres_k384_epi_01800 $PG --variant bres --shape $M,768,384,$P $S125 --epi-delay 1800
probe bres_k640_epi_01300 $PG --variant bres --shape $M,768,640,$P $S125 --epi-delay 1300
probe bres64_epi_00900 $PG --variant bres64 --shape $SH $S125 --epi-delay 900
probe bres_n1152_epi_01500 $PG --variant bres --shape $M,1152,768,$P $S125 --epi-delay 1500
probe_set_finish
