#!/usr/bin/python3
"""How traces/tests/data/crash_vl_heap.h5 was made (kept for the record;
the tests use the committed file, not this script).

A minimal run file (schema version, /problem attributes; `family` is a
variable-length string, stored in the file's global heap) is written with
h5py 3 / HDF5 1.10.8, then the size field of the first object in the global
heap collection ("GCOL") is set to 0x7fffffffffff0000.  libhdf5 1.10.8 trusts
that size: H5Aread of /problem's `family` copies that many bytes in
H5HG_read and the process dies with SIGSEGV.

    /usr/bin/python3 make_crash_vl_heap.py crash_vl_heap.h5
"""
import struct
import sys

import h5py
import numpy as np


def main(path):
    with h5py.File(path, "w") as f:
        f.attrs["pegemm_schema_version"] = np.int64(1)
        g = f.create_group("problem")
        for k, v in (("M", 8), ("N", 8), ("K", 8), ("P", 2)):
            g.attrs[k] = np.int64(v)
        g.attrs["family"] = "normal"
        g.attrs["seed"] = np.uint64(1)
    data = bytearray(open(path, "rb").read())
    heap = data.find(b"GCOL")
    # collection header: "GCOL", version, 3 reserved, size (8) = 16 bytes;
    # then object 1: index (2), refcount (2), reserved (4), size (8), data
    struct.pack_into("<Q", data, heap + 16 + 8, 0x7FFFFFFFFFFF0000)
    open(path, "wb").write(data)


if __name__ == "__main__":
    main(sys.argv[1])
