# shellcheck shell=bash
# Sourced by the GPU job scripts that write into an OUTDIR: never replace
# anything the user had there.
#
#   outdir_args "$@"
#
# The scripts' one argument: exits 2 with "usage: $0 OUTDIR" unless there is
# exactly one, else sets OUT to its absolute path and changes to the
# repository root (the folder above scripts/).
outdir_args() {
    if [ $# != 1 ]; then
        echo "usage: $0 OUTDIR" >&2
        exit 2
    fi
    OUT=$(realpath -m "$1")
    cd "$(dirname "$0")/.." || exit 2
}

#
#   outdir_claim OUT FILE...
#
# Exits 2 (a usage error) naming the first FILE that already exists in OUT
# ("$0: OUT/FILE exists; not replacing it (choose another OUTDIR)"), then
# creates OUT (exit 2 if it cannot).  OUT should be absolute (realpath -m).
outdir_claim() {
    local out=$1 f
    shift
    for f in "$@"; do
        if [ -e "$out/$f" ]; then
            echo "$0: $out/$f exists; not replacing it (choose another OUTDIR)" >&2
            exit 2
        fi
    done
    mkdir -p "$out" || exit 2
}
