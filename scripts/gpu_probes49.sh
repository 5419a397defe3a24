#!/usr/bin/env bash
# Probe set 49 of issue 12 (docs/experiments.md M109): pingpong under
# spins, epilogue delays and both, at other N, K and M, at settings no set
# has had and a fresh seed (121), for the in-loop loads issued at the
# kernel's handover (queue=0.6, the epilogue's contention on the loop's
# compute) against the schedule before it.  The zero-delay run at
# N = K = 768 calibrates.
#
#   scripts/gpu_probes49.sh OUTDIR      -> OUTDIR/probes49.tgz (+ the run files, the log)
SET=49
source "$(dirname "$0")/probe_set_lib.sh"
S121="--seed 121"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S121
for d in 1400 2700; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S121 --mainloop-delay $d
done
for d in 1300 3600; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S121 --epi-delay $d
done
probe pingpong_both_0900_1200 $PG --variant pingpong --shape $SH $S121 --epi-delay 900 --mainloop-delay 1200
probe pingpong_both_1500_1000 $PG --variant pingpong --shape $SH $S121 --epi-delay 1500 --mainloop-delay 1000
probe pingpong_n1280_epi_01100 $PG --variant pingpong --shape $M,1280,768,$P $S121 --epi-delay 1100
probe pingpong_n1792_ml_01500 $PG --variant pingpong --shape $M,1792,768,$P $S121 --mainloop-delay 1500
probe pingpong_k1152_epi_00600 $PG --variant pingpong --shape $M,768,1152,$P $S121 --epi-delay 600
probe pingpong_k896_ml_01200 $PG --variant pingpong --shape $M,768,896,$P $S121 --mainloop-delay 1200
probe pingpong_k1408 $PG --variant pingpong --shape $M,768,1408,$P $S121
probe pingpong_m150528_both_1000_0800 $PG --variant pingpong --shape 150528,768,768,$P $S121 --epi-delay 1000 --mainloop-delay 800
probe_set_finish
