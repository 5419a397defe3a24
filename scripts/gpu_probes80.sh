#!/usr/bin/env bash
# Probe set 80 of issue 12 (docs/experiments.md M171): a fresh seed (152),
# the fixed pingpong on 3- and 2-stage rings at settings sets 74-79 did
# not have, each predicted from the 4-stage zero-delay run by the built-in
# (M166's a, ring=0.2) and by M166's b (ring=0.6 wake=390).
#
#   scripts/gpu_probes80.sh OUTDIR      -> OUTDIR/probes80.tgz (+ the run files, the log)
SET=80
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 152"
M=200704
P=196
pp ml_00000 --shape $SH
ppst 3 epi_01800 --shape $SH --epi-delay 1800
ppst 3 epi_03300 --shape $SH --epi-delay 3300
ppst 3 ml_01000 --shape $SH --mainloop-delay 1000
ppst 3 k896_epi_01500 --shape $M,768,896,$P --epi-delay 1500
ppst 3 k1152_ml_00000 --shape $M,768,1152,$P
ppst 3 n1536_epi_02500 --shape $M,1536,768,$P --epi-delay 2500
ppst 2 k640_epi_02000 --shape $M,768,640,$P --epi-delay 2000
ppst 2 k896_ml_00000 --shape $M,768,896,$P
ppst 2 n2048_epi_01000 --shape $M,2048,768,$P --epi-delay 1000
ppst 2 ml_03000 --shape $SH --mainloop-delay 3000
ppst 2 m100352_epi_02500 --shape 100352,768,768,$P --epi-delay 2500
probe_set_finish
