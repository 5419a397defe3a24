/* The contents of a run file: every group, dataset and attribute of schema
 * v2 (docs/format.md), built in memory.  pg_run_write (runfile_atomic.c)
 * puts the bytes on disk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5io.h"
#include "pg_error.h"
#include "problem_ref.h"
#include "problem_terms.h"
#include "runfile.h"
#include "runfile_internal.h"

#ifndef PG_VERSION
#define PG_VERSION "unknown"
#endif

/* A group; `track_order` keeps link creation order so readers list the
 * members (timing sets) in the order they were added. */
static hid_t make_group(hid_t file, const char *name, int track_order)
{
    hid_t gcpl = -1, g = -1;
    if ((gcpl = H5Pcreate(H5P_GROUP_CREATE)) < 0 || H5Pset_obj_track_times(gcpl, 0) < 0)
        goto done;
    if (track_order && H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0)
        goto done;
    g = H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
done:
    if (gcpl >= 0)
        H5Pclose(gcpl);
    if (g < 0) {
        char what[128];
        snprintf(what, sizeof what, "cannot create group %s", name);
        pg_h5_fail(what);
    }
    return g;
}

/* The general problem's terms (schema v2): attributes always, so a
 * generated problem is regenerated with the same terms; the arrays with
 * the stored inputs. */
static int write_terms(hid_t g, const pg_problem *p, int store)
{
    const char *o = "/problem";
    const char *bias = p->has_bias ? pg_out_dtype_name((pg_out_dtype)p->bias_dtype) : "none";
    if (pg_h5_attr_write_str(g, o, "fmt_a", pg_fp8_format_name((pg_fp8_format)p->fmt_a)) < 0 ||
        pg_h5_attr_write_str(g, o, "fmt_b", pg_fp8_format_name((pg_fp8_format)p->fmt_b)) < 0 ||
        pg_h5_attr_write_str(g, o, "scale", pg_scale_kind_name((pg_scale_kind)p->scale)) < 0 ||
        pg_h5_attr_write_str(g, o, "bias_dtype", bias) < 0 ||
        pg_h5_attr_write_str(g, o, "out_dtype", pg_out_dtype_name((pg_out_dtype)p->out)) < 0)
        return -1;
    if (!store)
        return 0;
    int64_t da[2], db[2];
    int rank = pg_scale_dims((pg_scale_kind)p->scale, &p->shape, da, db);
    int mx = p->scale == PG_SCALE_MX;
    const pg_h5_kind *sk = mx ? &PG_H5_U8 : &PG_H5_F32;
    if (rank > 0 && (pg_h5_dataset_write(g, o, "scale_a", sk, rank, da, mx ? (const void *)p->mx_a : p->scale_a) < 0 ||
                     pg_h5_dataset_write(g, o, "scale_b", sk, rank, db, mx ? (const void *)p->mx_b : p->scale_b) < 0))
        return -1;
    if (!p->has_bias)
        return 0;
    int64_t n = p->shape.N;
    if (p->bias_dtype == PG_OUT_FP32)
        return pg_h5_dataset_write(g, o, "bias", &PG_H5_F32, 1, &n, p->bias);
    uint16_t *bits = malloc((size_t)n * sizeof *bits);
    if (bits == NULL)
        return pg_fail("out of memory for the bias");
    for (int64_t i = 0; i < n; i++)
        bits[i] = p->bias_dtype == PG_OUT_BF16 ? pg_bf16_from_f32(p->bias[i]) : pg_fp16_from_f32(p->bias[i]);
    int rc = pg_h5_dataset_write(g, o, "bias", &PG_H5_U16, 1, &n, bits);
    free(bits);
    return rc;
}

