#!/usr/bin/env bash
# Probe set 61 of issue 12 (docs/experiments.md M131, a diagnostic): does a
# probe's delay cost the epilogue work beyond its D cycles?  bres and
# pingpong at zero delay beside --epi-delay 1, 100 and 300 and
# --mainloop-delay 1 (a fresh seed, 133; the full problem, N = K = 768).
#
#   scripts/gpu_probes61.sh OUTDIR      -> OUTDIR/probes61.tgz (+ the run files, the log)
SET=61
source "$(dirname "$0")/probe_set_lib.sh"
S133="--seed 133"
for v in bres pingpong; do
    probe ${v}_ml_00000 $PG --variant $v --shape $SH $S133
    for d in 1 100 300; do
        probe ${v}_epi_$(printf %05d $d) $PG --variant $v --shape $SH $S133 --epi-delay $d
    done
    probe ${v}_ml_00001 $PG --variant $v --shape $SH $S133 --mainloop-delay 1
done
probe_set_finish
