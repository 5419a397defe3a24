#!/usr/bin/env python3
"""Ground truth for pegemm's scaled-FP8 reference: torch._scaled_mm on a GPU.

Run on the GPU machine (one H100; Python 3, torch >= 2.4, numpy, h5py; no
network needed; takes a few seconds):

    python3 reference/groundtruth/scaled_mm_gt.py --output scaled_mm_gt.h5

It generates deterministic inputs with numpy (seeded), calls
torch._scaled_mm for every combination below, and writes ONE small HDF5
file (gzip).  A combination torch refuses is recorded as unsupported with
its error text; nothing is skipped silently.  The output file must not
exist (--force replaces it); it is written to a temporary name and renamed.

Combinations, per input set (operand formats x K x input range):
  scale kind   one (1.0, the sanity anchor), tensor (0-d fp32, not powers
               of two), row (A [M,1], B [1,N] fp32)
  use_fast_accum  0, 1
  out dtype    bf16, fp16, fp32
  bias dtype   none, bf16, fp16, fp32 (scale kind 'one': none only)
Input sets: e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3 (and e5m2 x e5m2, which
torch is expected to refuse), K = 768 and K = 400 (not a multiple of 256,
400 = 3 * 128 + 16), ranges normal, wide (every finite code), subnormal
(mostly exponent field 0) and cancel (the second half of k cancels the
first up to a few code steps, so sums land near zero).

Every case is also run at a large shape made by tiling the same A and B
(BIG_TILES_M x BIG_TILES_N copies, more tiles than SMs), so that a result
that depends on the shape (split-K, another kernel) is seen: big_mismatch
counts the elements of the large output that differ from the tiled small
output; when it is non-zero the large output's first tile is stored too.
Every small call is made twice (repeat_mismatch: elements that differ).

File layout (all datasets 1-D; codes, offsets and enums are integers):
  /              attrs: torch_version, cuda_version, gpu_name,
                 gpu_capability, cublaslt_version (or 'unknown'), M, N,
                 big_tiles_m, big_tiles_n, seed, enum_* (the code tables)
  /sets/         one row per input set: k, fmt_a, fmt_b, range,
                 a_off, b_off (into codes: A is [M,K] row-major, B is
                 [N,K] row-major; the GPU call gets b = B.t()),
                 bias_off (into bias_values, N fp32 values that are exact
                 in bf16 and fp16), name_off/name_len (into names)
  /codes         uint8 pool;  /bias_values float32 pool
  /scales        float32 pool (tensor: 1 value; row: M for A, N for B)
  /cases/        one row per case: set, scale_kind, scale_a_off,
                 scale_a_len, scale_b_off, scale_b_len, fast_accum,
                 out_dtype, bias_dtype, supported, out_off (into out16 or
                 out32 by out dtype; -1 if unsupported), big_mismatch,
                 big_off (-1 when not stored), repeat_mismatch,
                 err_off/err_len (into errors; 0 length when supported)
  /out16 uint16 (bf16/fp16 bits), /out32 uint32 (fp32 bits): outputs
                 [M,N] row-major per case
  /errors, /names uint8 text pools
"""
import argparse
import ctypes
import os
import sys

import h5py
import numpy as np

SEED = 20240613
M, N = 32, 48
KS = (768, 400)
BIG_TILES_M, BIG_TILES_N = 64, 32  # 2048 x 1536 output: > 132 SMs of 128x128 tiles

FMTS = ("e4m3", "e5m2")
RANGES = ("normal", "wide", "subnormal", "cancel")
SCALE_KINDS = ("one", "tensor", "row")
OUT_DTYPES = ("bf16", "fp16", "fp32")
BIAS_DTYPES = ("none", "bf16", "fp16", "fp32")
PAIRS = (("e4m3", "e4m3"), ("e4m3", "e5m2"), ("e5m2", "e4m3"), ("e5m2", "e5m2"))


# ---- FP8 tables (numpy, float64 values) -------------------------------------
def fp8_value(code, fmt):
    """Value of one FP8 code (nan/inf as float)."""
    s = -1.0 if code & 0x80 else 1.0
    if fmt == "e4m3":
        e, m = (code >> 3) & 15, code & 7
        if e == 15 and m == 7:
            return float("nan")
        return s * (m * 2.0 ** -9 if e == 0 else (1 + m / 8) * 2.0 ** (e - 7))
    e, m = (code >> 2) & 31, code & 3
    if e == 31:
        return s * float("inf") if m == 0 else float("nan")
    return s * (m * 2.0 ** -16 if e == 0 else (1 + m / 4) * 2.0 ** (e - 15))