static int write_problem(hid_t file, const pg_problem *p, int store)
{
    int rc = -1;
    const pg_shape *s = &p->shape;
    hid_t g = make_group(file, "/problem", 0);
    if (g < 0)
        return -1;
    if (pg_h5_attr_write_i64(g, "/problem", "M", s->M) < 0 || pg_h5_attr_write_i64(g, "/problem", "N", s->N) < 0 ||
        pg_h5_attr_write_i64(g, "/problem", "K", s->K) < 0 || pg_h5_attr_write_i64(g, "/problem", "P", s->P) < 0 ||
        pg_h5_attr_write_str(g, "/problem", "family", p->family) < 0 ||
        pg_h5_attr_write_u64(g, "/problem", "seed", p->seed) < 0)
        goto done;
    if (store) {
        int64_t a[2] = {s->M, s->K}, b[2] = {s->N, s->K}, c[2] = {s->P, s->N};
        if (pg_h5_dataset_write(g, "/problem", "A", &PG_H5_U8, 2, a, p->A) < 0 ||
            pg_h5_dataset_write(g, "/problem", "B", &PG_H5_U8, 2, b, p->B) < 0 ||
            (s->P > 0 && pg_h5_dataset_write(g, "/problem", "combined", &PG_H5_U16, 2, c, p->combined) < 0))
            goto done;
    }
    if (write_terms(g, p, store) < 0)
        goto done;
    rc = 0;
done:
    rc = pg_h5_close(g, H5Gclose, rc, "cannot close /problem");
    return rc;
}

/* The accumulation parameter set, field by field (accum_*), and the
 * description of what the outputs are. */
static int write_accum(hid_t g, const pg_run *run)
{
    const char *o = "/output";
    const pg_accum_params *a = run->accum.name ? &run->accum : pg_accum_preset(run->mode);
    int mode = pg_accum_params_mode(a);
    char what[200];
    pg_problem_ref_describe(&run->problem, a, run->library[0] ? pg_lib_epilogue_find(run->library) : NULL,
                            run->epilogue, what, sizeof what);
    if (pg_h5_attr_write_str(g, o, "mode", mode >= 0 ? pg_accum_name((pg_accum_mode)mode) : "custom") < 0 ||
        pg_h5_attr_write_str(g, o, "accum_kind", pg_sum_kind_name(a->kind)) < 0 ||
        pg_h5_attr_write_i64(g, o, "accum_block_k", a->block_k) < 0 ||
        pg_h5_attr_write_i64(g, o, "accum_align_frac_bits", a->align_frac_bits) < 0 ||
        pg_h5_attr_write_str(g, o, "accum_align_round", pg_rounding_name(a->align_round)) < 0 ||
        pg_h5_attr_write_i64(g, o, "accum_out_frac_bits", a->out_frac_bits) < 0 ||
        pg_h5_attr_write_str(g, o, "accum_out_round", pg_rounding_name(a->out_round)) < 0 ||
        pg_h5_attr_write_i64(g, o, "accum_promote_k", a->promote_k) < 0 ||
        pg_h5_attr_write_str(g, o, "accum_c_entry", pg_c_entry_name(a->c_entry)) < 0 ||
        pg_h5_attr_write_str(g, o, "description", what) < 0)
        return -1;
    if (run->library[0] && pg_h5_attr_write_str(g, o, "library", run->library) < 0)
        return -1;
    return 0;
}

static int write_output(hid_t file, const pg_run *run)
{
    if (run->nrows == 0)
        return 0;
    int rc = -1;
    hid_t g = make_group(file, "/output", 0);
    if (g < 0)
        return -1;
    int64_t d[2] = {run->nrows, run->problem.shape.N};
    int fp32 = run->problem.out == PG_OUT_FP32;
    /* fp32 outputs: float32 holding the exact bits (NaN payloads kept) */
    if (write_accum(g, run) < 0 ||
        pg_h5_attr_write_str(g, "/output", "epilogue", pg_epilogue_name(run->epilogue)) < 0 ||
        pg_h5_dataset_write(g, "/output", "D", fp32 ? &PG_H5_F32 : &PG_H5_U16, 2, d,
                            fp32 ? (const void *)run->D32 : (const void *)run->D) < 0)
        goto done;
    if (run->rows && pg_h5_dataset_write(g, "/output", "rows", &PG_H5_I64, 1, d, run->rows) < 0)
        goto done;
    if (run->acc && pg_h5_dataset_write(g, "/output", "accumulator", &PG_H5_F32, 2, d, run->acc) < 0)
        goto done;
    rc = 0;
done:
    rc = pg_h5_close(g, H5Gclose, rc, "cannot close /output");
    return rc;
}

