#!/usr/bin/env bash
# Probe set 37 of issue 12 (docs/experiments.md M87): M86's solve=tile
# replicated at a fresh seed (105) and settings no set has had: short
# tiles with delays from 300 to 3,000, K = 384 at another M, K = 512 at
# another N, bres64 at K = 256, a mainloop spin.  bres's zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes37.sh OUTDIR      -> OUTDIR/probes37.tgz (+ the run files, the log)
SET=37
source "$(dirname "$0")/probe_set_lib.sh"
S105="--seed 105"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S105
probe bres_epi_02400 $PG --variant bres --shape $SH $S105 --epi-delay 2400
probe bres_epi_06500 $PG --variant bres --shape $SH $S105 --epi-delay 6500
for kd in 256:300 256:1800 384:1000 512:600 512:2400 640:3000; do
    k=${kd%:*} d=${kd#*:}
    probe bres_k${k}_epi_$(printf %05d $d) $PG --variant bres --shape $M,768,$k,$P $S105 --epi-delay $d
done
probe bres_m100352_k384_epi_00800 $PG --variant bres --shape 100352,768,384,$P $S105 --epi-delay 800
probe bres_n576_k512_epi_01200 $PG --variant bres --shape $M,576,512,$P $S105 --epi-delay 1200
probe bres_ml_01200 $PG --variant bres --shape $SH $S105 --mainloop-delay 1200
probe bres64_k256_epi_00600 $PG --variant bres64 --shape $M,768,256,$P $S105 --epi-delay 600
probe bres64_epi_03000 $PG --variant bres64 --shape $SH $S105 --epi-delay 3000
probe_set_finish
