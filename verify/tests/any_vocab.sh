#!/bin/sh
# Every trace consumer works for a vocabulary that is not pegemm's: a CSV
# trace of a made-up kernel (roles loader/worker, phases fetch,
# fetch_wait (a wait), compute, writeback) goes through the run-file
# reader and writer (trace import), verify trace (with its timeline), the
# Chrome export and model fit; a schedule in other names is refused with
# the reason and exit 2.
# usage: any_vocab.sh PEGEMM MADE_UP.sched OUTDIR
set -eu
pegemm=$1 sched=$2 out=$3/any_vocab
rm -rf "$out"
mkdir -p "$out"
csv=$out/made_up.csv run=$out/made_up.h5

# 2 SMs x 24 tiles; worker: fetch_wait until the fetch landed (+50), compute
# 900..1000 cycles, writeback 200.
awk 'BEGIN {
    sms = 2; tiles = 24; n = 0
    for (s = 0; s < sms; s++) {
        base = 1000000 + s * 777; w = base
        for (k = 0; k < tiles; k++) {
            tile = k * sms + s
            fb = base + k * 300; fe = fb + 300
            ev[n++] = s ",loader,0," tile ",fetch," fb "," fe
            we = fe + 50; if (we < w) we = w
            ev[n++] = s ",worker,0," tile ",fetch_wait," w "," we
            ce = we + 900 + (k % 3) * 50
            ev[n++] = s ",worker,0," tile ",compute," we "," ce
            ev[n++] = s ",worker,0," tile ",writeback," ce "," ce + 200
            w = ce + 200
        }
    }
    print "# pgtrace-csv 1"; print "# kernel made_up"; print "# clock_hz 1500000000"
    print "# clock_hz_nominal 1500000000"; print "# count " n; print "# dropped 0"
    print "# roles worker loader"; print "# phases writeback compute fetch_wait fetch"
    print "# waits fetch_wait"; print "# sms " sms
    for (s = 0; s < sms; s++) print "# anchor " s " " 1000000 + s * 777 " " 5000000 + s * 100
    print "sm,role,warp,tile,phase,begin,end"
    for (i = 0; i < n; i++) print ev[i]
}' >"$csv"

"$pegemm" trace import --csv "$csv" -o "$run" --schedule "$sched"
"$pegemm" verify trace "$run" --timeline "$out/timeline.svg" --tiles 4000 >"$out/verify.txt" || {
    cat "$out/verify.txt"; exit 1; }
grep -q '0 impossible, 0 inconsistent' "$out/verify.txt"
grep -q 'made-up schedule fitted' "$out/verify.txt"
grep -q '>fetch_wait' "$out/timeline.svg"
"$pegemm" trace export --chrome "$run" -o "$out/made_up.chrome.json"
grep -q '"name":"fetch_wait","cat":"wait"' "$out/made_up.chrome.json"
grep -q '"name":"worker 0"' "$out/made_up.chrome.json"
"$pegemm" model fit "$run" >"$out/fit.txt"
grep -q 'fit of schedule made-up' "$out/fit.txt"
grep -q 'compute' "$out/fit.txt"

# another vocabulary's schedule: refused with the reason, exit 2
set +e
"$pegemm" model fit "$run" --schedule h100-pingpong 2>"$out/refused.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "model fit with a mismatched schedule exited $rc, not 2"; exit 1; }
grep -q "the trace has role 'worker', which schedule h100-pingpong lacks" "$out/refused.txt"
set +e
"$pegemm" verify trace "$run" --schedule b200-seed >/dev/null 2>"$out/refused2.txt"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "verify trace with a mismatched schedule exited $rc, not 2"; exit 1; }
grep -q "which schedule b200-seed lacks" "$out/refused2.txt"
echo "any vocabulary: import, verify trace, timeline, chrome export and fit pass; mismatches refused"
