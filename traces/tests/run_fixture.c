#include "run_fixture.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_error.h"

/* splitmix64: cheap, deterministic, and every bit varies. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    assert_non_null(p);
    return p;
}

static const char *const k_timing_names[] = {"fused", "copy", "cublaslt_gemm", "cublaslt_bias", "add_kernel"};

void fx_make_run(pg_run *run, const fx_spec *spec)
{
    uint64_t s = 12345 + spec->salt;
    memset(run, 0, sizeof *run);
    pg_problem *p = &run->problem;
    p->shape = (pg_shape){spec->M, spec->N, spec->K, spec->P};
    snprintf(p->family, sizeof p->family, "normal");
    p->seed = 0xFEEDFACECAFEBEEFull ^ spec->salt; /* above INT64_MAX: uint64 must round-trip */
    p->A = xmalloc((size_t)(spec->M * spec->K));
    p->B = xmalloc((size_t)(spec->N * spec->K));
    p->combined = xmalloc((size_t)(spec->P * spec->N) * sizeof *p->combined);
    for (int64_t i = 0; i < spec->M * spec->K; i++)
        p->A[i] = (uint8_t)mix(&s);
    for (int64_t i = 0; i < spec->N * spec->K; i++)
        p->B[i] = (uint8_t)mix(&s);
    for (int64_t i = 0; i < spec->P * spec->N; i++)
        p->combined[i] = (uint16_t)mix(&s);

    run->mode = PG_ACC_SM90_PROMOTE;
    run->epilogue = PG_EPI_SINGLE;
    if (spec->subset) {
        /* rows 0, then every third, then M-1: increasing, first and last included. */
        run->rows = xmalloc((size_t)spec->M * sizeof *run->rows);
        int64_t n = 0;
        for (int64_t r = 0; r < spec->M - 1; r += 3)
            run->rows[n++] = r;
        run->rows[n++] = spec->M - 1;
        run->nrows = n;
    } else {
        run->nrows = spec->M;
    }
    size_t out = (size_t)(run->nrows * spec->N);
    run->D = xmalloc(out * sizeof *run->D);
    for (size_t i = 0; i < out; i++)
        run->D[i] = (uint16_t)mix(&s);
    if (spec->accumulator) {
        run->acc = xmalloc(out * sizeof *run->acc);
        for (size_t i = 0; i < out; i++)
            run->acc[i] = pg_f32_from_bits((uint32_t)mix(&s)); /* any bits, NaNs included */
    }
    if (spec->kernel) {
        pg_kernel_info *k = &run->kernel;
        k->present = 1;
        snprintf(k->name, sizeof k->name, "h100-pingpong-v%llu", (unsigned long long)spec->salt);
        snprintf(k->device, sizeof k->device, "NVIDIA H100 80GB HBM3");
        k->sm_count = 132;
        k->sm_clock_hz = 1.755e9 + (double)spec->salt;
        k->tile_m = 128, k->tile_n = 256, k->tile_k = 128, k->stages = 4, k->consumers = 2;
        k->trace_build = 1;
        k->epi_delay = 1500;
        k->mainloop_delay = 7;
        k->l2_bytes = spec->salt % 2 ? 52428800 : 0; /* optional: written only when recorded */
        k->cluster = spec->salt % 2 ? 2 : 0;         /* optional too */
    }
    for (int t = 0; t < spec->ntimings; t++) {
        double ms[25];
        for (int i = 0; i < 25; i++)
            ms[i] = 1.0 + (double)(mix(&s) % 1000) / 997.0;
        assert_int_equal(pg_run_add_timing(run, k_timing_names[t], ms, 20 + t, 1.095e12 * t, 2.14e9 + t), 0);
    }
    if (spec->trace) {
        pg_trace *t = &run->trace;
        assert_int_equal(pg_trace_alloc(t, spec->trace_n ? spec->trace_n : 50, 4), 0);
        pg_vocab_pegemm(&t->vocab);
        for (int64_t i = 0; i < t->n; i++) {
            t->sm[i] = (int32_t)(i % 4);
            t->role[i] = (uint8_t)(i % PG_ROLE_COUNT);
            t->warp[i] = (int32_t)(i % 2);
            t->tile[i] = (int32_t)(i / 3);
            t->phase[i] = (uint8_t)(i % PG_PH_COUNT);
            t->begin[i] = (int64_t)(mix(&s) >> 20);
            t->end[i] = t->begin[i] + (int64_t)(mix(&s) % 10000);
        }
        for (int64_t i = 0; i < t->n_sm; i++) {
            t->anchor_clock[i] = (int64_t)(mix(&s) >> 4);
            t->anchor_globaltimer_ns[i] = (int64_t)(mix(&s) >> 4);
        }
    }
}

