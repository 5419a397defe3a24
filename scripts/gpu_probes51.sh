#!/usr/bin/env bash
# Probe set 51 of issue 12 (docs/experiments.md M112): bres's rhythm under
# epilogue delays -- whether its two warpgroups pair, lock at half a cycle,
# or neither -- at delays no set has had and a fresh seed (123), against
# what M111 read off sets 29-48.  K = 768 at 1,800-4,500 and K = 512 at
# 1,700 and 2,600.  The zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes51.sh OUTDIR      -> OUTDIR/probes51.tgz (+ the run files, the log)
SET=51
source "$(dirname "$0")/probe_set_lib.sh"
S123="--seed 123"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S123
for d in 1800 2300 2700 3100 3600 4500; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH $S123 --epi-delay $d
done
for d in 1700 2600; do
    probe bres_k512_epi_$(printf %05d $d) $PG --variant bres --shape $M,768,512,$P $S123 --epi-delay $d
done
probe_set_finish
