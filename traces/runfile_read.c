/* pg_run_read: open a run file, check the schema version, and read and
 * validate /problem and /output (the other sections: runfile_read_extras.c).
 * Everything is checked against the problem attributes before any data is
 * trusted, and every message names the file, the dataset and the problem. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h5io.h"
#include "inputs.h"
#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_outpath.h"
#include "problem_terms.h"
#include "runfile.h"
#include "runfile_internal.h"

int pg_runfile_open_group(hid_t file, const char *path, hid_t *g)
{
    *g = -1;
    int e = pg_h5_exists(file, path);
    if (e <= 0)
        return e;
    hid_t obj = H5Oopen(file, path, H5P_DEFAULT);
    if (obj < 0) {
        char what[128];
        snprintf(what, sizeof what, "cannot open %s", path);
        return pg_h5_fail(what);
    }
    if (H5Iget_type(obj) != H5I_GROUP) {
        H5Oclose(obj);
        return pg_fail("%s is not a group", path);
    }
    *g = obj;
    return 1;
}

int pg_runfile_check_regular(const char *path)
{
    int fd = pg_input_open(path, NULL); /* a regular file, registered as an input */
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Reasons a path cannot be read are clearer from errno than from HDF5. */
static hid_t open_file(const char *path)
{
    hid_t fapl = -1, file = -1;
    if (pg_runfile_check_regular(path) < 0)
        return -1;
#if H5_VERSION_GE(1, 12, 0)
    htri_t is_h5 = H5Fis_accessible(path, H5P_DEFAULT); /* H5Fis_hdf5 is deprecated from 1.12 */
#else
    htri_t is_h5 = H5Fis_hdf5(path);
#endif
    if (is_h5 <= 0) {
        pg_h5_fail("not an HDF5 file or truncated");
        return -1;
    }
    /* STRONG close: closing the file closes anything a failed check left. */
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        pg_h5_fail("cannot set up file access");
        goto done;
    }
    if ((file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0)
        pg_h5_fail("not an HDF5 file or truncated");
done:
    if (fapl >= 0)
        H5Pclose(fapl);
    return file;
}

static int read_version(hid_t file, int *version)
{
    int e = pg_h5_attr_exists(file, "/", "pegemm_schema_version");
    if (e < 0)
        return -1;
    if (e == 0)
        return pg_fail("not a pegemm run file (no pegemm_schema_version attribute on /)");
    int64_t v;
    if (pg_h5_attr_read_i64(file, "/", "pegemm_schema_version", &v) < 0)
        return -1;
    if (v > PG_RUN_SCHEMA_VERSION)
        return pg_fail("schema version %" PRId64 " is newer than this pegemm reads (%d); use a newer pegemm", v,
                       PG_RUN_SCHEMA_VERSION);
    if (v < 1)
        return pg_fail("schema version %" PRId64 " is not valid (versions start at 1)", v);
    *version = (int)v;
    return 0;
}

static int read_problem_attrs(hid_t g, pg_problem *p)
{
    pg_shape *s = &p->shape;
    const char *o = "/problem";
    if (pg_h5_attr_read_i64(g, o, "M", &s->M) < 0 || pg_h5_attr_read_i64(g, o, "N", &s->N) < 0 ||
        pg_h5_attr_read_i64(g, o, "K", &s->K) < 0 || pg_h5_attr_read_i64(g, o, "P", &s->P) < 0 ||
        pg_h5_attr_read_str(g, o, "family", p->family, sizeof p->family) < 0 ||
        pg_h5_attr_read_u64(g, o, "seed", &p->seed) < 0)
        return -1;
    if (pg_shape_check(s) < 0)
        return pg_fail_context("/problem attributes");
    if (pg_runfile_read_terms_attrs(g, p) < 0)
        return -1;
    if (strcmp(p->family, "file") != 0) {
        pg_family fam;
        if (pg_family_parse(p->family, &fam) < 0)
            return pg_fail_context("attribute family of /problem");
    }
    return 0;
}

/* A, B and combined (when P > 0; P = 0 is a plain GEMM with none) are
 * stored together or not at all, and with them the scales and the bias
 * the problem's terms call for. */
