#!/bin/sh
# Record what the model's commands print, so a refactor can be checked to
# change nothing: fit (--json) on every committed trace, predict and sweep
# on every built-in schedule and on fitted epi-delay schedules,
# validate-delays on the epi-delay sweeps, and the demo's summary.
#   behaviour_lock.sh PEGEMM SOURCE_ROOT OUTDIR
# Compare two records with `diff -r OLD NEW`.  Exit 2 on bad usage.
set -u
[ $# -eq 3 ] || { echo "usage: behaviour_lock.sh PEGEMM SOURCE_ROOT OUTDIR" >&2; exit 2; }
pegemm=$1 src=$2 out=$3
[ -x "$pegemm" ] || { echo "behaviour_lock.sh: $pegemm is not executable" >&2; exit 2; }
[ ! -e "$out" ] || { echo "behaviour_lock.sh: $out exists (not replacing it)" >&2; exit 2; }
mkdir -p "$out/fit" "$out/predict" "$out/sweep" "$out/delays" || exit 2

# every command's stdout and exit status (stderr: progress, not compared)
run() { name=$1; shift; "$pegemm" "$@" > "$out/$name" 2>/dev/null; echo "rc=$?" >> "$out/$name"; }

for f in $(cd "$src" && find traces/runs traces/held_out traces/probes -name '*.h5' | sort); do
    run "fit/$(echo "$f" | tr / _).json" model fit "$src/$f" --json - -q
done
for s in b200-seed h100-pingpong h100-bres; do
    run "predict/$s.json" model predict --schedule "$s" --json - -q
    run "predict/$s.det.json" model predict --schedule "$s" --deterministic --json - -q
done
run sweep/b200-seed.json model sweep --schedule b200-seed --vary phase1.mean --from 3000 --to 7000 --points 12 --tiles 4000 --json - -q
run sweep/h100-pingpong.json model sweep --schedule h100-pingpong --vary epi_delay --from 0 --to 8000 --points 12 --tiles 4000 --json - -q
run sweep/h100-bres.json model sweep --schedule h100-bres --vary epi_delay --from 0 --to 8000 --points 12 --tiles 4000 --json - -q
# sweeps of schedules fitted to the zero-delay runs
tmp=$(mktemp -d) || exit 2
for base in runs/epi_sweep/h100_epi_00000 held_out/bres_epi_00000; do
    tag=$(basename "$base")
    "$pegemm" model fit "$src/traces/$base.h5" --output "$tmp/$tag.sched" -q > /dev/null 2>&1
    cp "$tmp/$tag.sched" "$out/sweep/$tag.fitted.sched" 2>/dev/null
    run "sweep/$tag.json" model sweep --schedule "$tmp/$tag.sched" --vary epi_delay --from 0 --to 8000 --points 9 --tiles 4000 --json - -q
done
rm -rf "$tmp"
run delays/epi_sweep.json model validate-delays "$src"/traces/runs/epi_sweep/*.h5 --json - -q
run delays/epi_sweep.txt model validate-delays "$src"/traces/runs/epi_sweep/*.h5 -q
run delays/bres.json model validate-delays "$src"/traces/held_out/bres_epi_*.h5 --json - -q
run delays/bres.txt model validate-delays "$src"/traces/held_out/bres_epi_*.h5 -q
"$pegemm" demo --no-gpu --quick --threads 2 --report "$out/demo" -q > /dev/null 2>&1
echo "rc=$?" > "$out/demo.rc"
# keep the summary only (the report's pictures carry no new numbers)
# (without the report's path and the run times, which differ from run to run)
sed -e "s|$out/demo|REPORT|g" -e 's/ ([0-9.]* s)$//' -e '/reference time per mode/d' "$out/demo/summary.txt" > "$out/demo.summary.txt"
rm -rf "$out/demo"
exit 0
