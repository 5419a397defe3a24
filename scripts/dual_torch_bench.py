#!/usr/bin/env python3
"""The PyTorch baselines for the fused SwiGLU dual GEMM

    C[g] = silu(A[g] @ B1[g].T) * (A[g] @ B2[g].T)

with FP8 E4M3 A [G,M,K], B1, B2 [G,N,K] and DeepGEMM block scales
(scale_a [G,M,ceil(K/128)] per 1x128, scale_b [G,ceil(N/128),ceil(K/128)] per
128x128), as a user writes it with torch._scaled_mm:

  x2         two _scaled_mm per group, then F.silu(d1) * d2 (eager)
  x2_compile the same with the silu * mul through torch.compile (one kernel)
  cat        one _scaled_mm per group against cat(B1, B2) [2N, K] (the usual
             fused gate/up weight; needs N % 128 == 0), then silu * mul of halves
  cat_compile the same, the elementwise part compiled

and, in the same process on the same tensors, pegemm's fused kernel through
its C ABI (kernel/dual_capi.h, build*/kernel/libpegemm_dual.so, ctypes):

  pegemm_inter, pegemm_seq  the two designs, one launch each for all groups
                            (shapes with M, N, K multiples of 128)

The kernel reads the tensors make_inputs creates as they are (A [G,M,K],
B1/B2 [G,N,K] E4M3 codes, scale_a [G,M,KB], scale_b [G,NB,KB] fp32, all
contiguous: the kernel's layouts) and writes its own C [G,M,N]; _scaled_mm
gets its scales from copies in the strides it wants.  Both multiply the
block scales into the products (acc += partial * sa * sb), so the rows
compute the same math with different roundings: the line reports C's
relative error against torch's x2 row and, for group 0, against silu * mul
of the fp32 dequantized products, and whether the two designs agree bit for
bit.

Block scales go to _scaled_mm in the layouts its cuBLASLt path checks
(aten/src/ATen/native/cuda/ScaledBlas.cpp, is_blockwise_1x128_scaling /
is_blockwise_128x128_scaling): scale_a (M, KB) with strides (1, M); scale_b
(KB, NB) with strides (1, KB4), KB4 = KB rounded up to 4 as cuBLASLt's
BLK128x128 layout requires.  If this torch refuses block scales, the rows
use row-wise scales (one per row of A, one per row of B) and say so in
"scaling".  Fast accumulation is off (torch refuses it with block scales).

Timing (CUDA events), every row alike, on torch's current stream: burst =
median of --reps launches after --warmup, each launch bracketed by its own
events, the launches split into --rounds round-robin rounds over the rows
(the order rotated each round, as `pegemm dual bench`), so clock and
temperature drift hit every row alike; sustained = launches in batches of 20
for --sustain-s seconds after a 0.5 s warm-up, wall time per launch, and
energy per launch from NVML's total-energy counter over the same interval
(the method of kernel/energy.c; without pynvml, torch.cuda.power_draw sampled
once per batch, integrated), one row after another; the first row is
measured again at the end ("sustained_again") to show the drift.

One JSON line per shape.  Exit 0; 1 if a result check failed (d1 of group 0
against a dequantized fp32 matmul, or pegemm's C against silu * mul of the
dequantized fp32 products: relative Frobenius error > 1e-2; the designs
differing; pegemm refusing the tensors); 2 for usage errors, no CUDA GPU, or
an explicitly given --pegemm-lib that is missing or does not load.

  python3 scripts/dual_torch_bench.py [--shape G,M,N,K ...] [--out-dtype bf16|fp16]
                                      [--pegemm-lib PATH | --no-pegemm]
"""
import argparse
import ctypes
import json
import os
import statistics
import sys
import time

BLOCK = 128
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_LIBS = [os.path.join(ROOT, b, "kernel", "libpegemm_dual.so") for b in ("build-gpu", "build")]