static int check_problem_data(hid_t file, const pg_problem *p, int *stored)
{
    static const char *const paths[3] = {"/problem/A", "/problem/B", "/problem/combined"};
    const pg_shape *s = &p->shape;
    int present[3];
    for (int i = 0; i < 3; i++)
        if ((present[i] = pg_h5_exists(file, paths[i])) < 0)
            return -1;
    if (s->P == 0 && present[2])
        return pg_fail("/problem/combined is stored but P = 0 (a problem without the combined term)");
    int nwant = s->P > 0 ? 3 : 2;
    int count = present[0] + present[1] + present[2];
    if (count == 0) {
        if (strcmp(p->family, "file") == 0)
            return pg_fail("/problem/A is missing but family is 'file' (user inputs must be stored in the file)");
        *stored = 0;
        return pg_runfile_check_terms_data(file, p, 0);
    }
    if (count < nwant) {
        int have = present[0] ? 0 : present[1] ? 1 : 2, miss = !present[0] ? 0 : !present[1] ? 1 : 2;
        return pg_fail("%s is missing while %s is stored (A, B and combined go together)", paths[miss], paths[have]);
    }
    const pg_h5_extent a[2] = {{s->M, "M"}, {s->K, "K"}};
    const pg_h5_extent b[2] = {{s->N, "N"}, {s->K, "K"}};
    const pg_h5_extent c[2] = {{s->P, "P"}, {s->N, "N"}};
    if (pg_h5_dataset_check(file, paths[0], &PG_H5_U8, 2, a, NULL) < 0 ||
        pg_h5_dataset_check(file, paths[1], &PG_H5_U8, 2, b, NULL) < 0 ||
        (s->P > 0 && pg_h5_dataset_check(file, paths[2], &PG_H5_U16, 2, c, NULL) < 0))
        return -1;
    *stored = 1;
    return pg_runfile_check_terms_data(file, p, 1);
}

static int load_problem(hid_t file, pg_problem *p, int stored)
{
    const pg_shape *s = &p->shape;
    if (!stored) {
        /* Only family + seed are stored: regenerate the same bytes. */
        pg_family fam;
        pg_problem gen;
        memset(&gen, 0, sizeof gen);
        if (pg_family_parse(p->family, &fam) < 0 || pg_problem_generate(&gen, *s, fam, p->seed) < 0)
            return pg_fail_context("regenerating the inputs from family '%s', seed %" PRIu64, p->family, p->seed);
        p->A = gen.A;
        p->B = gen.B;
        p->combined = gen.combined;
        if (pg_problem_terms_generate(p) < 0)
            return pg_fail_context("regenerating the scales and bias from seed %" PRIu64, p->seed);
        return 0;
    }
    if (pg_shape_check_inputs_fit(s) < 0)
        return -1;
    if (!(p->A = pg_alloc("/problem/A", s->M * s->K, 1)) || !(p->B = pg_alloc("/problem/B", s->N * s->K, 1)) ||
        (s->P > 0 && !(p->combined = pg_alloc("/problem/combined", s->P * s->N, 2))))
        return -1;
    if (pg_h5_dataset_read(file, "/problem/A", &PG_H5_U8, p->A) < 0 ||
        pg_h5_dataset_read(file, "/problem/B", &PG_H5_U8, p->B) < 0 ||
        (s->P > 0 && pg_h5_dataset_read(file, "/problem/combined", &PG_H5_U16, p->combined) < 0))
        return -1;
    return pg_runfile_load_terms(file, p);
}

static int read_problem(hid_t file, pg_run *run, int load, int version)
{
    hid_t g = -1;
    int rc = -1;
    int e = pg_runfile_open_group(file, "/problem", &g);
    if (e < 0)
        return -1;
    if (e == 0 && version < 2)
        return pg_fail("/problem is missing (every version-1 run file has the problem's attributes)");
    if (e == 0) { /* v2: a run of another kernel has no GEMM problem, so no outputs either */
        int out = pg_h5_exists(file, "/output");
        if (out < 0)
            return -1;
        return out ? pg_fail("/output is present but /problem is missing (outputs need the problem)") : 0;
    }
    if (read_problem_attrs(g, &run->problem) < 0 || check_problem_data(file, &run->problem, &run->problem_stored) < 0)
        goto done;
    if (load && load_problem(file, &run->problem, run->problem_stored) < 0)
        goto done;
    rc = 0;
done:
    H5Gclose(g);
    return rc;
}

static int read_output_attrs(hid_t g, pg_run *run)
{
    char name[32];
    if (pg_runfile_read_accum(g, run) < 0)
        return -1;
    if (pg_h5_attr_read_str(g, "/output", "epilogue", name, sizeof name) < 0)
        return -1;
    if (pg_epilogue_parse(name, &run->epilogue) < 0)
        return pg_fail_context("attribute epilogue of /output");
    return 0;
}

