#!/usr/bin/env bash
# Probe set 24 of issue 12 (docs/experiments.md M72): bres on the H200
# where its DRAM share moves (other N and K, another M) and at delays, at
# a new seed (53): the test of the `bandwidth` line's floor=device (the
# copy floor pegemm measured on the run's GPU, not the schedule's H100
# figure).  Runs on either GPU; the rule reads the H200's.
#
#   scripts/gpu_probes24.sh OUTDIR      -> OUTDIR/probes24.tgz (+ the run files, the log)
SET=24
source "$(dirname "$0")/probe_set_lib.sh"
S53="--seed 53"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH $S53
probe bres_n384_epi_00800 $PG --variant bres --shape $M,384,768,$P $S53 --epi-delay 800
probe bres_n576 $PG --variant bres --shape $M,576,768,$P $S53
probe bres_n1152 $PG --variant bres --shape $M,1152,768,$P $S53
probe bres_n1536_ml_00700 $PG --variant bres --shape $M,1536,768,$P $S53 --mainloop-delay 700
probe bres_k640_epi_01000 $PG --variant bres --shape $M,768,640,$P $S53 --epi-delay 1000
probe bres_k512 $PG --variant bres --shape $M,768,512,$P $S53
probe bres_m301056_epi_00500 $PG --variant bres --shape 301056,768,768,$P $S53 --epi-delay 500
probe bres_epi_00600 $PG --variant bres --shape $SH $S53 --epi-delay 600
probe bres_epi_03000 $PG --variant bres --shape $SH $S53 --epi-delay 3000
probe bres_ml_02500 $PG --variant bres --shape $SH $S53 --mainloop-delay 2500
probe_set_finish
