#!/bin/sh
# Until schedules declare their own phase names (issue 11, item 1), check
# ws_ring.sched's structure by renaming its phases to closed-vocabulary ones
# (issue -> producer_issue, softmax -> mainloop, store -> epilogue_store) and
# predicting with it: a syntax, dependency or deadlock error fails here.
# Usage: sched_alias_check.sh PEGEMM ws_ring.sched OUTDIR
set -eu
pegemm=$1 sched=$2 out=$3
mkdir -p "$out"
sed -e 's/\bissue\b/producer_issue/g' -e 's/\bsoftmax\b/mainloop/g' -e 's/\bstore\b/epilogue_store/g' \
    "$sched" >"$out/ws_ring_alias.sched"
"$pegemm" model predict --schedule "$out/ws_ring_alias.sched" --tiles 20000 >"$out/ws_ring_alias.txt"
grep -q 'bottleneck' "$out/ws_ring_alias.txt"
# and a what-if through the probe option
"$pegemm" model predict --schedule "$out/ws_ring_alias.sched" --tiles 20000 --set softmax_delay=8000 >/dev/null
echo "ws_ring.sched (aliased) predicts: $(grep 'tile period' "$out/ws_ring_alias.txt")"
