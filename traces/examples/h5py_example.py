#!/usr/bin/python3
"""Make pegemm inputs and read pegemm outputs with h5py (run-file schema v2; v1 files read too).

    python3 h5py_example.py write-input IN.h5 [--shape M,N,K,P] [--seed S]
        Random inputs (A, B: E4M3 codes; combined: BF16 bits) in a run file
        that `pegemm ref --input IN.h5 ...` accepts.
    python3 h5py_example.py read-output RUN.h5
        D, the row indices, the kernel, the timing samples and the trace of a
        run file, as numpy arrays.

Both print a short summary of what they wrote or read.  docs/format.md
describes every path; this file is quoted there and run by the tests.
Needs h5py and numpy (Debian: apt-get install python3-h5py python3-numpy).
"""
import argparse
import sys

import h5py
import numpy as np

SCHEMA_VERSION = 2
E4M3_NAN_CODES = (0x7F, 0xFF)


def bf16_bits(x):
    """float32 array -> BF16 bit patterns (uint16), round to nearest even."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def write_input(path, M, N, K, P, seed):
    rng = np.random.default_rng(seed)
    # Random finite E4M3 codes (every code but the two NaNs).
    A = rng.integers(0, 256, size=(M, K), dtype=np.uint8)
    B = rng.integers(0, 256, size=(N, K), dtype=np.uint8)
    for nan in E4M3_NAN_CODES:
        A[A == nan] = 0
        B[B == nan] = 0
    combined = bf16_bits(rng.normal(0.0, 0.5, size=(P, N)))

    with h5py.File(path, "w") as f:
        f.attrs["pegemm_schema_version"] = np.int64(SCHEMA_VERSION)
        f.attrs["created_by"] = "h5py_example.py"
        problem = f.create_group("problem")
        for name, value in (("M", M), ("N", N), ("K", K), ("P", P)):
            problem.attrs[name] = np.int64(value)
        problem.attrs["family"] = "file"  # user-made inputs: stored, not generated
        problem.attrs["seed"] = np.uint64(seed)
        # Schema v2: the numerics of the problem (these are the defaults; a
        # v1 file has none of them).  E5M2 operands, scales (scale_a and
        # scale_b datasets), a bias [N] and fp16/fp32 outputs: docs/format.md.
        problem.attrs["fmt_a"] = "e4m3"
        problem.attrs["fmt_b"] = "e4m3"
        problem.attrs["scale"] = "none"
        problem.attrs["bias_dtype"] = "none"
        problem.attrs["out_dtype"] = "bf16"
        problem.create_dataset("A", data=A, compression="gzip", shuffle=True)
        problem.create_dataset("B", data=B, compression="gzip", shuffle=True)
        problem.create_dataset("combined", data=combined)
    print_summary(dict(M=M, N=N, K=K, P=P, family="file", seed=seed), A=A, B=B, combined=combined)


def as_str(s):
    return s.decode() if isinstance(s, bytes) else str(s)


def read_output(path):
    with h5py.File(path, "r") as f:
        version = int(f.attrs["pegemm_schema_version"])
        if version > SCHEMA_VERSION:
            sys.exit(f"{path}: schema version {version} is newer than this script reads")
        problem, inputs = None, {}
        if "problem" in f:  # v2: a trace of a kernel that is not a GEMM has no /problem
            attrs = f["problem"].attrs
            problem = {k: int(attrs[k]) for k in ("M", "N", "K", "P", "seed")}
            problem["family"] = as_str(attrs["family"])
            # v2: P = 0 is a plain GEMM (no combined); absent attributes are v1's classic problem
            problem["out_dtype"] = as_str(attrs.get("out_dtype", "bf16"))
        if problem is not None and "A" in f["problem"] and problem["P"] > 0:
            inputs = {k: f["problem"][k][...] for k in ("A", "B", "combined")}

        out = None
        if "output" in f:
            g = f["output"]
            D = g["D"][...]  # uint16 BF16 (or fp16) bits, [rows, N]; float32 values for out_dtype fp32
            # /output/rows is present only when a subset of the M rows is stored.
            rows = g["rows"][...] if "rows" in g else np.arange(problem["M"], dtype=np.int64)
            out = dict(D=D, rows=rows, mode=as_str(g.attrs["mode"]), epilogue=as_str(g.attrs["epilogue"]))
            # BF16 bits -> float32 values, if you want numbers rather than bits:
            if problem["out_dtype"] == "bf16":
                values = (D.astype(np.uint32) << 16).view(np.float32)
                assert values.shape == D.shape
            if problem["out_dtype"] == "fp32":
                D = D.view(np.uint32)  # the bits, for the summary

        kernel = None
        if "kernel" in f:
            kernel = {k: v.decode() if isinstance(v, bytes) else v for k, v in f["kernel"].attrs.items()}

        # One dataset per timing set, samples in ms; pegemm keeps them in the
        # order they were measured (h5py iterates in creation order).
        timing = {}
        if "timing" in f:
            for name, d in f["timing"].items():
                timing[name] = dict(ms=d[...], flops=float(d.attrs["flops"]), bytes=float(d.attrs["bytes"]))

        trace = None
        if "trace" in f:
            t = f["trace"]
            trace = {c: t[c][...] for c in ("sm", "role", "warp", "tile", "phase", "begin", "end")}
            trace["anchor_clock"] = t["anchor_clock"][...]
            # The file names its own phase and role codes (the kernel's own
            # vocabulary): role r is role_names[r], phase p is phase_names[p].
            trace["phase_names"] = [as_str(s) for s in t.attrs["phase_names"]]
            trace["role_names"] = [as_str(s) for s in t.attrs["role_names"]]
            if version >= 2:  # which phases are waits; the schedule that describes the kernel, if named
                trace["phase_is_wait"] = t["phase_is_wait"][...].astype(bool)
                trace["schedule"] = as_str(t.attrs["schedule"]) if "schedule" in t.attrs else None
            else:  # v1 files list pegemm's own names; their waits are these
                v1_waits = {"order_wait", "load_wait", "producer_wait", "epi_wait", "tma0_wait", "ml_wait"}
                trace["phase_is_wait"] = np.array([n in v1_waits for n in trace["phase_names"]])
    print_summary(problem, output=out, kernel=kernel, timing=timing, trace=trace, **inputs)


def print_summary(problem, A=None, B=None, combined=None, output=None, kernel=None, timing=None, trace=None):
    p = problem
    if p is not None:
        print(f"problem M={p['M']} N={p['N']} K={p['K']} P={p['P']} family={p['family']} seed={p['seed']}")
    if A is not None:
        s = [int(x.sum(dtype=np.uint64)) for x in (A, B, combined)]
        print(f"inputs A={s[0]} B={s[1]} combined={s[2]}")
    if output is not None:
        rows, D = output["rows"], output["D"]
        print(f"output mode={output['mode']} epilogue={output['epilogue']} rows={len(rows)} "
              f"first={rows[0]} last={rows[-1]} D={int(D.sum(dtype=np.uint64))}")
    if kernel is not None:
        print(f"kernel {kernel['name']} on {kernel['device']}: {kernel['sm_count']} SMs at "
              f"{kernel['sm_clock_hz']:.17g} Hz, tile {kernel['tile_m']}x{kernel['tile_n']}x{kernel['tile_k']}")
    for name, t in (timing or {}).items():
        ms = t["ms"]
        print(f"timing {name} n={len(ms)} first={ms[0]:.17g} last={ms[-1]:.17g} "
              f"flops={t['flops']:.17g} bytes={t['bytes']:.17g}")
    if trace is not None:
        cycles = int((trace["end"] - trace["begin"]).sum())
        print(f"trace intervals={len(trace['sm'])} sms={len(trace['anchor_clock'])} cycles={cycles}")
        counts = np.bincount(trace["phase"], minlength=len(trace["phase_names"]))
        print("phases" + "".join(f" {name}={n}" for name, n in zip(trace["phase_names"], counts) if n))
        waits = [n for n, w in zip(trace["phase_names"], trace["phase_is_wait"]) if w]
        print("roles" + "".join(" " + r for r in trace["role_names"]) + "; waits" + "".join(" " + w for w in waits))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("write-input", "read-output"))
    ap.add_argument("file")
    ap.add_argument("--shape", default="392,256,256,196", help="M,N,K,P for write-input")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if args.command == "write-input":
        M, N, K, P = (int(v) for v in args.shape.split(","))
        write_input(args.file, M, N, K, P, args.seed)
    else:
        read_output(args.file)


if __name__ == "__main__":
    main()
