#!/usr/bin/env bash
# Probe set 18 of issue 12 (docs/experiments.md M61): probes of two kinds at
# once, at settings no earlier set ran: small problems whose working set
# stays in the L2 between launches (T = 5 tiles per SM, the `l2reuse` line
# at h = 1) under --epi-delay and --mainloop-delay spins, beside the same
# delays at the calibration's M.  It also asks whether bres's H100 bump at
# 300-1,500 cycles of --epi-delay (M55-M57: the first load slows, not
# without D's stores) survives when D's lines stay in the L2.  Each
# variant's zero-delay calibration and the bench's floors; every traced run
# keeps rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes18.sh OUTDIR      -> OUTDIR/probes18.tgz (+ the run files, the log)
SET=18
source "$(dirname "$0")/probe_set_lib.sh"
BS=10560,768,768,196 # bres: 5 tiles per SM, 24 MB
PS=14080,768,768,196 # pingpong: 5 tiles per SM, 32 MB
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 500 1000; do
    probe bres_epi_$(printf %05d $d) $PG --variant bres --shape $SH --epi-delay $d
done
for d in 0 500 1000 1500 2500; do
    probe bres_m10560_epi_$(printf %05d $d) $PG --variant bres --shape $BS --epi-delay $d
done
for d in 1200 2400; do
    probe bres_m10560_ml_$(printf %05d $d) $PG --variant bres --shape $BS --mainloop-delay $d
done
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
for d in 1500 3500; do
    probe pingpong_m14080_epi_$(printf %05d $d) $PG --variant pingpong --shape $PS --epi-delay $d
done
probe pingpong_m14080_ml_02000 $PG --variant pingpong --shape $PS --mainloop-delay 2000
probe_set_finish
