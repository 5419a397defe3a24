#!/usr/bin/env bash
# M159's post-hoc scores: the built-in h100-pingpong and the two M159
# variants (a: dramq on where the build does not prefetch A; b: storewin
# too) on the H200 probe sets given as SETDIR (sets 66-70: their run files
# are in /work/sets, not committed), the
# committed H100 pingpong runs (scripts/m90/h100_pingpong.sh) and the
# session-1 H100 sweep (traces/held_out/old_build_epi_*).
#   scripts/m159/posthoc.sh [SETDIR...]
#   SCHEDS="S1 S2 ..."   the schedules to score instead (M160's trials)
set -euo pipefail
cd "$(dirname "$0")/../.."
R=traces/probes/reckoning/m159
PG=${PEGEMM:-build/cli/pegemm}
for s in ${SCHEDS:-h100-pingpong $R/h100-pingpong-m159a.sched $R/h100-pingpong-m159b.sched}; do
    echo "## schedule $s"
    for d in "$@"; do
        # the scoreboard exits 1 only when a validate call failed (not a miss)
        board=$(PP="--schedule $s" python3 scripts/probe_scoreboard.py "$d")
        echo "$board" | awk -v d="$d" '$1 == "h200" && $2 == "pingpong" && !done {
            print d ": pingpong runs " $3 ", periods " $4 ", waits " $5 ", both " $6; done = 1 }
            END { if (!done) print d ": no H200 pingpong table" }'
    done
    bash scripts/m90/h100_pingpong.sh "$s" | awk '{ n++; p = $2; sub("%", "", p); p = p + 0; if (p < 0) p = -p
        if (p <= 3) ok++; if (NF == 2) w++; if (NF == 2 && p <= 3) both++ }
        END { print "H100 committed pingpong runs " n ", periods " ok ", waits " w ", both " both }'
    rc=0 # validate exits 1 on a miss, 2 on bad input
    out=$("$PG" model validate traces/held_out/old_build_epi_00000.h5 \
        $(ls traces/held_out/old_build_epi_*.h5 | grep -v _00000) --schedule "$s" 2>&1) || rc=$?
    [ $rc -le 1 ] || { echo "$out" >&2; exit $rc; }
    printf 'H100 old_build periods:'
    echo "$out" | awk '/out-of-sample\]/ { n = split($1, a, "_"); name = substr(a[n], 1, 5) }
        name && /tile_period/ { printf " %s %s", name, $6; name = "" }
        /^out-of-sample:/ { print ""; print "  " $0 }'
done
