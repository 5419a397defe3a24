#!/usr/bin/env bash
# tests/fuzz/campaign.sh TARGET SECONDS [JOBS]
# Builds the libFuzzer harness (build-fuzz/: clang, ASan+UBSan, coverage) if
# needed and fuzzes TARGET for SECONDS in fork mode, which goes on past
# crashes, timeouts and OOMs (libhdf5 crashes on some malformed files).
# Crashing inputs go to tests/fuzz/findings/TARGET/ (gitignored); the new
# corpus to a scratch dir (merge what is worth keeping into corpus/TARGET by
# hand); one summary line is appended to tests/fuzz/campaigns/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: campaign.sh TARGET SECONDS [JOBS]}
seconds=${2:?usage: campaign.sh TARGET SECONDS [JOBS]}
jobs=${3:-1}
fz=tests/fuzz
[ -f "$fz/fuzz_$target.c" ] || { echo "campaign: no harness $fz/fuzz_$target.c" >&2; exit 2; }
command -v clang >/dev/null || bash scripts/setup.sh --fuzz
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang meson setup build-fuzz -Dcuda=disabled -Dfuzz=enabled -Dtests=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C build-fuzz -j "${NINJA_JOBS:-2}" "tests/fuzz/fuzz_$target"
work=$(mktemp -d "${TMPDIR:-/tmp}/pgfuzz-campaign-$target.XXXXXX")
mkdir -p "$work/corpus" "$fz/findings/$target" "$fz/campaigns"
cp -r "$fz/corpus/$target/." "$work/corpus/"
log="$work/fuzz.log"
# Leak checking is off here: libhdf5 keeps global state that LSan reports
# after the forked child's exit; the sanitized test suite checks leaks.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
start=$(date +%s)
set +e
"build-fuzz/tests/fuzz/fuzz_$target" "$work/corpus" \
  -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -close_fd_mask=3 -print_final_stats=1 \
  -artifact_prefix="$fz/findings/$target/" >"$log" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
# The fork-mode status lines: "#N: cov: C ft: F corp: X exec/s: E oom/timeout/crash: a/b/c time: T"
last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
execs=$(sed -nE 's/.*total_execs: ([0-9]+).*/\1/p' <<<"$(grep 'total_execs' "$log" | tail -1 || true)")
[ -n "$execs" ] || execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
crashes=$(find "$fz/findings/$target" -type f -name 'crash-*' | wc -l)
timeouts=$(find "$fz/findings/$target" -type f -name 'timeout-*' | wc -l)
ooms=$(find "$fz/findings/$target" -type f -name 'oom-*' | wc -l)
corpus=$(find "$work/corpus" -type f | wc -l)
line="$(date -u +%Y-%m-%dT%H:%MZ) target=$target seconds=$elapsed rc=$rc execs=${execs:-?} corpus=$corpus crash_files=$crashes timeout_files=$timeouts oom_files=$ooms last: ${last:-none}"
echo "$line" | tee -a "$fz/campaigns/$target.log"
echo "campaign: full libFuzzer log $log, corpus $work/corpus"