def parse_shape(text):
    try:
        g, m, n, k = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shape wants G,M,N,K (four integers), got '{text}'")
    if min(g, m, n, k) < 1 or k % 16 or n % 8 or m % 4:
        raise argparse.ArgumentTypeError(f"--shape {text}: need all >= 1, K % 16 == 0, N % 8 == 0, M % 4 == 0")
    return g, m, n, k


def cdiv(a, b):
    return (a + b - 1) // b


class Energy:
    """Board energy over an interval: NVML's counter (mJ), else sampled power."""

    def __init__(self, torch):
        self.torch = torch
        self.nvml = None
        self.handle = None
        self.why = None
        try:
            import pynvml
            pynvml.nvmlInit()
            try:  # the NVML device of CUDA device 0, by PCI bus id as kernel/energy.c
                p = torch.cuda.get_device_properties(0)
                bus = f"{p.pci_domain_id:08x}:{p.pci_bus_id:02x}:{p.pci_device_id:02x}.0".upper()
                self.handle = pynvml.nvmlDeviceGetHandleByPciBusId(bus)
            except (AttributeError, pynvml.NVMLError):  # older torch: no bus id; NVML's index 0
                self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
            pynvml.nvmlDeviceGetTotalEnergyConsumption(self.handle)
            self.nvml = pynvml
        except Exception as e:  # no pynvml, no counter: fall back below
            self.why = f"NVML energy counter unavailable ({e})"

    def method(self):
        if self.nvml:
            return "nvml_total_energy"
        return "torch_power_draw_sampled" if self._power_ok() else None

    def _power_ok(self):
        try:
            self.torch.cuda.power_draw(0)
            return True
        except Exception:
            return False

    def counter_mj(self):
        return self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle)

    def power_mw(self):
        return self.torch.cuda.power_draw(0)


class Pegemm:
    """libpegemm_dual.so (kernel/dual_capi.h) through ctypes."""

    DESIGNS = {"pegemm_inter": 0, "pegemm_seq": 1}

    def __init__(self, path):
        self.path = path
        lib = ctypes.CDLL(path)
        lib.pegemm_dual_create.restype = ctypes.c_void_p
        lib.pegemm_dual_create.argtypes = [ctypes.c_int64] * 4 + [ctypes.c_char_p] + [ctypes.c_void_p] * 7
        lib.pegemm_dual_launch.restype = ctypes.c_int
        lib.pegemm_dual_launch.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
        lib.pegemm_dual_grid.restype = ctypes.c_int
        lib.pegemm_dual_grid.argtypes = [ctypes.c_void_p]
        lib.pegemm_dual_destroy.restype = None
        lib.pegemm_dual_destroy.argtypes = [ctypes.c_void_p]
        lib.pegemm_dual_last_error.restype = ctypes.c_char_p
        lib.pegemm_dual_last_error.argtypes = []
        self.lib = lib

    def error(self):
        return self.lib.pegemm_dual_last_error().decode(errors="replace")

    def create(self, x, C, out_dtype):
        """A handle on the tensors (kept alive by the caller), or RuntimeError."""
        g, m, k = x["A"].shape
        n = x["B1"].shape[1]
        for name in ("A", "B1", "B2", "sa", "sb1", "sb2"):
            if not x[name].is_contiguous():
                raise RuntimeError(f"pegemm: tensor {name} is not contiguous")
        h = self.lib.pegemm_dual_create(g, m, n, k, out_dtype.encode(), x["A"].data_ptr(), x["B1"].data_ptr(),
                                        x["B2"].data_ptr(), x["sa"].data_ptr(), x["sb1"].data_ptr(),
                                        x["sb2"].data_ptr(), C.data_ptr())
        if not h:
            raise RuntimeError(self.error())
        return h

    def launcher(self, torch, h, design):
        def launch():
            if self.lib.pegemm_dual_launch(h, design, torch.cuda.current_stream().cuda_stream) != 0:
                raise RuntimeError(self.error())
        return launch


