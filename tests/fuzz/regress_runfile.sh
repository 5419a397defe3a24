#!/bin/sh
# The libhdf5 findings of the runfile fuzz campaign (tests/fuzz/regress/runfile:
# segfaults, heap overflows, endless loops and runaway allocations inside
# libhdf5 1.10) through the public reader: each must end in exit status 2 with
# a message naming the file -- no crash, no hang, no tens of GB.
#   regress_runfile.sh PEGEMM DIR
# The isolated pre-read's alarm is lowered to 5 s so the endless-loop input
# costs 5 s, not 60.  The isolated reader caps its child's memory at 1 GiB
# more than it has: before that cap, out-of-memory--H5-internal-2.h5 made
# libhdf5 allocate 21 GB (in the child, then again in the parent) for 78 s.
set -u
pegemm=$1 dir=$2
fails=0 n=0
for f in "$dir"/*.h5; do
    n=$((n + 1))
    err=$(PEGEMM_READ_TIMEOUT=5 "$pegemm" verify outputs "$f" -q 2>&1 >/dev/null)
    rc=$?
    case "$err" in
        *"$f"*) named=1 ;;
        *) named=0 ;;
    esac
    if [ $rc -ne 2 ] || [ $named -ne 1 ]; then
        echo "FAIL $(basename "$f"): exit $rc (want 2), message: $err"
        fails=$((fails + 1))
    else
        echo "ok   $(basename "$f"): $err"
    fi
done
echo "$((n - fails)) of $n malformed files refused cleanly"
[ $n -gt 0 ] && [ $fails -eq 0 ]
