#!/usr/bin/env bash
# Probe set 48 of issue 12 (docs/experiments.md M108): pingpong under
# spins, epilogue delays and both, at settings no set has had and a fresh
# seed (120), for the epilogue's contention counted on the other loop's
# compute (--variant regs_by_compute=1) against the built-in.  The
# zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes48.sh OUTDIR      -> OUTDIR/probes48.tgz (+ the run files, the log)
SET=48
source "$(dirname "$0")/probe_set_lib.sh"
S120="--seed 120"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S120
for d in 1100 1900 2400 3300; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S120 --mainloop-delay $d
done
for d in 1100 2300 4600; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S120 --epi-delay $d
done
for ed in 0700:1700 1400:1400 1700:0600; do
    e=${ed%:*} d=${ed#*:}
    probe pingpong_both_${e}_${d} $PG --variant pingpong --shape $SH $S120 --epi-delay $((10#$e)) --mainloop-delay $((10#$d))
done
probe pingpong_n1024_ml_02100 $PG --variant pingpong --shape $M,1024,768,$P $S120 --mainloop-delay 2100
probe pingpong_k1024_both_1000_1000 $PG --variant pingpong --shape $M,768,1024,$P $S120 --epi-delay 1000 --mainloop-delay 1000
probe pingpong_m250880_ml_01600 $PG --variant pingpong --shape 250880,768,768,$P $S120 --mainloop-delay 1600
probe_set_finish