def finite_pos_codes(fmt):
    last = 0x7E if fmt == "e4m3" else 0x7B
    return np.arange(0, last + 1, dtype=np.uint8)


def table(fmt):
    return np.array([fp8_value(c, fmt) for c in range(256)])


def encode(x, fmt):
    """Nearest finite code (saturating); the codes are what is stored."""
    pos = finite_pos_codes(fmt)
    vals = table(fmt)[pos]
    mag = np.minimum(np.abs(x), vals[-1])
    idx = np.clip(np.searchsorted(vals, mag), 1, len(vals) - 1)
    lo, hi = vals[idx - 1], vals[idx]
    pick = np.where(mag - lo <= hi - mag, idx - 1, idx)
    return (pos[pick] | np.where(x < 0, 0x80, 0)).astype(np.uint8)


def random_codes(rng, shape, fmt, rng_name):
    pos = finite_pos_codes(fmt)
    sign = (rng.integers(0, 2, size=shape) << 7).astype(np.uint8)
    if rng_name == "normal":
        return encode(rng.standard_normal(shape), fmt)
    if rng_name == "wide":
        return rng.choice(pos, size=shape).astype(np.uint8) | sign
    if rng_name == "subnormal":
        mbits = 3 if fmt == "e4m3" else 2
        sub = rng.integers(1, 1 << mbits, size=shape)  # exponent field 0
        low = rng.integers(1 << mbits, 4 << mbits, size=shape)  # exponent field 1..3
        pick = rng.random(shape) < 0.75
        return np.where(pick, sub, low).astype(np.uint8) | sign
    raise ValueError(rng_name)


def cancel_pair(rng, fmt_a, fmt_b, k):
    """A's second half repeats its first with 1 in 8 codes moved one step;
    B's second half is the first half negated: sums land near zero."""
    h = k // 2
    a = random_codes(rng, (M, h), fmt_a, "normal")
    b = random_codes(rng, (N, h), fmt_b, "normal")
    a2 = a.copy()
    mag = (a2 & 0x7F).astype(np.int16)
    step = np.where(rng.random(a2.shape) < 0.125, rng.choice([-1, 1], size=a2.shape), 0)
    last = int(finite_pos_codes(fmt_a)[-1])
    mag = np.clip(mag + step, 0, last)
    a2 = ((a2 & 0x80) | mag).astype(np.uint8)
    return np.concatenate([a, a2], axis=1), np.concatenate([b, b ^ 0x80], axis=1)