static int write_kernel(hid_t file, const pg_kernel_info *k)
{
    if (!k->present)
        return 0;
    int rc = -1;
    const char *o = "/kernel";
    hid_t g = make_group(file, o, 0);
    if (g < 0)
        return -1;
    if (pg_h5_attr_write_str(g, o, "name", k->name) < 0 || pg_h5_attr_write_str(g, o, "device", k->device) < 0 ||
        pg_h5_attr_write_i64(g, o, "sm_count", k->sm_count) < 0 ||
        pg_h5_attr_write_f64(g, o, "sm_clock_hz", k->sm_clock_hz) < 0 ||
        pg_h5_attr_write_i64(g, o, "tile_m", k->tile_m) < 0 || pg_h5_attr_write_i64(g, o, "tile_n", k->tile_n) < 0 ||
        pg_h5_attr_write_i64(g, o, "tile_k", k->tile_k) < 0 || pg_h5_attr_write_i64(g, o, "stages", k->stages) < 0 ||
        pg_h5_attr_write_i64(g, o, "consumers", k->consumers) < 0 ||
        pg_h5_attr_write_i64(g, o, "trace_build", k->trace_build) < 0 ||
        pg_h5_attr_write_i64(g, o, "epi_delay", k->epi_delay) < 0 ||
        pg_h5_attr_write_i64(g, o, "mainloop_delay", k->mainloop_delay) < 0)
        goto done;
    if (k->l2_bytes > 0 && pg_h5_attr_write_i64(g, o, "l2_bytes", k->l2_bytes) < 0)
        goto done;
    if (k->cluster > 0 && pg_h5_attr_write_i64(g, o, "cluster", k->cluster) < 0)
        goto done;
    rc = 0;
done:
    rc = pg_h5_close(g, H5Gclose, rc, "cannot close /kernel");
    return rc;
}

static int write_timings(hid_t file, const pg_run *run)
{
    if (run->ntimings == 0)
        return 0;
    int rc = -1;
    hid_t g = make_group(file, "/timing", 1), d = -1;
    if (g < 0)
        return -1;
    for (int i = 0; i < run->ntimings; i++) {
        const pg_timing *t = &run->timings[i];
        char obj[80];
        snprintf(obj, sizeof obj, "/timing/%s", t->name);
        if (pg_h5_dataset_write(g, "/timing", t->name, &PG_H5_F64, 1, &t->n, t->ms) < 0)
            goto done;
        if ((d = H5Dopen2(g, t->name, H5P_DEFAULT)) < 0) {
            pg_h5_fail("cannot reopen a timing dataset");
            goto done;
        }
        if (pg_h5_attr_write_f64(d, obj, "flops", t->flops) < 0 || pg_h5_attr_write_f64(d, obj, "bytes", t->bytes) < 0)
            goto done;
        if (H5Dclose(d) < 0) {
            d = -1;
            pg_h5_fail("cannot close a timing dataset");
            goto done;
        }
        d = -1;
    }
    rc = 0;
done:
    if (d >= 0)
        H5Dclose(d);
    rc = pg_h5_close(g, H5Gclose, rc, "cannot close /timing");
    return rc;
}

static int write_trace(hid_t file, const pg_trace *t)
{
    if (t->n == 0)
        return 0;
    int rc = -1;
    const char *o = "/trace";
    const pg_vocab *v = &t->vocab;
    if (v->n_roles == 0 || v->n_phases == 0)
        return pg_fail("/trace: the trace has no vocabulary (set its role and phase names)");
    if (pg_vocab_check(v) < 0)
        return pg_fail_context("/trace vocabulary");
    const char *phases[PG_VOCAB_MAX_PHASES], *roles[PG_VOCAB_MAX_ROLES];
    for (int i = 0; i < v->n_phases; i++)
        phases[i] = v->phase[i];
    for (int i = 0; i < v->n_roles; i++)
        roles[i] = v->role[i];
    const int64_t n_phases = v->n_phases;
    hid_t g = make_group(file, o, 0);
    if (g < 0)
        return -1;
    if (pg_h5_attr_write_strs(g, o, "phase_names", phases, (size_t)v->n_phases) < 0 ||
        (t->kernel[0] && pg_h5_attr_write_str(g, o, "kernel", t->kernel) < 0) ||
        (t->clock_hz > 0 && pg_h5_attr_write_f64(g, o, "clock_hz", t->clock_hz) < 0) ||
        pg_h5_attr_write_strs(g, o, "role_names", roles, (size_t)v->n_roles) < 0 ||
        pg_h5_dataset_write(g, o, "phase_is_wait", &PG_H5_U8, 1, &n_phases, v->phase_is_wait) < 0 ||
        (t->schedule[0] && pg_h5_attr_write_str(g, o, "schedule", t->schedule) < 0) ||
        pg_h5_dataset_write(g, o, "sm", &PG_H5_I32, 1, &t->n, t->sm) < 0 ||
        pg_h5_dataset_write(g, o, "role", &PG_H5_U8, 1, &t->n, t->role) < 0 ||
        pg_h5_dataset_write(g, o, "warp", &PG_H5_I32, 1, &t->n, t->warp) < 0 ||
        pg_h5_dataset_write(g, o, "tile", &PG_H5_I32, 1, &t->n, t->tile) < 0 ||
        pg_h5_dataset_write(g, o, "phase", &PG_H5_U8, 1, &t->n, t->phase) < 0 ||
        pg_h5_dataset_write(g, o, "begin", &PG_H5_I64, 1, &t->n, t->begin) < 0 ||
        pg_h5_dataset_write(g, o, "end", &PG_H5_I64, 1, &t->n, t->end) < 0 ||
        pg_h5_dataset_write(g, o, "anchor_clock", &PG_H5_I64, 1, &t->n_sm, t->anchor_clock) < 0 ||
        pg_h5_dataset_write(g, o, "anchor_globaltimer_ns", &PG_H5_I64, 1, &t->n_sm, t->anchor_globaltimer_ns) < 0)
        goto done;
    rc = 0;
done:
    rc = pg_h5_close(g, H5Gclose, rc, "cannot close /trace");
    return rc;
}

