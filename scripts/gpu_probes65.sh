#!/usr/bin/env bash
# Probe set 65 of issue 12 (docs/experiments.md M145): a fresh seed (137),
# the fixed pingpong (M142) at settings no set has had, weighted to long
# epilogue delays and spins at K = 768 and to delays at other K, where set
# 64 found the committed model 3-7% fast (M144): the out-of-sample test of
# M145's candidates (traces/probes/reckoning/m145/h100-pingpong-c{1,2}.sched)
# beside the committed h100-pingpong.  The zero-delay run at N = K = 768
# calibrates each.
#
#   scripts/gpu_probes65.sh OUTDIR      -> OUTDIR/probes65.tgz (+ the run files, the log)
SET=65
source "$(dirname "$0")/probe_set_lib.sh"
S137="--seed 137"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S137
for d in 800 1700 2600 3600 5500 7000; do
    probe pingpong_epi_$(printf %05d $d) $PG --variant pingpong --shape $SH $S137 --epi-delay $d
done
for d in 1500 2000 3200; do
    probe pingpong_ml_$(printf %05d $d) $PG --variant pingpong --shape $SH $S137 --mainloop-delay $d
done
probe pingpong_k640_epi_00900 $PG --variant pingpong --shape $M,768,640,$P $S137 --epi-delay 900
probe pingpong_k640_epi_03000 $PG --variant pingpong --shape $M,768,640,$P $S137 --epi-delay 3000
probe pingpong_k896_epi_03500 $PG --variant pingpong --shape $M,768,896,$P $S137 --epi-delay 3500
probe pingpong_k1024_epi_02500 $PG --variant pingpong --shape $M,768,1024,$P $S137 --epi-delay 2500
probe pingpong_k512_epi_02500 $PG --variant pingpong --shape $M,768,512,$P $S137 --epi-delay 2500
probe pingpong_n1536_epi_02000 $PG --variant pingpong --shape $M,1536,768,$P $S137 --epi-delay 2000
probe pingpong_m100352_epi_03000 $PG --variant pingpong --shape 100352,768,768,$P $S137 --epi-delay 3000
probe pingpong_n256_epi_01500 $PG --variant pingpong --shape $M,256,768,$P $S137 --epi-delay 1500
probe_set_finish
