#!/usr/bin/env bash
# Probe set 73 of issue 12 (docs/experiments.md M162): a fresh seed (145),
# the cluster builds of the default kernel, bresmc2 and bresmc4 (A
# multicast within clusters of 2 / 4 column-block CTAs), traced for the
# first time: each calibrated on its own zero-delay run and its --epi-delay
# and --mainloop-delay runs (and, for bresmc2, K = 512 and N = 1,152)
# predicted by the built-in h100-bres, the schedule `pegemm model` picks
# for every bres variant; bres at zero delay and 2,500 beside them.
#
#   scripts/gpu_probes73.sh OUTDIR      -> OUTDIR/probes73.tgz (+ the run files, the log)
SET=73
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 145"
M=200704
P=196
mc2() { probe "bresmc2_$1" $PG --variant bresmc2 $S "${@:2}"; }
mc4() { probe "bresmc4_$1" $PG --variant bresmc4 $S "${@:2}"; }
mc2 ml_00000 --shape $SH
mc2 epi_00500 --shape $SH --epi-delay 500
mc2 epi_01500 --shape $SH --epi-delay 1500
mc2 epi_03000 --shape $SH --epi-delay 3000
mc2 epi_06000 --shape $SH --epi-delay 6000
mc2 ml_02000 --shape $SH --mainloop-delay 2000
mc2 k512_epi_01000 --shape $M,768,512,$P --epi-delay 1000
mc2 n1152_epi_00900 --shape $M,1152,768,$P --epi-delay 900
mc4 ml_00000 --shape $SH
mc4 epi_00800 --shape $SH --epi-delay 800
mc4 epi_02500 --shape $SH --epi-delay 2500
mc4 epi_05000 --shape $SH --epi-delay 5000
mc4 ml_01500 --shape $SH --mainloop-delay 1500
br ml_00000 --shape $SH
br epi_02500 --shape $SH --epi-delay 2500
probe_set_finish
