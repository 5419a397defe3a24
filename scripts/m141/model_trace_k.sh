#!/usr/bin/env bash
# M141: the model's trace of a pingpong run at another K, fitted on the same
# set's zero-delay run, with the what-if `pegemm model validate` derives for
# it (its "what-if (K)" line), for issue_point.py.
#   scripts/m141/model_trace_k.sh RUNS_DIR RUN.h5 OUT.h5
set -uo pipefail
[ $# = 3 ] || { echo "usage: scripts/m141/model_trace_k.sh RUNS_DIR RUN.h5 OUT.h5" >&2; exit 2; }
PG=${PEGEMM:-$(dirname "$0")/../../build/cli/pegemm}
cal=$1/pingpong_ml_00000.h5
line=$("$PG" model validate "$cal" "$1/$2" 2>&1 | grep "what-if (K")
[ -n "$line" ] || { echo "model_trace_k.sh: validate gave no K what-if for $2" >&2; exit 1; }
args=()
for x in ${line#*: }; do args+=(--set "$x"); done
exec "$PG" model fit "$cal" -q "${args[@]}" --trace-out "$3"