def find_lib(explicit):
    """(path or None, why not): the given library, else the first built one."""
    if explicit:
        return (explicit, None) if os.path.isfile(explicit) else (None, f"--pegemm-lib {explicit}: no such file")
    for path in DEFAULT_LIBS:
        if os.path.isfile(path):
            return path, None
    return None, "libpegemm_dual.so not built (" + ", ".join(DEFAULT_LIBS) + ")"


def make_inputs(torch, g, m, n, k, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    kb, nb = cdiv(k, BLOCK), cdiv(n, BLOCK)

    def fp8(*shape):
        return (torch.randn(*shape, device="cuda", generator=gen) * 2).to(torch.float8_e4m3fn)

    def scales(*shape):  # [2^-6, 2^-4], distinct per block
        return torch.rand(*shape, device="cuda", generator=gen) * (2**-4 - 2**-6) + 2**-6

    return {
        "A": fp8(g, m, k), "B1": fp8(g, n, k), "B2": fp8(g, n, k),
        "sa": scales(g, m, kb), "sb1": scales(g, nb, kb), "sb2": scales(g, nb, kb),
    }


def block_scale_args(torch, x, kb4):
    """scale_a per group as (M, KB) strides (1, M); scale_b as (KB, NB) strides (1, KB4)."""
    g, m, kb = x["sa"].shape
    sa_t = x["sa"].transpose(1, 2).contiguous()  # [G, KB, M]
    out = {"sa": [sa_t[i].t() for i in range(g)]}
    for w in ("sb1", "sb2"):
        nb = x[w].shape[1]
        pad = torch.zeros(g, nb, kb4, device="cuda")
        pad[:, :, :kb] = x[w]
        out[w] = [pad[i, :, :kb].t() for i in range(g)]
    return out


def rowwise_scale_args(torch, x, n):
    """Row-wise fallback: scale_a (M, 1) from each row's first block, scale_b (1, N) from each row's block."""
    g = x["sa"].shape[0]
    out = {"sa": [x["sa"][i, :, :1].contiguous() for i in range(g)]}
    for w in ("sb1", "sb2"):
        out[w] = [x[w][i, :, 0].repeat_interleave(BLOCK)[:n].reshape(1, n).contiguous() for i in range(g)]
    return out


def concat_scales(torch, s1, s2):
    """scale_b of cat(B1, B2): the NB blocks of B1 then those of B2 (strides (1, KB4))."""
    kb, nb = s1.shape
    kb4 = s1.stride(1)
    pad = torch.zeros(2 * nb, kb4, device="cuda")
    pad[:nb, :kb] = s1.t()
    pad[nb:, :kb] = s2.t()
    return pad[:, :kb].t()


def dequant_ref(torch, a, sa_rows, b, sb_blocks, n, k):
    """fp32 A·Bᵀ of group 0 with block scales applied elementwise."""
    sa = sa_rows.repeat_interleave(BLOCK, dim=1)[:, :k]
    sb = sb_blocks.repeat_interleave(BLOCK, dim=0).repeat_interleave(BLOCK, dim=1)[:n, :k]
    return (a.float() * sa) @ (b.float() * sb).t()


def time_bursts(torch, rows, warmup, reps, rounds):
    """name -> (median, p10, p90) ms: each row's --reps launches in round-robin bursts, the order rotated."""
    names = list(rows)
    for name in names:
        for _ in range(warmup):
            rows[name]()
    ms = {name: [] for name in names}
    for r in range(rounds):
        burst = reps // rounds + (r < reps % rounds)
        for j in range(len(names)):
            name = names[(r + j) % len(names)]
            ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(burst)]
            for e0, e1 in ev:
                e0.record()
                rows[name]()
                e1.record()
            torch.cuda.synchronize()
            ms[name] += [e0.elapsed_time(e1) for e0, e1 in ev]
    out = {}
    for name in names:
        v = sorted(ms[name])
        out[name] = (statistics.median(v), v[len(v) // 10], v[(9 * len(v)) // 10])
    return out


def launch_for(torch, fn, seconds, on_batch=None):
    n, t0 = 0, time.perf_counter()
    while True:
        for _ in range(20):
            fn()
        n += 20
        torch.cuda.synchronize()
        if on_batch:
            on_batch()
        if time.perf_counter() - t0 >= seconds:
            return n, time.perf_counter() - t0


def time_sustained(torch, fn, seconds, energy):
    launch_for(torch, fn, 0.5)  # warm: clocks and power settle, not measured
    res = {"energy_method": energy.method()}
    if energy.nvml:
        e0 = energy.counter_mj()
        n, wall = launch_for(torch, fn, seconds)
        e1 = energy.counter_mj()
        mj = float(e1 - e0) if e1 > e0 else None
    elif res["energy_method"]:
        samples = []
        n, wall = launch_for(torch, fn, seconds, lambda: samples.append(energy.power_mw()))
        mj = statistics.mean(samples) * wall if samples else None  # mW * s = mJ
    else:
        n, wall = launch_for(torch, fn, seconds)
        mj = None
    res["sustained_ms_per_launch"] = wall * 1e3 / n
    res["sustained_launches"] = n
    res["mj_per_launch"] = mj / n if mj is not None else None
    res["watts"] = mj / (wall * 1e3) if mj is not None else None
    return res


def build_rows(torch, x, sc, g, n, out_dtype, use_compile):
    """name -> one launch of that baseline (all groups); results are kept, as a user keeps them."""
    F = torch.nn.functional
    A, B1, B2 = x["A"], x["B1"], x["B2"]

    def mm(a, b, sa, sb):
        return torch._scaled_mm(a, b.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=False)

    def eager_silu_mul(d1, d2):
        y = F.silu(d1) * d2
        return y if y.dtype == out_dtype else y.to(out_dtype)

    rows = {}
    kinds = [("", eager_silu_mul)]
    if use_compile:
        kinds.append(("_compile", torch.compile(eager_silu_mul)))
    for suffix, ew in kinds:
        def x2(ew=ew):
            return [ew(mm(A[i], B1[i], sc["sa"][i], sc["sb1"][i]), mm(A[i], B2[i], sc["sa"][i], sc["sb2"][i]))
                    for i in range(g)]
        rows["x2" + suffix] = x2
    if n % BLOCK == 0:
        B12 = torch.cat([B1, B2], dim=1)  # [G, 2N, K]: the fused gate/up weight
        sb12 = [concat_scales(torch, sc["sb1"][i], sc["sb2"][i]) if sc["kind"] == "blockwise"
                else torch.cat([sc["sb1"][i], sc["sb2"][i]], dim=1) for i in range(g)]
        for suffix, ew in kinds:
            def cat(ew=ew):
                out = []
                for i in range(g):
                    d = mm(A[i], B12[i], sc["sa"][i], sb12[i])
                    out.append(ew(d[:, :n], d[:, n:]))
                return out
            rows["cat" + suffix] = cat
    return rows


def pick_scaling(torch, x, g, m, n, k):
    """Block scales if this torch takes them, else row-wise; checks d1 of group 0 either way."""
    kb = cdiv(k, BLOCK)
    attempts = [("blockwise", lambda: block_scale_args(torch, x, cdiv(kb, 4) * 4))]
    if kb % 4:  # an older torch checks the unpadded stride KB
        attempts.append(("blockwise", lambda: block_scale_args(torch, x, kb)))
    attempts.append(("rowwise", lambda: rowwise_scale_args(torch, x, n)))
    errors = []
    for kind, make in attempts:
        sc = make()
        try:
            d1 = torch._scaled_mm(x["A"][0], x["B1"][0].t(), scale_a=sc["sa"][0], scale_b=sc["sb1"][0],
                                  out_dtype=torch.bfloat16, use_fast_accum=False)
            torch.cuda.synchronize()
        except Exception as e:
            errors.append(f"{kind}: {str(e).splitlines()[0]}")
            continue
        sc["kind"] = kind
        if kind == "blockwise":
            ref = dequant_ref(torch, x["A"][0], x["sa"][0], x["B1"][0], x["sb1"][0], n, k)
        else:
            sa = sc["sa"][0]
            sb = sc["sb1"][0]
            ref = (x["A"][0].float() @ x["B1"][0].float().t()) * sa * sb
        err = (d1.float() - ref).norm().item() / max(ref.norm().item(), 1e-30)
        return sc, err, errors
    raise RuntimeError("torch._scaled_mm refused every scaling: " + "; ".join(errors))


def rel_err(torch, got, ref):
    return (got.float() - ref.float()).norm().item() / max(ref.float().norm().item(), 1e-30)


def add_pegemm(torch, x, rows, line, pegemm, g, m, n, k, out_name, out_dtype):
    """pegemm's rows on x's tensors, checked once; returns the handle (None: no rows) and C."""
    if m % BLOCK or n % BLOCK or k % BLOCK:
        line["pegemm"] = f"skipped: the kernel needs M, N, K multiples of {BLOCK}"
        return None, None
    C = torch.empty(g, m, n, device="cuda", dtype=out_dtype)
    try:
        h = pegemm.create(x, C, out_name)
    except RuntimeError as e:
        line["pegemm"] = f"FAILED: {e}"
        line["check"] = "FAILED"
        return None, None
    line["pegemm"] = {"lib": pegemm.path, "grid": pegemm.lib.pegemm_dual_grid(h)}
    for name, design in Pegemm.DESIGNS.items():
        rows[name] = pegemm.launcher(torch, h, design)
    # the check: the designs agree bit for bit; C against torch's x2 (all
    # groups) and against silu * mul of the fp32 dequantized products (group 0)
    rows["pegemm_seq"]()
    torch.cuda.synchronize()
    c_seq = C.clone()
    rows["pegemm_inter"]()
    torch.cuda.synchronize()
    differ = int((C.view(torch.int16) != c_seq.view(torch.int16)).sum().item())
    d1 = dequant_ref(torch, x["A"][0], x["sa"][0], x["B1"][0], x["sb1"][0], n, k)
    d2 = dequant_ref(torch, x["A"][0], x["sa"][0], x["B2"][0], x["sb2"][0], n, k)
    ref = torch.nn.functional.silu(d1) * d2
    del d1, d2
    err_ref = rel_err(torch, C[0], ref)
    del ref
    err_torch = rel_err(torch, C, torch.stack(rows["x2"]())) if "x2" in rows else None
    line["pegemm"].update({
        "designs_differ": differ, "rel_err_vs_fp32_group0": err_ref, "rel_err_vs_torch_x2": err_torch,
        "torch_x2_scaling": line["scaling"],
    })
    ok = differ == 0 and err_ref <= 1e-2
    line["pegemm"]["check"] = "ok" if ok else "FAILED"
    if not ok:
        line["check"] = "FAILED"
    print(f"dual_torch_bench: G={g} M={m} N={n} K={k}: pegemm C vs fp32 silu*mul (group 0) rel err {err_ref:.3e}, "
          f"vs torch x2 ({line['scaling']} scales) {err_torch if err_torch is None else f'{err_torch:.3e}'}, "
          f"designs differ in {differ} elements", file=sys.stderr)
    return h, C


def bench_shape(torch, shape, args, energy, pegemm):
    g, m, n, k = shape
    out_dtype = torch.bfloat16 if args.out_dtype == "bf16" else torch.float16
    x = make_inputs(torch, g, m, n, k, args.seed)
    sc, err, refusals = pick_scaling(torch, x, g, m, n, k)
    flops = 4.0 * g * m * n * k
    line = {
        "shape": {"G": g, "M": m, "N": n, "K": k}, "out_dtype": args.out_dtype,
        "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
        "scaling": sc["kind"], "scaling_refused": refusals,
        "check_rel_err_d1_group0": err, "check": "ok" if err <= 1e-2 else "FAILED",
        "flops": flops, "rounds": args.rounds, "rows": [],
    }
    compile_note = None
    rows = build_rows(torch, x, sc, g, n, out_dtype, not args.no_compile)
    for name in list(rows):  # compiles (and any failure) here, before timing
        try:
            rows[name]()
            torch.cuda.synchronize()
        except Exception as e:
            if not name.endswith("_compile"):
                raise
            compile_note = f"torch.compile failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
            del rows[name]
    if compile_note:
        line["compile"] = compile_note
    h, C = (None, None)
    if pegemm:
        h, C = add_pegemm(torch, x, rows, line, pegemm, g, m, n, k, args.out_dtype, out_dtype)
    else:
        line["pegemm"] = "not run: " + args.pegemm_why
    try:
        bursts = time_bursts(torch, rows, args.warmup, args.reps, args.rounds)
        for name, fn in rows.items():
            med, p10, p90 = bursts[name]
            row = {"name": name, "burst_median_ms": med, "burst_p10_ms": p10, "burst_p90_ms": p90,
                   "tflops_burst": flops / (med * 1e-3) / 1e12}
            row.update(time_sustained(torch, fn, args.sustain_s, energy))
            line["rows"].append(row)
        first = next(iter(rows))
        line["sustained_again"] = {"name": first, **time_sustained(torch, rows[first], args.sustain_s, energy)}
    finally:
        torch.cuda.synchronize()
        if h:
            pegemm.lib.pegemm_dual_destroy(h)
        del C
    if energy.why and not energy.nvml:
        line["energy_note"] = energy.why
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", type=parse_shape, action="append",
                    help="G,M,N,K (repeatable; default 8,256,4096,7168 and 1,8192,2048,7168: docs/experiments.md D1)")
    ap.add_argument("--out-dtype", choices=("bf16", "fp16"), default="bf16")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--sustain-s", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=10, help="round-robin rounds the --reps launches are split into")
    ap.add_argument("--no-compile", action="store_true", help="skip the torch.compile rows")
    lib = ap.add_mutually_exclusive_group()
    lib.add_argument("--pegemm-lib", metavar="PATH",
                     help="libpegemm_dual.so (default: build-gpu/kernel/, else build/kernel/, if built)")
    lib.add_argument("--no-pegemm", action="store_true", help="torch's rows only")
    args = ap.parse_args()
    if args.warmup < 0 or args.reps < 1 or not args.sustain_s > 0 or not 1 <= args.rounds <= args.reps:
        ap.error("--warmup >= 0, --reps >= 1, --sustain-s > 0, 1 <= --rounds <= --reps")
    pegemm, args.pegemm_why = None, "--no-pegemm"
    if not args.no_pegemm:
        path, args.pegemm_why = find_lib(args.pegemm_lib)
        if path:
            try:
                pegemm = Pegemm(path)
            except OSError as e:
                args.pegemm_why = f"{path} does not load ({e})"
        if not pegemm and args.pegemm_lib:
            print(f"dual_torch_bench: {args.pegemm_why}", file=sys.stderr)
            return 2
        if not pegemm:
            print(f"dual_torch_bench: pegemm rows not run: {args.pegemm_why}", file=sys.stderr)
    shapes = args.shape or [(8, 256, 4096, 7168), (1, 8192, 2048, 7168)]
    try:
        import torch
    except ImportError as e:
        print(f"dual_torch_bench: PyTorch is not installed ({e})", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("dual_torch_bench: no CUDA GPU visible to PyTorch", file=sys.stderr)
        return 2
    cap = torch.cuda.get_device_capability(0)
    if cap < (8, 9):
        print(f"dual_torch_bench: FP8 _scaled_mm needs compute capability >= 8.9; GPU 0 is {cap}", file=sys.stderr)
        return 2
    energy = Energy(torch)
    failed = False
    for shape in shapes:
        line = bench_shape(torch, shape, args, energy, pegemm)
        failed |= line["check"] != "ok"
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
