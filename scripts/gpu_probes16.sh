#!/usr/bin/env bash
# Probe set 16 of issue 12 (docs/experiments.md M58): small problems whose
# A and D fit in the 50 MB L2 across launches, against larger ones, traced
# on an H100 and an H200 so the first load's latency and the start-up swing
# can be read against the working set: bres at M = 2,112 x T and pingpong
# at M = 2,816 x T for T = 4, 6, 8, 12, 24 tiles per SM, each variant's
# zero-delay calibration and the bench's floors.  Every traced run keeps
# rows 0:64 and times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes16.sh OUTDIR      -> OUTDIR/probes16.tgz (+ the run files, the log)
SET=16
source "$(dirname "$0")/probe_set_lib.sh"
small_m_probes 4 6 8 12 24
probe_set_finish