void fx_assert_runs_equal(const pg_run *want, const pg_run *got, unsigned what)
{
    const pg_problem *a = &want->problem, *b = &got->problem;
    assert_memory_equal(&a->shape, &b->shape, sizeof a->shape);
    assert_string_equal(a->family, b->family);
    assert_true(a->seed == b->seed);
    if (what & PG_READ_PROBLEM) {
        assert_non_null(b->A);
        assert_memory_equal(a->A, b->A, (size_t)(a->shape.M * a->shape.K));
        assert_memory_equal(a->B, b->B, (size_t)(a->shape.N * a->shape.K));
        assert_memory_equal(a->combined, b->combined, (size_t)(a->shape.P * a->shape.N) * 2);
    } else {
        assert_null(b->A);
    }
    size_t out = (size_t)(want->nrows * want->problem.shape.N);
    if ((what & PG_READ_OUTPUT) && want->nrows > 0) {
        assert_int_equal(want->nrows, got->nrows);
        assert_int_equal(want->mode, got->mode);
        assert_int_equal(want->epilogue, got->epilogue);
        if (want->rows) {
            assert_non_null(got->rows);
            assert_memory_equal(want->rows, got->rows, (size_t)want->nrows * sizeof *want->rows);
        } else {
            assert_null(got->rows);
        }
        assert_memory_equal(want->D, got->D, out * sizeof *want->D);
        if (want->acc)
            assert_memory_equal(want->acc, got->acc, out * sizeof *want->acc); /* bits, NaNs included */
        else
            assert_null(got->acc);
    } else {
        /* not asked for (or absent): empty */
        assert_int_equal(got->nrows, 0);
        assert_null(got->rows);
        assert_null(got->D);
        assert_null(got->acc);
    }
    assert_int_equal(want->kernel.present, got->kernel.present);
    if (want->kernel.present) {
        const pg_kernel_info *x = &want->kernel, *y = &got->kernel;
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->device, y->device);
        assert_int_equal(x->sm_count, y->sm_count);
        assert_true(x->sm_clock_hz == y->sm_clock_hz);
        assert_int_equal(x->tile_m, y->tile_m);
        assert_int_equal(x->tile_n, y->tile_n);
        assert_int_equal(x->tile_k, y->tile_k);
        assert_int_equal(x->stages, y->stages);
        assert_int_equal(x->consumers, y->consumers);
        assert_int_equal(x->trace_build, y->trace_build);
        assert_int_equal(x->epi_delay, y->epi_delay);
        assert_int_equal(x->mainloop_delay, y->mainloop_delay);
        assert_int_equal(x->l2_bytes, y->l2_bytes);
        assert_int_equal(x->cluster, y->cluster);
    }
    assert_int_equal(want->ntimings, got->ntimings);
    for (int i = 0; i < want->ntimings; i++) {
        const pg_timing *x = &want->timings[i], *y = &got->timings[i];
        assert_string_equal(x->name, y->name); /* order kept, not alphabetical */
        assert_int_equal(x->n, y->n);
        assert_memory_equal(x->ms, y->ms, (size_t)x->n * sizeof *x->ms);
        assert_true(x->flops == y->flops);
        assert_true(x->bytes == y->bytes);
    }
    const pg_trace *x = &want->trace, *y = &got->trace;
    if ((what & PG_READ_TRACE) && x->n > 0) {
        assert_int_equal(x->n, y->n);
        assert_int_equal(x->n_sm, y->n_sm);
        size_t n = (size_t)x->n, m = (size_t)x->n_sm;
        assert_memory_equal(x->sm, y->sm, n * sizeof *x->sm);
        assert_memory_equal(x->role, y->role, n * sizeof *x->role);
        assert_memory_equal(x->warp, y->warp, n * sizeof *x->warp);
        assert_memory_equal(x->tile, y->tile, n * sizeof *x->tile);
        assert_memory_equal(x->phase, y->phase, n * sizeof *x->phase);
        assert_memory_equal(x->begin, y->begin, n * sizeof *x->begin);
        assert_memory_equal(x->end, y->end, n * sizeof *x->end);
        assert_memory_equal(x->anchor_clock, y->anchor_clock, m * sizeof *x->anchor_clock);
        assert_memory_equal(x->anchor_globaltimer_ns, y->anchor_globaltimer_ns, m * sizeof *x->anchor_clock);
    } else {
        assert_int_equal(y->n, 0);
        assert_int_equal(y->n_sm, 0);
        assert_null(y->sm);
        assert_null(y->begin);
    }
}

char *fx_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = fx_path(base && *base ? base : "/tmp", "pegemm-traces-test.XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

void fx_rmtree(char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = fx_path(dir, e->d_name);
        if (unlink(p) != 0)
            rmdir(p); /* the tests' directories-in-the-way are empty */
        free(p);
    }
    closedir(d);
    assert_int_equal(rmdir(dir), 0);
    free(dir);
}

char *fx_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

unsigned char *fx_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    unsigned char *buf = xmalloc(cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

int fx_count_temp_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp."))
            n++;
    closedir(d);
    return n;
}

static hid_t open_rw(const char *file)
{
    hid_t f = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    return f;
}

void fx_h5_delete(const char *file, const char *obj)
{
    hid_t f = open_rw(file);
    assert_true(H5Ldelete(f, obj, H5P_DEFAULT) >= 0);
    assert_true(H5Fclose(f) >= 0);
}

