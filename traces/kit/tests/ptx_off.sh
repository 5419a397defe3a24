#!/bin/sh
# The off build of pgtrace.cuh compiles to nothing: a kernel using every
# call, compiled with -DPGTRACE_ENABLED=0, has no clock, %globaltimer,
# %smid, atomic or 16-byte span store (st.global.v2.u64) in its PTX; the same kernel traced has all of them (so
# this test can fail).  Usage: ptx_off.sh NVCC KIT_DIR SOURCE OUTDIR
set -eu
nvcc=$1 kit=$2 src=$3 out=$4
mkdir -p "$out"
"$nvcc" -arch=sm_90a -ptx -O3 -DPGTRACE_ENABLED=0 -I"$kit" "$src" -o "$out/pgtrace_off.ptx"
"$nvcc" -arch=sm_90a -ptx -O3 -DPGTRACE_ENABLED=1 -I"$kit" "$src" -o "$out/pgtrace_on.ptx"
status=0
for pat in clock64 '%globaltimer' '%smid' 'atom.' 'st.global.v2.u64' ; do
    if grep -q -- "$pat" "$out/pgtrace_off.ptx"; then
        echo "FAIL: the off build still has $pat"; status=1
    fi
    if ! grep -q -- "$pat" "$out/pgtrace_on.ptx"; then
        echo "FAIL: the traced build lacks $pat (the test would prove nothing)"; status=1
    fi
done
[ "$status" -eq 0 ] && echo "off build: no clock64/%globaltimer/%smid/atomics; traced build: all present"
exit "$status"
