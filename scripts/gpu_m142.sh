#!/usr/bin/env bash
# docs/experiments.md M142: the committed kernel (the --a-prefetch loop ran
# once at D = 0, prefetching each tile's own A) against the fix, on one GPU.
# The old kernel is this tree with the fix taken out again (sed below), so
# both builds come from the same sources otherwise.  Per build: pingpong and
# bres traced at M = 200,704 (sample rows checked bit for bit against the
# CPU reference), the two builds' kept outputs compared with each other,
# then `pegemm bench --energy` alternately old, new, old, new (separate
# processes: the old behaviour is not reachable in the fixed binary).
# Since the first call bres keeps its D = 0 prefetch (M142), so the sed
# below changes pingpong only and bres old = new is a control.
#   scripts/gpu_m142.sh OUTDIR   -> OUTDIR/{pingpong,bres}_{old,new}.h5, bench_{old,new}_{1,2}.h5, m142.log
#   M142_K=1 scripts/gpu_m142.sh OUTDIR   M143: the fixed pingpong traced at K = 768 / 512 / 640 /
#                                 1,024 / 1,152 / 1,536 and K = 640 at --epi-delay 600 / 1,300
#                                 (OUTDIR/pp_k*.h5), then its bench with energy, old and new
#                                 alternately (in m142.log)
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_m142.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
LOG="$OUT/m142.log"
OLD=/tmp/m142-old
fails=0
step() { # step NAME CMD...
    echo "== $1" >>"$LOG"
    shift
    if "$@" >>"$LOG" 2>&1; then echo "ok     $*" | cut -c1-160; else echo "FAILED $*" | cut -c1-160; fails=$((fails + 1)); fi
}
build() { # build SRC
    (cd "$1" && { [ -f build-m142/build.ninja ] || meson setup build-m142 -Dcuda=enabled -Dtests=disabled; } &&
        ninja -C build-m142 cli/pegemm) >"$OUT/build_$(basename "$1").log" 2>&1
}
# the old tree: this one's sources copied again every time (its build
# directory kept on a warm machine), the fix taken out and checked gone
mkdir -p "$OLD" || exit 1
tar --exclude='./build*' -cf - . | tar -xf - -C "$OLD" || exit 1
grep -q 'd >= 1 && d <= p.a_prefetch' "$OLD/kernel/pingpong.cuh" || { echo "no fix to take out" >&2; exit 1; }
sed -i 's/d >= 1 \&\& d <= p.a_prefetch/d <= p.a_prefetch/' "$OLD/kernel/pingpong.cuh"
! grep -q 'd >= 1 &&' "$OLD/kernel/pingpong.cuh" || { echo "the old tree still has the fix" >&2; exit 1; }
build "$PWD" & b1=$!
build "$OLD" & b2=$!
wait $b1 || { tail -30 "$OUT/build_$(basename "$PWD").log"; exit 1; }
wait $b2 || { tail -30 "$OUT/build_m142-old.log"; exit 1; }
NEW_BIN=./build-m142/cli/pegemm
OLD_BIN=$OLD/build-m142/cli/pegemm
if [ "${M142_K:-0}" != 0 ]; then
    # M143: the fixed pingpong traced across K (and at K = 640 under a
    # delay) for the model to predict from its zero-delay run; then
    # pingpong's own bench with energy, old and new alternately.
    for k in 768 512 640 1024 1152 1536; do
        step "pingpong new K=$k" $NEW_BIN run --variant pingpong --trace --shape 200704,768,$k,196 --rows sample:64 \
            --check --reps 20 -o "$OUT/pp_k${k}.h5"
    done
    for d in 600 1300; do
        step "pingpong new K=640 epi $d" $NEW_BIN run --variant pingpong --trace --shape 200704,768,640,196 \
            --epi-delay $d --rows sample:64 --check --reps 20 -o "$OUT/pp_k640_epi$d.h5"
    done
    for r in 1 2; do
        step "bench pingpong old $r" $OLD_BIN bench --variant pingpong --energy --rows sample:64 --reps 50
        step "bench pingpong new $r" $NEW_BIN bench --variant pingpong --energy --rows sample:64 --reps 50
    done
    grep -E "^== |fused kernel: median|fused kernel \(|check:" "$LOG"
    exit $((fails > 0))
fi
for v in pingpong bres; do
    for b in old new; do
        bin=$NEW_BIN
        [ $b = old ] && bin=$OLD_BIN
        step "$v $b trace" "$bin" run --variant $v --trace --shape 200704,768,768,196 --rows sample:4096 --check --reps 30 \
            -o "$OUT/${v}_$b.h5"
    done
    step "$v outputs old = new" python3 - "$OUT/${v}_old.h5" "$OUT/${v}_new.h5" <<'PY'
import sys, h5py, numpy as np
a, b = (h5py.File(p, 'r') for p in sys.argv[1:])
assert (a['output/rows'][:] == b['output/rows'][:]).all(), 'different rows kept'
da, db = a['output/D'][:], b['output/D'][:]
diff = int((da != db).sum())
print('compared %d elements, %d differ' % (da.size, diff))
sys.exit(1 if diff else 0)
PY
done
for r in 1 2; do
    step "bench old $r" $OLD_BIN bench --energy --rows sample:64 --reps 50 -o "$OUT/bench_old_$r.h5"
    step "bench new $r" $NEW_BIN bench --energy --rows sample:64 --reps 50 -o "$OUT/bench_new_$r.h5"
done
grep -E "^== |fused kernel: median|variant pingpong|energy|mJ|compared" "$LOG"
exit $((fails > 0))
