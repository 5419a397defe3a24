#!/bin/sh
# docs/format.md quotes traces/examples/h5py_example.py between its BEGIN
# and END markers; the quote must be the file, so the documented example is
# the one the h5py round-trip test runs.
# usage: doc_quotes_example.sh FORMAT_MD EXAMPLE_PY
set -eu
doc=$1 example=$2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# the lines strictly inside the ```python fence that follows the BEGIN marker
awk '/^<!-- BEGIN traces\/examples\/h5py_example.py/ { state = 1; next }
     state == 1 && /^```python$/ { state = 2; next }
     state == 2 && /^```$/ { exit }
     state == 2 { print }' "$doc" >"$tmp"
if [ ! -s "$tmp" ]; then
    echo "$doc: no quoted example between the BEGIN marker and a \`\`\`python fence"
    exit 1
fi
if ! diff -u "$example" "$tmp"; then
    echo "$doc: the quoted example differs from $example (re-quote it)"
    exit 1
fi
echo "$doc quotes $example exactly"
