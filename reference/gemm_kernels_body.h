/* The body of the inner kernels, included by gemm_kernels.c once per
 * instruction set with
 *   PG_VW      lanes per vector (16: AVX-512, 8: AVX2, 4: baseline)
 *   PG_SFX(x)  the name of x for this instruction set
 *   PG_TARGET  the function attribute that enables the instruction set
 * GCC/clang vector extensions hold one PG_VW-lane vector per tile row, so
 * the per-output state lives in registers; the kernels walk the PG_KW-column
 * panel in sub-tiles sized to the register file. */

typedef float PG_SFX(vf) __attribute__((vector_size(PG_VW * 4)));
typedef int32_t PG_SFX(vi) __attribute__((vector_size(PG_VW * 4)));
typedef uint32_t PG_SFX(vu) __attribute__((vector_size(PG_VW * 4)));
typedef double PG_SFX(vd) __attribute__((vector_size(PG_VW * 8)));
typedef uint64_t PG_SFX(vq) __attribute__((vector_size(PG_VW * 8)));
#define vf PG_SFX(vf)
#define vi PG_SFX(vi)
#define vu PG_SFX(vu)
#define vd PG_SFX(vd)
#define vq PG_SFX(vq)

PG_TARGET PG_INLINE vf PG_SFX(vload)(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

PG_TARGET PG_INLINE vd PG_SFX(vloadd)(const double *p)
{
    vd v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Element-wise max, written per lane so the compiler emits one max
 * instruction (the operands are never NaN). */
PG_TARGET PG_INLINE vf PG_SFX(vmax)(vf a, vf b)
{
    vf r;
    for (int l = 0; l < PG_VW; l++)
        r[l] = a[l] > b[l] ? a[l] : b[l];
    return r;
}

/* Element-wise fma, per lane (one vfmadd where the instruction set has it;
 * the C library's fmaf otherwise): one rounding, as the scalar fmaf. */
PG_TARGET PG_INLINE vf PG_SFX(vfma)(vf a, vf b, vf c)
{
    vf r;
    for (int l = 0; l < PG_VW; l++)
        r[l] = __builtin_fmaf(a[l], b[l], c[l]);
    return r;
}

/* The group's promotion into p (see pg_kern_scaling): p + group, or
 * fma(group, fl(sa * sb), p) with block scales.  Row r0 and column h0 of
 * the tile, group gi. */
PG_TARGET PG_INLINE vf PG_SFX(promote)(const pg_kern_scaling *sc, int64_t gi, int r0, int h0, vf group, vf p)
{
    if (sc->gsa == NULL)
        return p + group; /* fp32 RNE add */
    vf sab = sc->gsa[gi * PG_KR + r0] * PG_SFX(vload)(sc->gsb + gi * PG_KW + h0); /* fl(sa * sb) */
    return PG_SFX(vfma)(group, sab, p);
}

/* fp32: PG_FP32_NV vectors per row and PG_KR rows of independent
 * accumulators per sub-tile (enough to cover the add latency), k strictly
 * ascending for each; with block scales, a new sum from 0 per group. */
PG_TARGET static void PG_SFX(fp32)(const float *restrict av, const float *restrict bv, int64_t Kp,
                                   const pg_kern_scaling *sc, float *restrict out)
{
    int64_t G = sc->gsa != NULL ? (int64_t)sc->promote_blocks * 32 : Kp;
    for (int h = 0; h < PG_KW; h += PG_FP32_NV * PG_VW) {
        vf acc[PG_KR][PG_FP32_NV], prom[PG_KR][PG_FP32_NV];
        for (int r = 0; r < PG_KR; r++)
            for (int v = 0; v < PG_FP32_NV; v++)
                prom[r][v] = (vf){0};
        for (int64_t g0 = 0; g0 < Kp; g0 += G) {
            int64_t g1 = Kp - g0 < G ? Kp : g0 + G;
            for (int r = 0; r < PG_KR; r++)
                for (int v = 0; v < PG_FP32_NV; v++)
                    acc[r][v] = (vf){0};
            for (int64_t k = g0; k < g1; k++) {
                vf b[PG_FP32_NV];
                for (int v = 0; v < PG_FP32_NV; v++)
                    b[v] = PG_SFX(vload)(bv + k * PG_KW + h + v * PG_VW);
                for (int r = 0; r < PG_KR; r++) {
                    float a = av[k * PG_KR + r];
                    for (int v = 0; v < PG_FP32_NV; v++)
                        acc[r][v] = acc[r][v] + a * b[v];
                }
            }
            if (sc->gsa != NULL)
                for (int r = 0; r < PG_KR; r++)
                    for (int v = 0; v < PG_FP32_NV; v++)
                        prom[r][v] = PG_SFX(promote)(sc, g0 / G, r, h + v * PG_VW, acc[r][v], prom[r][v]);
        }
        for (int r = 0; r < PG_KR; r++)
            for (int v = 0; v < PG_FP32_NV; v++)
                memcpy(out + r * PG_KW + h + v * PG_VW, sc->gsa != NULL ? &prom[r][v] : &acc[r][v], sizeof(vf));
    }
}

/* exact: double sums of exact products, in chunks of PG_EXACT_CHUNK k moved
 * into int64 (see gemm_kernels.c). */
PG_TARGET static void PG_SFX(exact)(const float *restrict av, const double *restrict bvd, int64_t Kp,
                                    float *restrict out)
{
    for (int h = 0; h < PG_KW; h += PG_VW) {
        int64_t total[PG_KR][PG_VW];
        memset(total, 0, sizeof total);
        for (int64_t k0 = 0; k0 < Kp; k0 += PG_EXACT_CHUNK) {
            int64_t k1 = Kp - k0 < PG_EXACT_CHUNK ? Kp : k0 + PG_EXACT_CHUNK;
            vd acc[PG_KR];
            for (int r = 0; r < PG_KR; r++)
                acc[r] = (vd){0};
            for (int64_t k = k0; k < k1; k++) {
                vd b = PG_SFX(vloadd)(bvd + k * PG_KW + h);
                for (int r = 0; r < PG_KR; r++)
                    acc[r] = acc[r] + (double)av[k * PG_KR + r] * b;
            }
            for (int r = 0; r < PG_KR; r++)
                for (int l = 0; l < PG_VW; l++)
                    total[r][l] += (int64_t)(acc[r][l] * 0x1p18); /* an exact integer */
        }
        for (int r = 0; r < PG_KR; r++)
            for (int l = 0; l < PG_VW; l++)
                out[r * PG_KW + h + l] = (float)total[r][l] * 0x1p-18f; /* one RNE rounding */
    }
}

/* The exact double sums of products k0..k1 (all exact: k1 - k0 <= chunk). */
PG_TARGET PG_INLINE void PG_SFX(exact_sums)(const float *restrict av, const double *restrict bvd, int h, int64_t k0,
                                            int64_t k1, vd acc[PG_KR])
{
    for (int r = 0; r < PG_KR; r++)
        acc[r] = (vd){0};
    for (int64_t k = k0; k < k1; k++) {
        vd b = PG_SFX(vloadd)(bvd + k * PG_KW + h);
        for (int r = 0; r < PG_KR; r++)
            acc[r] = acc[r] + (double)av[k * PG_KR + r] * b;
    }
}

/* exact for any formats and groups: a group that fits one chunk is one
 * exact double, and its conversion to float is the one RNE rounding; a
 * longer group adds its chunks in int128 units of 2^unit. */
PG_TARGET static void PG_SFX(exact_wide)(const float *restrict av, const double *restrict bvd, int64_t Kp,
                                         const pg_kern_scaling *sc, int64_t chunk, int unit, float *restrict out)
{
    int64_t G = sc->gsa != NULL ? (int64_t)sc->promote_blocks * 32 : Kp;
    double to_units = ldexp(1.0, -unit);
    for (int h = 0; h < PG_KW; h += PG_VW) {
        vf prom[PG_KR];
        for (int r = 0; r < PG_KR; r++)
            prom[r] = (vf){0};
        for (int64_t g0 = 0; g0 < Kp; g0 += G) {
            int64_t g1 = Kp - g0 < G ? Kp : g0 + G;
            vd acc[PG_KR];
            vf val[PG_KR];
            if (g1 - g0 <= chunk) {
                PG_SFX(exact_sums)(av, bvd, h, g0, g1, acc);
                for (int r = 0; r < PG_KR; r++)
                    val[r] = __builtin_convertvector(acc[r], vf); /* one RNE rounding */
            } else {
                __int128 total[PG_KR][PG_VW];
                memset(total, 0, sizeof total);
                for (int64_t c0 = g0; c0 < g1; c0 += chunk) {
                    PG_SFX(exact_sums)(av, bvd, h, c0, g1 - c0 < chunk ? g1 : c0 + chunk, acc);
                    for (int r = 0; r < PG_KR; r++)
                        for (int l = 0; l < PG_VW; l++)
                            total[r][l] += (int64_t)(acc[r][l] * to_units); /* exact: < 2^53 units */
                }
                for (int r = 0; r < PG_KR; r++)
                    for (int l = 0; l < PG_VW; l++)
                        val[r][l] = pg_i128_to_f32(total[r][l], unit);
            }
            for (int r = 0; r < PG_KR; r++)
                prom[r] = sc->gsa != NULL ? PG_SFX(promote)(sc, g0 / G, r, h, val[r], prom[r]) : val[r];
        }
        for (int r = 0; r < PG_KR; r++)
            memcpy(out + r * PG_KW + h, &prom[r], sizeof prom[r]);
    }
}

/* The tensor-core kernels take emax from int8 exponents: one int8 vector
 * of PG_EW = 4 * PG_VW lanes (the same register width as a float vector)
 * per tile row covers PG_EW columns, so the max over a block costs one add
 * and one max per k and row for PG_EW outputs.  Rows go in groups of
 * PG_TR (per instruction set) so the state of a group fits the registers.  Exponents: operands
 * -9..8 (zero / NaN: PG_ZERO_EXP), products -120..16, C -100..127. */
#define PG_EW (4 * PG_VW)
typedef int8_t PG_SFX(v8) __attribute__((vector_size(PG_EW)));
typedef int8_t PG_SFX(v8s) __attribute__((vector_size(PG_VW)));
#define v8 PG_SFX(v8)
#define v8s PG_SFX(v8s)

PG_TARGET PG_INLINE v8 PG_SFX(vmax8)(v8 a, v8 b)
{
    v8 r;
    for (int l = 0; l < PG_EW; l++)
        r[l] = a[l] > b[l] ? a[l] : b[l];
    return r;
}

/* exponent of fp32 C (normal or zero under the chain invariant), floored at
 * -100 so the scale factors stay normal (only all-zero blocks notice). */
PG_TARGET PG_INLINE vi PG_SFX(c_exp)(vf c)
{
    vi e = (vi)(((vu)c >> 23) & 0xFFu) - 127;
    vi r;
    for (int l = 0; l < PG_VW; l++)
        r[l] = e[l] > -100 ? e[l] : -100;
    return r;
}

/* 2^e as a float vector (e in -126..127). */
PG_TARGET PG_INLINE vf PG_SFX(pow2)(vi e)
{
    return (vf)((vu)(e + 127) << 23);
}

/* One block's alignment for PG_TR rows x PG_VW columns: emax (with the MX
 * offset s of each output), the factor 2^(F + s - emax) that aligns a
 * product and 2^(F - emax) that aligns C. */
typedef struct {
    vi emax[4][PG_TR];
    vf pscale[4][PG_TR], cscale[4][PG_TR];
} PG_SFX(align);

/* Nonzero products have exponents >= -28 (E5M2 x E5M2 subnormals); a
 * product with a zero operand (PG_ZERO_EXP) has <= -45.  A block whose
 * largest product exponent is below this holds only zero products, which
 * do not take part in emax. */
#define PG_NONZERO_MIN_EXP (-40)

/* emax of one block for the PG_TR x PG_EW outputs: c[q][r] is the incoming
 * accumulator of column chunk q (PG_VW columns) and row r; MX offsets from
 * sc (rows g.., columns h..) when present. */
PG_TARGET PG_INLINE void PG_SFX(block_align)(const int8_t *restrict ae, const int8_t *restrict be, int64_t k0,
                                             const vf c[4][PG_TR], const pg_kern_scaling *sc, int g, int h, int F,
                                             PG_SFX(align) *al)
{
    /* the max over the block's products in int8, from the -100 floor; C's
     * exponent joins afterwards in int32 (cheaper than packing it into
     * int8 lanes first) */
    v8 ex[PG_TR];
    for (int r = 0; r < PG_TR; r++)
        ex[r] = (v8){0} - 100;
    for (int64_t k = k0; k < k0 + 32; k++) {
        v8 b;
        memcpy(&b, be + k * PG_KW, sizeof b);
        for (int r = 0; r < PG_TR; r++)
            ex[r] = PG_SFX(vmax8)(ex[r], b + ae[k * PG_KR + r]);
    }
    int64_t kb = k0 / 32;
    for (int r = 0; r < PG_TR; r++) {
        int8_t lanes[PG_EW];
        memcpy(lanes, &ex[r], sizeof lanes);
        for (int q = 0; q < 4; q++) {
            v8s e8;
            memcpy(&e8, lanes + q * PG_VW, sizeof e8);
            vi e = __builtin_convertvector(e8, vi), ce = PG_SFX(c_exp)(c[q][r]), s = (vi){0};
            if (sc->xa != NULL) {
                memcpy(&s, sc->xb + kb * PG_KW + h + q * PG_VW, sizeof s);
                s += sc->xa[kb * PG_KR + g + r];
            }
            vi m, pe;
            for (int l = 0; l < PG_VW; l++) {
                int ep = e[l] >= PG_NONZERO_MIN_EXP ? e[l] + s[l] : -1000;
                m[l] = ep > ce[l] ? ep : ce[l];
                int x = F + s[l] - m[l]; /* only all-zero blocks reach the clamps */
                pe[l] = x < -100 ? -100 : x > 127 ? 127 : x;
            }
            al->emax[q][r] = m;
            al->pscale[q][r] = PG_SFX(pow2)(pe);
            al->cscale[q][r] = PG_SFX(pow2)(F - m);
        }
    }
}

/* sm90 (or sm90-promote, block or MX scaled) on PG_EW columns of rows
 * g.. and columns h.. of the tile. */
PG_TARGET PG_INLINE void PG_SFX(sm90_sub)(const float *restrict av, const int8_t *restrict ae,
                                          const float *restrict bv, const int8_t *restrict be, int64_t Kp,
                                          const pg_kern_scaling *sc, int g, int h, float *restrict out)
{
    int pb = sc->promote_blocks;
    vf c[4][PG_TR], promoted[4][PG_TR];
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < PG_TR; r++)
            c[q][r] = promoted[q][r] = (vf){0};
    int64_t nblocks = Kp / 32;
    for (int64_t kb = 0; kb < nblocks; kb++) {
        if (pb > 0 && kb > 0 && kb % pb == 0) {
            for (int q = 0; q < 4; q++)
                for (int r = 0; r < PG_TR; r++) {
                    promoted[q][r] = PG_SFX(promote)(sc, kb / pb - 1, g + r, h + q * PG_VW, c[q][r], promoted[q][r]);
                    c[q][r] = (vf){0};
                }
        }
        PG_SFX(align) al;
        PG_SFX(block_align)(ae, be, kb * 32, c, sc, g, h, 13, &al);
        for (int q = 0; q < 4; q++) {
            vi s[PG_TR];
            for (int r = 0; r < PG_TR; r++)
                s[r] = __builtin_convertvector(c[q][r] * al.cscale[q][r], vi); /* truncates toward zero */
            for (int64_t k = kb * 32; k < kb * 32 + 32; k++) {
                vf b = PG_SFX(vload)(bv + k * PG_KW + q * PG_VW);
                for (int r = 0; r < PG_TR; r++)
                    s[r] += __builtin_convertvector(av[k * PG_KR + r] * b * al.pscale[q][r], vi);
            }
            for (int r = 0; r < PG_TR; r++) {
                /* |s| < 2^21: exact as a float; an integer 0 gives +0 */
                vf kept = (vf)((vu)__builtin_convertvector(s[r], vf) & 0xFFFFFC00u); /* 14 significant bits */
                c[q][r] = kept * PG_SFX(pow2)(al.emax[q][r] - 13);
            }
        }
    }
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < PG_TR; r++) {
            vf v = c[q][r];
            if (pb > 0)
                v = PG_SFX(promote)(sc, (nblocks - 1) / pb, g + r, h + q * PG_VW, c[q][r], promoted[q][r]);
            memcpy(out + r * PG_KW + q * PG_VW, &v, sizeof v);
        }
}

