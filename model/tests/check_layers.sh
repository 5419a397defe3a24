#!/bin/sh
# The layering of model/ (model/layers.txt): every external symbol an object
# of libpg_model uses that another of its objects defines must come from the
# same or a lower layer.  Read off the objects (nm), not the #include lines:
# model.h and model_ext.h declare functions of every layer.
#   check_layers.sh LAYERS.txt LIBRARY.a [--graph]
# --graph prints every cross-file use (FILE -> FILE: symbols) as well.
# Exit 0: no file calls up a layer; 1: a violation or an object in no layer
# (each named); 2: usage or unreadable input.
set -u
[ $# -ge 2 ] || { echo "usage: check_layers.sh LAYERS.txt LIBRARY.a [--graph]" >&2; exit 2; }
layers=$1 lib=$2 graph=${3:-}
[ -r "$layers" ] || { echo "check_layers.sh: cannot read $layers" >&2; exit 2; }
[ -r "$lib" ] || { echo "check_layers.sh: cannot read $lib" >&2; exit 2; }
syms=$(nm -A -g "$lib") || { echo "check_layers.sh: nm failed on $lib" >&2; exit 2; }
[ -n "$syms" ] || { echo "check_layers.sh: no symbols in $lib" >&2; exit 2; }
# nm -A: "LIB:MEMBER: ADDR T sym" or "LIB:MEMBER:  U sym"; MEMBER is a path
# in a thin archive.  A member's file: its base name without .c.o and
# meson's prefix for generated sources.
printf '%s\n' "$syms" | awk -v graph="$graph" -v layers="$layers" '
function base(m,   b) { b = m; sub(/.*\//, "", b); sub(/\.c\.o$/, "", b); sub(/^meson-generated_\.\._/, "", b); return b }
function glob2re(g) { gsub(/\./, "\\.", g); gsub(/\*/, ".*", g); return "^" g "$" }
function layer_of(f,   i) { for (i = 1; i <= npat; i++) if (f ~ pat[i]) return patlayer[i]; return 0 }
BEGIN {
    while ((getline line < layers) > 0) {
        if (line ~ /^[ \t]*(#|$)/) continue
        n = split(line, w, /[ \t]+/)
        lname[w[1]] = w[2]
        for (i = 3; i <= n; i++) { npat++; pat[npat] = glob2re(w[i]); patlayer[npat] = w[1] }
    }
}
{
    split($0, part, ":"); f = base(part[2])
    files[f] = 1
    if ($(NF - 1) == "U") { nuse++; use_f[nuse] = f; use_s[nuse] = $NF }
    else def[$NF] = f
}
END {
    bad = 0
    for (f in files) if (!layer_of(f)) { printf "%s.c: in no layer of %s\n", f, layers; bad = 1 }
    for (i = 1; i <= nuse; i++) {
        s = use_s[i]; f = use_f[i]
        if (!(s in def) || def[s] == f) continue
        d = def[s]; lf = layer_of(f); ld = layer_of(d)
        key = f ".c -> " d ".c"
        edges[key] = edges[key] " " s
        if (lf && ld && ld > lf) {
            printf "%s.c (%s) calls up to %s.c (%s): %s\n", f, lname[lf], d, lname[ld], s
            bad = 1
        }
    }
    if (graph != "") for (k in edges) print k ":" edges[k] | "sort"
    exit bad
}'
