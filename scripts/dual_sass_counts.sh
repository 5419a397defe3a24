#!/usr/bin/env bash
# Counts, per pg_dual_kernel instantiation in a `cuobjdump -sass` listing,
# the instructions and the ones that make the epilogue's silu slow
# (docs/experiments.md D2/D3): CALL (IEEE division slow path), FCHK (its
# range test), BSSY (divergent regions), MUFU.RCP, BRA.  Exit 1 if any
# kernel has a CALL or an FCHK (the branch-free silu has none), 2 on usage.
#
#   scripts/dual_sass_counts.sh kernel_dual.sass
set -uo pipefail
if [ $# != 1 ] || [ ! -r "$1" ]; then
    echo "usage: $0 SASS_LISTING (cuobjdump -sass of kernel_dual.cu.o)" >&2
    exit 2
fi
awk '
BEGIN { nops = split("CALL FCHK BSSY MUFU.RCP BRA", ops, " ") }
/Function :/ { f = $3 }
f ~ /pg_dual_kernel/ && /\/\*[0-9a-f]+\*\// {
    if (!(f in n)) order[++kernels] = f
    n[f]++
    for (i = 1; i <= nops; i++)
        if (index($0, " " ops[i] " ") || index($0, " " ops[i] ".")) c[f, ops[i]]++
}
END {
    if (kernels == 0) { print "no pg_dual_kernel in the listing"; exit 1 }
    for (k = 1; k <= kernels; k++) {
        f = order[k]
        printf "%s: %d instructions", f, n[f]
        for (i = 1; i <= nops; i++) printf ", %s %d", ops[i], c[f, ops[i]]
        printf "\n"
        bad += c[f, "CALL"] + c[f, "FCHK"]
    }
    exit bad != 0
}' "$1"