PG_TARGET static void PG_SFX(sm90)(const float *restrict av, const int8_t *restrict ae, const float *restrict bv,
                                   const int8_t *restrict be, int64_t Kp, const pg_kern_scaling *sc,
                                   float *restrict out)
{
    for (int g = 0; g < PG_KR; g += PG_TR)
        for (int h = 0; h < PG_KW; h += PG_EW)
            PG_SFX(sm90_sub)(av + g, ae + g, bv + h, be + h, Kp, sc, g, h, out + g * PG_KW + h);
}

/* sm100 on PG_EW columns: terms are below 2^27, so eight of them fit an
 * int32 partial sum; the block's four partials and C's term add exactly in
 * double (< 2^33). */
PG_TARGET PG_INLINE void PG_SFX(sm100_sub)(const float *restrict av, const int8_t *restrict ae,
                                           const float *restrict bv, const int8_t *restrict be, int64_t Kp,
                                           const pg_kern_scaling *sc, int g, int h, float *restrict out)
{
    int pb = sc->promote_blocks;
    vf c[4][PG_TR], promoted[4][PG_TR];
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < PG_TR; r++)
            c[q][r] = promoted[q][r] = (vf){0};
    int64_t nblocks = Kp / 32;
    for (int64_t kb = 0; kb < nblocks; kb++) {
        if (pb > 0 && kb > 0 && kb % pb == 0) {
            for (int q = 0; q < 4; q++)
                for (int r = 0; r < PG_TR; r++) {
                    promoted[q][r] = PG_SFX(promote)(sc, kb / pb - 1, g + r, h + q * PG_VW, c[q][r], promoted[q][r]);
                    c[q][r] = (vf){0};
                }
        }
        PG_SFX(align) al;
        PG_SFX(block_align)(ae, be, kb * 32, c, sc, g, h, 25, &al);
        for (int q = 0; q < 4; q++) {
            vd s[PG_TR];
            for (int r = 0; r < PG_TR; r++)
                s[r] = __builtin_convertvector(__builtin_convertvector(c[q][r] * al.cscale[q][r], vi), vd); /* < 2^26 */
            for (int64_t k8 = kb * 32; k8 < kb * 32 + 32; k8 += 8) {
                vi part[PG_TR];
                for (int r = 0; r < PG_TR; r++)
                    part[r] = (vi){0};
                for (int64_t k = k8; k < k8 + 8; k++) {
                    vf b = PG_SFX(vload)(bv + k * PG_KW + q * PG_VW);
                    for (int r = 0; r < PG_TR; r++)
                        part[r] += __builtin_convertvector(av[k * PG_KR + r] * b * al.pscale[q][r], vi);
                }
                for (int r = 0; r < PG_TR; r++)
                    s[r] = s[r] + __builtin_convertvector(part[r], vd); /* exact: < 2^33 */
            }
            for (int r = 0; r < PG_TR; r++) {
                /* keep 24 significant bits of the double (clear its 29 low
                 * bits); an integer 0 gives +0 */
                vd kept = (vd)((vq)s[r] & ~((UINT64_C(1) << 29) - 1));
                c[q][r] = __builtin_convertvector(kept, vf) * PG_SFX(pow2)(al.emax[q][r] - 25);
            }
        }
    }
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < PG_TR; r++) {
            vf v = c[q][r];
            if (pb > 0)
                v = PG_SFX(promote)(sc, (nblocks - 1) / pb, g + r, h + q * PG_VW, c[q][r], promoted[q][r]);
            memcpy(out + r * PG_KW + q * PG_VW, &v, sizeof v);
        }
}

PG_TARGET static void PG_SFX(sm100)(const float *restrict av, const int8_t *restrict ae, const float *restrict bv,
                                    const int8_t *restrict be, int64_t Kp, const pg_kern_scaling *sc,
                                    float *restrict out)
{
    for (int g = 0; g < PG_KR; g += PG_TR)
        for (int h = 0; h < PG_KW; h += PG_EW)
            PG_SFX(sm100_sub)(av + g, ae + g, bv + h, be + h, Kp, sc, g, h, out + g * PG_KW + h);
}

#undef PG_NONZERO_MIN_EXP
#undef v8
#undef v8s
#undef PG_EW
#undef vf
#undef vi
#undef vu
#undef vd
#undef vq
