#!/usr/bin/env bash
# Take probe sets FIRST..LAST again, one after another, on the machine this
# runs on (scripts/gpu_probesNN.sh each, the same runs and seeds as when
# they were first taken), for a scoreboard (scripts/probe_scoreboard.py)
# on a machine that no longer holds them: the traces are too large for the
# repository.  Each set goes to OUTDIR/sNN/; the runs of all of them come
# back packed as OUTDIR/again_FIRST_LAST.tgz.partXX, 15 MiB pieces (the
# device's per-file limit), without the bench's output files (the
# scoreboard reads the floors from each set's probes.log).
#
#   scripts/gpu_probes_again.sh FIRST LAST OUTDIR
#   unpack: cat again_*.tgz.part* | tar -xz -C DIR   -> DIR/sNN/{runs,probes.log}
#
# Exit 0 when every set ran without a failed run, 1 otherwise, 2 on bad input.
set -uo pipefail
usage() { echo "usage: $0 FIRST LAST OUTDIR (probe set numbers, FIRST <= LAST)" >&2; exit 2; }
[ $# = 3 ] || usage
first=$1 last=$2
[[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]+$ ]] && [ "$first" -le "$last" ] || usage
here=$(cd "$(dirname "$0")" && pwd)
OUT=$(realpath -m "$3")
for n in $(seq "$first" "$last"); do
    [ -f "$here/gpu_probes$n.sh" ] || { echo "$0: no scripts/gpu_probes$n.sh" >&2; exit 2; }
    [ -e "$OUT/s$n" ] && { echo "$0: $OUT/s$n exists; not replacing it" >&2; exit 2; }
done
pack="$OUT/again_${first}_${last}.tgz"
ls "$pack".part* >/dev/null 2>&1 && { echo "$0: $pack.part* exist; not replacing them" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
failed=0
for n in $(seq "$first" "$last"); do
    echo "== probe set $n"
    bash "$here/gpu_probes$n.sh" "$OUT/s$n" >"$OUT/s$n.log" 2>&1 || failed=$((failed + 1))
    tail -1 "$OUT/s$n/probes.log" 2>/dev/null
    rm -f "$OUT/s$n/probes$n.tgz"
done
(cd "$OUT" && tar -czf - --exclude='bench*.h5' $(for n in $(seq "$first" "$last"); do echo "s$n"; done)) |
    split -b 15m -d - "$pack.part" || exit 1
ls -la "$pack".part*
echo "sets with a failed run: $failed"
[ $failed -eq 0 ]