static int write_contents(hid_t file, const pg_run *run, int store_problem)
{
    char created_by[96];
    snprintf(created_by, sizeof created_by, "pegemm %s (HDF5 %d.%d.%d)", PG_VERSION, H5_VERS_MAJOR, H5_VERS_MINOR,
             H5_VERS_RELEASE);
    if (pg_h5_attr_write_i64(file, "/", "pegemm_schema_version", PG_RUN_SCHEMA_VERSION) < 0 ||
        pg_h5_attr_write_str(file, "/", "created_by", created_by) < 0)
        return -1;
    int store = store_problem || strcmp(run->problem.family, "file") == 0;
    int has_problem = run->problem.shape.M != 0;
    if ((has_problem && write_problem(file, &run->problem, store) < 0) || write_output(file, run) < 0 ||
        write_kernel(file, &run->kernel) < 0 || write_timings(file, run) < 0 || write_trace(file, &run->trace) < 0)
        return -1;
    return 0;
}

/* Grow the in-memory file in steps of this much. */
#define CORE_INCREMENT ((size_t)16 << 20)

/* Build the whole file in memory (HDF5's core driver, no backing store)
 * and return a malloc'd copy of its bytes.  HDF5 then never touches the
 * disk: in HDF5 1.10 an H5Fclose that fails on a write error (disk full)
 * leaves a dangling file id that crashes the process at exit, so all file
 * I/O, and every error it can raise, stays in our own code. */
unsigned char *pg_runfile_build_image(const char *name, const pg_run *run, int store_problem, size_t *size)
{
    hid_t fapl = -1, file = -1;
    unsigned char *image = NULL;
    int ok = 0;
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 || H5Pset_fapl_core(fapl, CORE_INCREMENT, 0) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        pg_h5_fail("cannot set up an in-memory HDF5 file");
        goto done;
    }
    if ((file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0) {
        pg_h5_fail("cannot create an in-memory HDF5 file");
        goto done;
    }
    if (write_contents(file, run, store_problem) < 0)
        goto done;
    if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) {
        pg_h5_fail("cannot finish the file");
        goto done;
    }
    ssize_t n = H5Fget_file_image(file, NULL, 0);
    if (n <= 0) {
        pg_h5_fail("cannot size the file image");
        goto done;
    }
    if ((image = malloc((size_t)n)) == NULL) {
        pg_fail("out of memory for the %zd-byte file image", n);
        goto done;
    }
    if (H5Fget_file_image(file, image, (size_t)n) != n) {
        pg_h5_fail("cannot copy the file image");
        goto done;
    }
    *size = (size_t)n;
    ok = 1;
done:
    if (file >= 0 && H5Fclose(file) < 0 && ok) {
        pg_h5_fail("cannot close the in-memory file");
        ok = 0;
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    if (!ok) {
        free(image);
        image = NULL;
    }
    return image;
}
