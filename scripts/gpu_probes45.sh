#!/usr/bin/env bash
# Probe set 45 of issue 12 (docs/experiments.md M96): pingpong at other N
# (one to thirteen column blocks of 256) with and without delays, at a
# fresh seed (113) and settings no set has had, for the `rowfirst` line
# (the producer's L2 prefetch of A on a row block's first column tile)
# against the built-in.  The zero-delay run at N = K = 768 calibrates.
#
#   scripts/gpu_probes45.sh OUTDIR      -> OUTDIR/probes45.tgz (+ the run files, the log)
SET=45
source "$(dirname "$0")/probe_set_lib.sh"
S113="--seed 113"
M=200704
P=196
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH $S113
for nd in 256:400 256:1800 512:400 512:2600 1280:2200 1792:2400 2304:1000 3328:700; do
    n=${nd%:*} d=${nd#*:}
    probe pingpong_n${n}_epi_$(printf %05d $d) $PG --variant pingpong --shape $M,$n,768,$P $S113 --epi-delay $d
done
probe pingpong_n256_ml_00700 $PG --variant pingpong --shape $M,256,768,$P $S113 --mainloop-delay 700
probe pingpong_n512_ml_01400 $PG --variant pingpong --shape $M,512,768,$P $S113 --mainloop-delay 1400
probe pingpong_n2048_ml_01200 $PG --variant pingpong --shape $M,2048,768,$P $S113 --mainloop-delay 1200
probe pingpong_n2816 $PG --variant pingpong --shape $M,2816,768,$P $S113
probe pingpong_n256_k1024 $PG --variant pingpong --shape $M,256,1024,$P $S113
probe pingpong_n1280_k512 $PG --variant pingpong --shape $M,1280,512,$P $S113
probe_set_finish
