#!/usr/bin/env bash
# Issue 14's design contest, predicted by the model before any dual-GEMM
# kernel exists (docs/experiments.md M24 derives every override below).
# Prints one line per (machine, design, shape): tile period, the model's
# wall clock, the DRAM floor (unique bytes at the machine's copy rate) and
# the prediction (the larger), the bottleneck and the waits.
# usage: scripts/dual_predict.sh [PEGEMM] [OUTDIR for the JSON reports]
set -euo pipefail
PEGEMM=${1:-build/cli/pegemm}
OUT=${2:-}
[ -x "$PEGEMM" ] || { echo "dual_predict.sh: $PEGEMM is not an executable (build first)" >&2; exit 2; }
[ -z "$OUT" ] || mkdir -p "$OUT"

# shapes: pitch G=8, M=256, N=4096, K=7168; large G=1, M=8192, N=2048, K=7168
declare -A FLOPS=([pitch]=2.4052e11 [large]=4.8104e11)
# unique DRAM bytes: A + B1 + B2 + C (bf16) + scales
declare -A BYTES=([pitch]=5.018e8 [large]=1.219e8)
# tiles per shape for 128x128 (H100 cooperative), 64x128 (H100 ping-pong),
# 256x256 (B200 CTA pair), 256x128 (B200 two accumulator sets)
declare -A T128=([pitch]=512 [large]=1024) T64=([pitch]=1024 [large]=2048)
declare -A T256=([pitch]=128 [large]=256) T256H=([pitch]=256 [large]=512)

row() { # machine design shape bw_bytes_per_s schedule args...
    local mach=$1 des=$2 shp=$3 bw=$4; shift 4
    local json; json=$(mktemp); trap 'rm -f "$json"' RETURN
    "$PEGEMM" model predict -q "$@" --set flops="${FLOPS[$shp]}" --json "$json" >/dev/null
    [ -z "$OUT" ] || cp "$json" "$OUT/$mach-$des-$shp.json"
    python3 - "$json" "$mach" "$des" "$shp" "$bw" "${BYTES[$shp]}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); mach, des, shp = sys.argv[2:5]
bw, nbytes = float(sys.argv[5]), float(sys.argv[6])
floor_us = nbytes / bw * 1e6; wall_us = r["wall_ms"] * 1e3
waits = " ".join(f"{k}={v['mean']:.0f}" for k, v in r["waits"].items())
print(f"{mach:5} {des:6} {shp:6} period {r['tile_period']:9.0f}  model {wall_us:7.1f} us  dram {floor_us:6.1f} us"
      f"  -> {max(wall_us, floor_us):7.1f} us ({'dram' if floor_us > wall_us else r['bottleneck']})  {waits}")
PY
}

for shp in pitch large; do
    H=3.007e12   # the H100's copy floor (traces/probes/h100/probes.log)
    row h100 inter "$shp" $H --schedule h100-dual-inter --set tiles="${T128[$shp]}"
    row h100 seq   "$shp" $H --schedule h100-dual-seq   --set tiles="${T128[$shp]}"
    row h100 pp    "$shp" $H --schedule h100-dual-pp    --set tiles="${T64[$shp]}"
    B=7.2e12     # B200: 90% of its 8 TB/s (no B200 here to measure)
    S="--schedule b200-seed"
    row b200 inter "$shp" $B $S --set tiles="${T256[$shp]}" --set kloop.mean=60704 --set accumulators=1 \
        --set phase1.mean=12500 --set first_load.bytes=49152
    row b200 seq   "$shp" $B $S --set tiles="${T256[$shp]}" --set kloop.mean=75768 --set accumulators=1 \
        --set phase1.mean=12500
    row b200 pp    "$shp" $B $S --set tiles="${T256H[$shp]}" --set kloop.mean=37884 --set accumulators=2 \
        --set phase1.mean=6250 --set phase2.mean=137
done