/* The outputs are always validated (shapes, and the row indices against
 * M); they are kept only when asked for, so a run read without
 * PG_READ_OUTPUT looks like a run without outputs (nrows = 0). */
static int read_output(hid_t file, pg_run *run, int load)
{
    hid_t g = -1;
    int rc = -1;
    const pg_shape *s = &run->problem.shape;
    int e = pg_runfile_open_group(file, "/output", &g);
    if (e <= 0)
        return e; /* no outputs: nrows stays 0 */
    if (read_output_attrs(g, run) < 0)
        goto done;
    int has_rows = pg_h5_exists(file, "/output/rows");
    if (has_rows < 0)
        goto done;
    pg_h5_extent d_shape[2] = {{s->M, "M (there is no /output/rows, so D holds every row)"}, {s->N, "N"}};
    if (has_rows) {
        int64_t n;
        if (pg_h5_dataset_check(file, "/output/rows", &PG_H5_I64, 1, NULL, &n) < 0)
            goto done;
        if (n == 0) {
            pg_fail("/output/rows is empty");
            goto done;
        }
        if (n > s->M) { /* strictly increasing in [0, M) */
            pg_fail("/output/rows has %" PRId64 " entries but M = %" PRId64 " (at most M distinct rows)", n, s->M);
            goto done;
        }
        if (!(run->rows = pg_alloc("/output/rows", n, sizeof *run->rows)) ||
            pg_h5_dataset_read(file, "/output/rows", &PG_H5_I64, run->rows) < 0 ||
            pg_runfile_check_rows(run->rows, n, s->M, "/output/rows") < 0)
            goto done;
        d_shape[0] = (pg_h5_extent){n, "len(/output/rows)"};
    }
    int64_t dims[2];
    int fp32 = run->problem.out == PG_OUT_FP32; /* D holds the output type (out_dtype of /problem) */
    const pg_h5_kind *dk = fp32 ? &PG_H5_F32 : &PG_H5_U16;
    if (pg_h5_dataset_check(file, "/output/D", dk, 2, d_shape, dims) < 0)
        goto done;
    run->nrows = dims[0];
    int has_acc = pg_h5_exists(file, "/output/accumulator");
    if (has_acc < 0)
        goto done;
    const pg_h5_extent acc_shape[2] = {{run->nrows, "the number of rows of /output/D"}, {s->N, "N"}};
    if (has_acc && pg_h5_dataset_check(file, "/output/accumulator", &PG_H5_F32, 2, acc_shape, NULL) < 0)
        goto done;
    if (!load) {
        free(run->rows);
        run->rows = NULL;
        run->nrows = 0;
    } else {
        int64_t count = run->nrows * s->N;
        void *d = pg_alloc("/output/D", count, fp32 ? sizeof *run->D32 : sizeof *run->D);
        if (fp32)
            run->D32 = d;
        else
            run->D = d;
        if (!d || pg_h5_dataset_read(file, "/output/D", dk, d) < 0)
            goto done;
        if (has_acc && (!(run->acc = pg_alloc("/output/accumulator", count, sizeof *run->acc)) ||
                        pg_h5_dataset_read(file, "/output/accumulator", &PG_H5_F32, run->acc) < 0))
            goto done;
    }
    rc = 0;
done:
    H5Gclose(g);
    return rc;
}

int pg_run_read_direct(const char *path, pg_run *run, unsigned what)
{
    int rc = -1;
    hid_t file = -1;
    pg_h5_quiet quiet;
    memset(run, 0, sizeof *run);
    pg_h5_quiet_begin(&quiet);

    if ((file = open_file(path)) < 0)
        goto done;
    int version = 0;
    if (read_version(file, &version) < 0 || read_problem(file, run, (what & PG_READ_PROBLEM) != 0, version) < 0 ||
        read_output(file, run, (what & PG_READ_OUTPUT) != 0) < 0 || pg_runfile_read_kernel(file, &run->kernel) < 0 ||
        pg_runfile_read_timings(file, run) < 0 ||
        pg_runfile_read_trace(file, &run->trace, &run->kernel, (what & PG_READ_TRACE) != 0, version) < 0)
        goto done;
    rc = 0;
done:
    rc = pg_h5_close(file, H5Fclose, rc, "cannot close the file");
    pg_h5_quiet_end(&quiet);
    if (rc < 0) {
        pg_run_free(run);
        pg_fail_context("%s", path);
    }
    return rc;
}
