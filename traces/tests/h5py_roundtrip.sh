#!/bin/sh
# The h5py example (traces/examples/h5py_example.py, quoted in
# docs/format.md) round-trips both ways:
#   C writes a run (pg_run_write)    -> the example reads it with h5py
#   the example writes inputs (h5py) -> C reads them with pg_run_read
# and each side prints the same summary of what it holds; they must agree.
# usage: h5py_roundtrip.sh PYTHON EXAMPLE_HELPER EXAMPLE_SCRIPT
set -eu
py=$1 helper=$2 example=$3

if [ ! -x "$py" ]; then
    echo "SKIP: $py not found (Debian's python3 carries h5py)"
    exit 77
fi
if ! "$py" -c 'import h5py, numpy' 2>/dev/null; then
    echo "SKIP: $py cannot import h5py and numpy (apt-get install python3-h5py python3-numpy)"
    exit 77
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$helper" make-output "$dir/out.h5"
"$py" "$example" read-output "$dir/out.h5" >"$dir/py_read.txt"
"$helper" summarize "$dir/out.h5" >"$dir/c_wrote.txt"
echo "--- C wrote, h5py read:"
cat "$dir/py_read.txt"
diff -u "$dir/c_wrote.txt" "$dir/py_read.txt"

"$py" "$example" write-input "$dir/in.h5" --shape 300,96,64,196 --seed 11 >"$dir/py_wrote.txt"
"$helper" summarize "$dir/in.h5" >"$dir/c_read.txt"
echo "--- h5py wrote, C read:"
cat "$dir/c_read.txt"
diff -u "$dir/py_wrote.txt" "$dir/c_read.txt"
echo "h5py round trip: both ways agree"
