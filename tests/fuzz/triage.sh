#!/usr/bin/env bash
# tests/fuzz/triage.sh TARGET [FILE...]
# Re-runs each finding (default: tests/fuzz/findings/TARGET/*) through the
# libFuzzer binary once and prints one line per input: the file, the kind of
# report, and where: "libhdf5" when the first frame below the sanitizer is
# inside libhdf5, otherwise that frame (our code).  Hangs are cut at 20 s.
set -uo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: triage.sh TARGET [FILE...]}
shift
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/fuzz/findings/"$target"/*)
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
for f in "${files[@]}"; do
  out=$(timeout 20 "build-fuzz/tests/fuzz/fuzz_$target" -rss_limit_mb=2048 -timeout=15 "$f" 2>&1)
  rc=$?
  kind=$(grep -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [A-Za-z-]+( on [a-z]+)?|runtime error: [^:]*|out-of-memory|timeout after' <<<"$out" | head -1)
  [ $rc -eq 124 ] && kind="hang (over 20 s)"
  [ -n "$kind" ] || kind="exit $rc"
  # the first stack frame that is not the sanitizer or libFuzzer itself
  frame=$(grep -E '^ +#[0-9]+ ' <<<"$out" | grep -vE '__sanitizer|fuzzer::|__asan|__ubsan|libc\.so|abort|raise|__interceptor|in (malloc|calloc|realloc|free|memcpy|memmove|strlen) |__mem[a-z_0-9]+ |in H5[A-Z]*_(term|close)[a-z_]* ' | head -1)
  where=$(sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in //; s/ \(BuildId.*//' <<<"$frame")
  if grep -q 'libhdf5' <<<"$frame"; then
    # name the HDF5 call our code made (the last libhdf5 frame with a name before ours)
    api=$(grep -E '^ +#[0-9]+ ' <<<"$out" | grep -B1 -m1 -E ' in (pg_|attr_|h5|runfile|read_|LLVMFuzzer)' | head -1 | sed -nE 's/.* in ([A-Za-z0-9_]+) .*/\1/p')
    caller=$(grep -E '^ +#[0-9]+ ' <<<"$out" | grep -m1 -E ' in (pg_|attr_|h5|runfile|read_)' | sed -nE 's/.* in ([A-Za-z0-9_]+) .*/\1/p')
    where="libhdf5 (${api:-?} from ${caller:-?}): $where"
  fi
  [ $rc -eq 0 ] && { kind="no longer reproduces"; where=""; }
  printf '%s\t%s\t%s\n' "$(basename "$f")" "$kind" "${where:-?}"
done
