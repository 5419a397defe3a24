#!/usr/bin/env bash
# The trace build's overhead only, quickly (< 2 minutes on an H100): for the
# default kernel (bres) and pingpong, ROUNDS rounds of `pegemm run --trace`
# at full size, each timing REPS traced and REPS production launches
# interleaved (the runner's "trace build overhead" line, as
# scripts/gpu_all.sh reports it), then the median over the rounds; first a
# bit-exact check of each trace build at M = 12345 (all outputs).
#
#   scripts/gpu_trace_overhead.sh [ROUNDS [REPS]]      (default 5 x 30)
set -uo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
REPS=${2:-30}
source scripts/gpu_build.sh
fails=0
for v in default pingpong; do
    if timeout 300 $PGBIN run --variant $v --trace --shape 12345,768,768,196 --family special --rows all --check \
        --reps 1 >/dev/null; then echo "bit-exact trace build M=12345 ($v): ok"
    else echo "bit-exact trace build M=12345 ($v): FAILED"; fails=$((fails + 1)); fi
done
for v in default pingpong; do
    pcts=()
    for r in $(seq "$ROUNDS"); do
        line=$(timeout 300 $PGBIN run --variant $v --trace --rows sample:16 --reps "$REPS" 2>&1 | grep "trace build overhead")
        pct=$(echo "$line" | sed -E 's/.*= ([-+0-9.]+)%.*/\1/')
        echo "  $v round $r: $line"
        [ -n "$pct" ] && pcts+=("$pct") || fails=$((fails + 1))
    done
    printf '%s\n' "${pcts[@]}" | sort -g | awk -v v=$v '{a[NR] = $1} END {
        if (NR) printf "trace build overhead %s: median %+.2f%% over %d rounds (min %+.2f%%, max %+.2f%%)\n", v,
            (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2, NR, a[1], a[NR] }'
done
echo "failures: $fails"
[ "$fails" -eq 0 ]
