#!/usr/bin/env bash
# Probe set 72 of issue 12 (docs/experiments.md M159): a fresh seed (144),
# the plain pingpong at settings no set has had -- epilogue delays from
# 1,300 to 9,300, K = 640 / 896 / 1,024 / 1,280 and N = 512 / 1,024 /
# 1,536 under a delay, M = 175,616, mainloop delays, both at once -- and
# two prefetch builds and bres.  pingpong, plain and prefetch builds alike,
# is predicted from the plain build's zero-delay run, bres from its own, by
# the built-in h100-pingpong and by M159's two variants (`dramq`, then
# `dramq` and `storewin`, on for a build that does not prefetch A).
#
#   scripts/gpu_probes72.sh OUTDIR      -> OUTDIR/probes72.tgz (+ the run files, the log)
SET=72
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 144"
M=200704
P=196
pp ml_00000 --shape $SH
pp epi_01300 --shape $SH --epi-delay 1300
pp epi_03200 --shape $SH --epi-delay 3200
pp epi_03900 --shape $SH --epi-delay 3900
pp epi_05300 --shape $SH --epi-delay 5300
pp epi_07200 --shape $SH --epi-delay 7200
pp epi_09300 --shape $SH --epi-delay 9300
pp k640_epi_03000 --shape $M,768,640,$P --epi-delay 3000
pp k896_epi_04500 --shape $M,768,896,$P --epi-delay 4500
pp k1024_epi_02000 --shape $M,768,1024,$P --epi-delay 2000
pp k1280_epi_06000 --shape $M,768,1280,$P --epi-delay 6000
pp n512_epi_03200 --shape $M,512,768,$P --epi-delay 3200
pp n1024_epi_06000 --shape $M,1024,768,$P --epi-delay 6000
pp n1536_epi_01000 --shape $M,1536,768,$P --epi-delay 1000
pp m175616_epi_05000 --shape 175616,768,768,$P --epi-delay 5000
pp ml_01000 --shape $SH --mainloop-delay 1000
pp ml_04000 --shape $SH --mainloop-delay 4000
pp both_1500_5000 --shape $SH --mainloop-delay 1500 --epi-delay 5000
pp pf1_epi_05000 --shape $SH --a-prefetch 1 --epi-delay 5000
pp pf2_epi_00000 --shape $SH --a-prefetch 2
br ml_00000 --shape $SH
br epi_03300 --shape $SH --epi-delay 3300
br epi_07000 --shape $SH --epi-delay 7000
probe_set_finish
