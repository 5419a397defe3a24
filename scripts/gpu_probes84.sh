#!/usr/bin/env bash
# Probe set 84 of issue 12 (docs/experiments.md M181): a fresh seed (156),
# broad on both kernels as they are at the commit that holds M181's
# prediction (the model unchanged since M179's clock line): every kind of
# probe issue 12 names (--epi-delay and --mainloop-delay sweeps, both at
# once, other M) at settings no set has had, for pingpong and bres, plus
# another K and N, the 3- and 2-stage rings and bres64 from bres's
# calibration.  Each kernel is calibrated on its own zero-delay run at
# N = K = 768.  Unlike sets 66-83 every run file of this set is committed
# (traces/probes/h200_s84/): the uncommitted sets were lost with the dev
# machines that held them.
#
#   scripts/gpu_probes84.sh OUTDIR      -> OUTDIR/probes84.tgz (+ the run files, the log)
SET=84
STAGE_BUILDS="2 3"
source "$(dirname "$0")/probe_set_lib.sh"
S="--seed 156"
M=200704
P=196
pp ml_00000 --shape $SH
for d in 600 1300 2000 3300 4600 6800 10000; do pp epi_$(printf %05d $d) --shape $SH --epi-delay $d; done
for d in 900 2100 2800 4400 7000; do pp ml_$(printf %05d $d) --shape $SH --mainloop-delay $d; done
pp both_1200_0600 --shape $SH --epi-delay 1200 --mainloop-delay 600
pp both_2500_2500 --shape $SH --epi-delay 2500 --mainloop-delay 2500
pp both_5000_1000 --shape $SH --epi-delay 5000 --mainloop-delay 1000
pp both_0700_3000 --shape $SH --epi-delay 700 --mainloop-delay 3000
pp m75264 --shape 75264,768,768,$P
pp m125440_ml_01800 --shape 125440,768,768,$P --mainloop-delay 1800
pp m175616_epi_04000 --shape 175616,768,768,$P --epi-delay 4000
pp m301056_epi_01500 --shape 301056,768,768,$P --epi-delay 1500
pp k1024_epi_02000 --shape $M,768,1024,$P --epi-delay 2000
pp n1024_ml_02500 --shape $M,1024,768,$P --mainloop-delay 2500
ppst 3 ml_00000 --shape $SH
ppst 3 epi_03500 --shape $SH --epi-delay 3500
ppst 2 epi_01500 --shape $SH --epi-delay 1500
br ml_00000 --shape $SH
for d in 500 1000 1800 2700 4200 6500 9500; do br epi_$(printf %05d $d) --shape $SH --epi-delay $d; done
for d in 1000 2400 3600 5200 8000; do br ml_$(printf %05d $d) --shape $SH --mainloop-delay $d; done
br both_1000_1000 --shape $SH --epi-delay 1000 --mainloop-delay 1000
br both_3000_2000 --shape $SH --epi-delay 3000 --mainloop-delay 2000
br m52800 --shape 52800,768,768,$P
br m126720_epi_01500 --shape 126720,768,768,$P --epi-delay 1500
probe bres64_ml_00000 $PG --variant bres64 $S --shape $SH
probe bres64_epi_02000 $PG --variant bres64 $S --shape $SH --epi-delay 2000
probe_set_finish
