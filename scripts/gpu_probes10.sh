#!/usr/bin/env bash
# Probe set 10 of issue 12 (docs/experiments.md M40: another N or K
# predicted by `pegemm model validate`), settings never measured before and
# predicted (committed, scripts/m40_predict.py) before this script first
# ran, the same list on an H100 and an H200: bres at K = 640 and 512, N =
# 384 and 1,536 (1,536 also with --epi-delay 1000), K = 640 with
# --mainloop-delay 1000, bres64 at K = 640 (from bres's calibration);
# pingpong at K = 512, 1,024 and 1,536 (1,536 also with --epi-delay 2000),
# N = 512 and 1,536; each variant's zero-delay calibration and the bench's
# floors.  Every traced run keeps rows 0:64 and times 10 launches, as the
# earlier sets.
#
#   scripts/gpu_probes10.sh OUTDIR      -> OUTDIR/probes10.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu); the harness is scripts/probe_set_lib.sh.
SET=10
source "$(dirname "$0")/probe_set_lib.sh"
M=200704
P=196
probe bres_ml_00000 $PG --variant bres --shape $SH
probe bres_k640 $PG --variant bres --shape $M,768,640,$P
probe bres_k512 $PG --variant bres --shape $M,768,512,$P
probe bres_n384 $PG --variant bres --shape $M,384,768,$P
probe bres_n1536 $PG --variant bres --shape $M,1536,768,$P
probe bres_n1536_epi_01000 $PG --variant bres --shape $M,1536,768,$P --epi-delay 1000
probe bres_k640_ml_01000 $PG --variant bres --shape $M,768,640,$P --mainloop-delay 1000
probe bres64_k640 $PG --variant bres64 --shape $M,768,640,$P
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_k512 $PG --variant pingpong --shape $M,768,512,$P
probe pingpong_k1024 $PG --variant pingpong --shape $M,768,1024,$P
probe pingpong_k1536 $PG --variant pingpong --shape $M,768,1536,$P
probe pingpong_n512 $PG --variant pingpong --shape $M,512,768,$P
probe pingpong_n1536 $PG --variant pingpong --shape $M,1536,768,$P
probe pingpong_k1536_epi_02000 $PG --variant pingpong --shape $M,768,1536,$P --epi-delay 2000
probe_set_finish