def bf16_round(x):
    """float32 values rounded to bf16 precision (RNE), as float32."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def bias_for(rng, a, b, fmt_a, fmt_b):
    """N values exact in bf16 and fp16, of the size of a typical output."""
    ref = table(fmt_a)[a] @ table(fmt_b)[b].T
    typical = float(np.median(np.abs(ref[np.isfinite(ref)]))) or 1.0
    mag = np.clip(np.abs(rng.standard_normal(N)) * typical, 2.0 ** -14, 32768.0)
    v = bf16_round(np.where(rng.random(N) < 0.5, -mag, mag))
    return v.astype(np.float32)


def random_scales(rng, n):
    """fp32 scales in [2^-4, 2^4) with full mantissas (not powers of two)."""
    s = rng.uniform(1.0, 2.0, n) * 2.0 ** rng.integers(-4, 4, n)
    return s.astype(np.float32)


# ---- environment --------------------------------------------------------------
def cublaslt_version():
    """cublasLtGetVersion() of the libcublasLt this process loaded."""
    try:
        with open("/proc/self/maps") as f:
            paths = {ln.split()[-1] for ln in f if "libcublasLt" in ln}
        for p in sorted(paths):
            lib = ctypes.CDLL(p)
            lib.cublasLtGetVersion.restype = ctypes.c_size_t
            return "%d (%s)" % (lib.cublasLtGetVersion(), p)
    except (OSError, AttributeError) as e:
        return "unknown (%s)" % e
    return "unknown (libcublasLt not loaded)"


# ---- the calls ----------------------------------------------------------------
class Runner:
    def __init__(self, torch):
        self.t = torch
        self.dev = torch.device("cuda")
        self.fp8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
        self.dt = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}

    def operand(self, codes, fmt, tiles):
        # tile as uint8 (not every torch copies float8 tensors), then view
        t = self.t.from_numpy(np.ascontiguousarray(np.tile(codes, (tiles, 1)))).to(self.dev)
        return t.view(self.fp8[fmt])

    def scale(self, s, kind, side, tiles):
        t = self.t.from_numpy(s.copy()).to(self.dev)
        if kind != "row":
            return t.reshape(())
        t = t.repeat(tiles)
        return t.reshape(-1, 1) if side == "a" else t.reshape(1, -1).contiguous()

    def call(self, a, b, sa, sb, bias, out, fast):
        """Output bits as a torch integer tensor; raises what torch raises."""
        r = self.t._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, bias=bias,
                              out_dtype=self.dt[out], use_fast_accum=bool(fast))
        if isinstance(r, tuple):  # torch < 2.4 returned (out, amax)
            r = r[0]
        self.t.cuda.synchronize()
        return r.view(self.t.int32 if out == "fp32" else self.t.int16)

    def run_case(self, a, b, fa, fb, sa, sb, kind, bias, out, fast):
        """(bits [M,N] numpy, big_mismatch, big first tile or None, repeat_mismatch)."""
        args = []
        for tiles_m, tiles_n in ((1, 1), (BIG_TILES_M, BIG_TILES_N)):
            bias_t = None
            if bias is not None:
                bias_t = self.t.from_numpy(bias[0]).to(self.dev).to(self.dt[bias[1]]).repeat(tiles_n)
            args.append((self.operand(a, fa, tiles_m), self.operand(b, fb, tiles_n),
                         self.scale(sa, kind, "a", tiles_m), self.scale(sb, kind, "b", tiles_n),
                         bias_t, out, fast))
        small = self.call(*args[0])
        repeat = int((self.call(*args[0]) != small).sum().item())
        big = self.call(*args[1])
        tiled = small.repeat(BIG_TILES_M, BIG_TILES_N)
        big_mismatch = int((big != tiled).sum().item())
        np_dt = np.uint32 if out == "fp32" else np.uint16
        first = big[:M, :N].cpu().numpy().view(np_dt) if big_mismatch else None
        return small.cpu().numpy().view(np_dt), big_mismatch, first, repeat


# ---- the file -----------------------------------------------------------------
class Pools:
    def __init__(self):
        self.p = {"codes": [], "bias_values": [], "scales": [], "out16": [], "out32": [],
                  "errors": [], "names": []}
        self.n = {k: 0 for k in self.p}

    def add(self, pool, arr):
        arr = np.ascontiguousarray(arr).reshape(-1)
        off = self.n[pool]
        self.p[pool].append(arr)
        self.n[pool] += arr.size
        return off

    def text(self, pool, s):
        b = np.frombuffer(s.encode("utf-8", "replace"), dtype=np.uint8)
        return self.add(pool, b), b.size

    def array(self, pool, dtype):
        return np.concatenate(self.p[pool]).astype(dtype) if self.p[pool] else np.zeros(0, dtype)


def write_file(path, force, attrs, sets, cases, pools):
    if os.path.exists(path) and not force:
        sys.exit("%s exists; pass --force to replace it" % path)
    tmp = path + ".tmp%d" % os.getpid()
    z = dict(compression="gzip", compression_opts=9, shuffle=True)
    try:
        with h5py.File(tmp, "w") as f:
            for k, v in attrs.items():
                # numpy unicode arrays have no HDF5 type: store text as str / lists of str
                if isinstance(v, np.ndarray) and v.dtype.kind == "U":
                    v = [str(x) for x in v.tolist()]
                if isinstance(v, (list, tuple)) and v and isinstance(v[0], str):
                    v = np.array(v, dtype=h5py.string_dtype())
                elif isinstance(v, str):  # also str subclasses (torch.__version__)
                    v = str(v)
                f.attrs[k] = v
            for grp, rows in (("sets", sets), ("cases", cases)):
                g = f.create_group(grp)
                for key in rows[0]:
                    g.create_dataset(key, data=np.array([r[key] for r in rows], dtype=np.int64), **z)
            for pool, dt in (("codes", np.uint8), ("bias_values", np.float32), ("scales", np.float32),
                             ("out16", np.uint16), ("out32", np.uint32), ("errors", np.uint8),
                             ("names", np.uint8)):
                data = pools.array(pool, dt)
                f.create_dataset(pool, data=data, **(z if data.size else {}))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--output", default="scaled_mm_gt.h5")
    ap.add_argument("--force", action="store_true", help="replace an existing output file")
    args = ap.parse_args()
    if os.path.exists(args.output) and not args.force:
        sys.exit("%s exists; pass --force to replace it" % args.output)

    import torch
    if not torch.cuda.is_available():
        sys.exit("no CUDA device")
    run = Runner(torch)
    rng = np.random.default_rng(SEED)
    pools = Pools()
    sets, cases = [], []
    n_supported = 0

    for fa, fb in PAIRS:
        for k in KS:
            for rname in RANGES:
                if (fa, fb) == ("e5m2", "e5m2") and (k, rname) != (768, "normal"):
                    continue  # one set is enough to record that torch refuses it
                if rname == "cancel":
                    a, b = cancel_pair(rng, fa, fb, k)
                else:
                    a = random_codes(rng, (M, k), fa, rname)
                    b = random_codes(rng, (N, k), fb, rname)
                bias = bias_for(rng, a, b, fa, fb)
                set_idx = len(sets)
                name = "%sx%s_k%d_%s" % (fa, fb, k, rname)
                name_off, name_len = pools.text("names", name)
                srow = dict(k=k, fmt_a=FMTS.index(fa), fmt_b=FMTS.index(fb), range=RANGES.index(rname),
                            a_off=pools.add("codes", a), b_off=pools.add("codes", b),
                            bias_off=pools.add("bias_values", bias), name_off=name_off, name_len=name_len)
                sets.append(srow)
                scales = {"one": (np.ones(1, np.float32), np.ones(1, np.float32)),
                          "tensor": (random_scales(rng, 1), random_scales(rng, 1)),
                          "row": (random_scales(rng, M), random_scales(rng, N))}
                for kind in SCALE_KINDS:
                    sa, sb = scales[kind]
                    sa_off, sb_off = pools.add("scales", sa), pools.add("scales", sb)
                    for fast in (0, 1):
                        for out in OUT_DTYPES:
                            for bdt in BIAS_DTYPES:
                                if kind == "one" and bdt != "none":
                                    continue
                                row = dict(set=set_idx, scale_kind=SCALE_KINDS.index(kind),
                                           scale_a_off=sa_off, scale_a_len=sa.size,
                                           scale_b_off=sb_off, scale_b_len=sb.size, fast_accum=fast,
                                           out_dtype=OUT_DTYPES.index(out), bias_dtype=BIAS_DTYPES.index(bdt),
                                           supported=0, out_off=-1, big_mismatch=-1, big_off=-1,
                                           repeat_mismatch=-1, err_off=0, err_len=0)
                                try:
                                    bits, bigm, first, rep = run.run_case(
                                        a, b, fa, fb, sa, sb, kind,
                                        None if bdt == "none" else (bias, bdt), out, fast)
                                except Exception as e:  # torch refuses: record, go on
                                    msg = "%s: %s" % (type(e).__name__, str(e).strip().split("\n")[0])
                                    row["err_off"], row["err_len"] = pools.text("errors", msg[:400])
                                else:
                                    pool = "out32" if out == "fp32" else "out16"
                                    row.update(supported=1, out_off=pools.add(pool, bits), big_mismatch=bigm,
                                               repeat_mismatch=rep)
                                    if first is not None:
                                        row["big_off"] = pools.add(pool, first)
                                    n_supported += 1
                                cases.append(row)

    cap = torch.cuda.get_device_capability()
    attrs = dict(torch_version=torch.__version__, cuda_version=str(torch.version.cuda),
                 gpu_name=torch.cuda.get_device_name(), gpu_capability="%d.%d" % cap,
                 cublaslt_version=cublaslt_version(),
                 preferred_blas=str(getattr(torch.backends.cuda, "preferred_blas_library", lambda: "n/a")()),
                 M=M, N=N, big_tiles_m=BIG_TILES_M, big_tiles_n=BIG_TILES_N, seed=SEED,
                 enum_fmt=",".join(FMTS), enum_range=",".join(RANGES), enum_scale_kind=",".join(SCALE_KINDS),
                 enum_out_dtype=",".join(OUT_DTYPES), enum_bias_dtype=",".join(BIAS_DTYPES),
                 script="reference/groundtruth/scaled_mm_gt.py")
    write_file(args.output, args.force, attrs, sets, cases, pools)
    bigs = sum(1 for c in cases if c["big_mismatch"] > 0)
    reps = sum(1 for c in cases if c["repeat_mismatch"] > 0)
    print("%s: %d sets, %d cases, %d supported, %d shape-dependent, %d not repeatable, %d bytes; %s, %s, torch %s"
          % (args.output, len(sets), len(cases), n_supported, bigs, reps, os.path.getsize(args.output),
             attrs["gpu_name"], attrs["cublaslt_version"], attrs["torch_version"]))
    errs = {}
    for c in cases:
        if not c["supported"]:
            t = pools.array("errors", np.uint8)[c["err_off"]:c["err_off"] + c["err_len"]].tobytes().decode()
            errs[t] = errs.get(t, 0) + 1
    for t, n in sorted(errs.items(), key=lambda x: -x[1]):
        print("  unsupported x%d: %s" % (n, t))


if __name__ == "__main__":
    main()