void fx_h5_write_dataset(const char *file, const char *obj, hid_t mem_type, hid_t file_type, int rank,
                         const hsize_t *dims, const void *data)
{
    hid_t f = open_rw(file);
    if (H5Lexists(f, obj, H5P_DEFAULT) > 0)
        assert_true(H5Ldelete(f, obj, H5P_DEFAULT) >= 0);
    hid_t space = H5Screate_simple(rank, dims, NULL);
    assert_true(space >= 0);
    hid_t d = H5Dcreate2(f, obj, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(d >= 0);
    assert_true(H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    H5Dclose(d);
    H5Sclose(space);
    assert_true(H5Fclose(f) >= 0);
}

static hid_t recreate_attr(hid_t f, const char *obj, const char *name, hid_t type)
{
    if (H5Aexists_by_name(f, obj, name, H5P_DEFAULT) > 0)
        assert_true(H5Adelete_by_name(f, obj, name, H5P_DEFAULT) >= 0);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate_by_name(f, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    H5Sclose(space);
    return a;
}

static void set_attr(const char *file, const char *obj, const char *name, hid_t file_type, hid_t mem_type,
                     const void *v)
{
    hid_t f = open_rw(file);
    hid_t a = recreate_attr(f, obj, name, file_type);
    assert_true(H5Awrite(a, mem_type, v) >= 0);
    H5Aclose(a);
    assert_true(H5Fclose(f) >= 0);
}

void fx_h5_set_attr_i64(const char *file, const char *obj, const char *name, int64_t v)
{
    set_attr(file, obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

void fx_h5_set_attr_u64(const char *file, const char *obj, const char *name, uint64_t v)
{
    set_attr(file, obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &v);
}

void fx_h5_set_attr_f64(const char *file, const char *obj, const char *name, double v)
{
    set_attr(file, obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

void fx_h5_declare_dataset(const char *file, const char *obj, hid_t file_type, hsize_t n, int how)
{
    hid_t f = open_rw(file);
    if (H5Lexists(f, obj, H5P_DEFAULT) > 0)
        assert_true(H5Ldelete(f, obj, H5P_DEFAULT) >= 0);
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    assert_true(space >= 0 && dcpl >= 0);
    if (how == FX_DECLARE_FILLED) {
        hsize_t chunk = n < ((hsize_t)1 << 20) ? n : ((hsize_t)1 << 20);
        assert_true(H5Pset_chunk(dcpl, 1, &chunk) >= 0 && H5Pset_deflate(dcpl, 1) >= 0);
        assert_true(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY) >= 0);
        assert_true(H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC) >= 0);
    } else if (how == FX_DECLARE_EXTERNAL) {
        assert_true(H5Pset_external(dcpl, "/etc/hostname", 0, H5F_UNLIMITED) >= 0);
    }
    hid_t d = H5Dcreate2(f, obj, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(d >= 0);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(space);
    assert_true(H5Fclose(f) >= 0);
}

void fx_h5_set_attr_str(const char *file, const char *obj, const char *name, const char *s)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(t, H5T_VARIABLE) >= 0);
    set_attr(file, obj, name, t, t, &s);
    H5Tclose(t);
}

void fx_h5_set_attr_strs(const char *file, const char *obj, const char *name, const char *const *strs, hsize_t n)
{
    hid_t f = open_rw(file);
    if (H5Aexists_by_name(f, obj, name, H5P_DEFAULT) > 0)
        assert_true(H5Adelete_by_name(f, obj, name, H5P_DEFAULT) >= 0);
    hid_t t = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(t, H5T_VARIABLE) >= 0);
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate_by_name(f, obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Awrite(a, t, strs) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    assert_true(H5Fclose(f) >= 0);
}

void fx_h5_delete_attr(const char *file, const char *obj, const char *name)
{
    hid_t f = open_rw(file);
    assert_true(H5Adelete_by_name(f, obj, name, H5P_DEFAULT) >= 0);
    assert_true(H5Fclose(f) >= 0);
}

void fx_expect_read_error(const char *path, unsigned what, const char *needle)
{
    pg_run run;
    pg_clear_error();
    int rc = pg_run_read(path, &run, what);
    const char *msg = pg_last_error();
    if (getenv("PG_TEST_VERBOSE"))
        fprintf(stderr, "    message: %s\n", msg);
    if (rc == 0)
        fail_msg("reading %s succeeded; expected an error saying '%s'", path, needle);
    if (!strstr(msg, needle))
        fail_msg("message '%s' does not say '%s'", msg, needle);
    if (!strstr(msg, path))
        fail_msg("message '%s' does not name the file %s", msg, path);
    /* a failed read leaves nothing allocated */
    assert_null(run.D);
    assert_null(run.rows);
    assert_null(run.problem.A);
    assert_null(run.trace.sm);
    assert_int_equal(run.nrows, 0);
    assert_int_equal(run.ntimings, 0);
}
