#include "runner.h"

#include "gpu_session.h"
#include "pg_error.h"

int pg_gemm_gpu(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                uint16_t *D, float *acc, const char *progress_label)
{
    int rc = -1;
    int64_t unwritten = 0;
    pg_gpu g = {0};
    (void)progress_label; /* the GPU finishes in milliseconds */
    if (mode != PG_KERNEL_MODE)
        return pg_fail("the GPU kernel accumulates in mode %s only (asked for %s)", pg_accum_name(PG_KERNEL_MODE),
                       pg_accum_name(mode));
    if (epi != PG_KERNEL_EPILOGUE)
        return pg_fail("the GPU kernel's epilogue is %s only (asked for %s)", pg_epilogue_name(PG_KERNEL_EPILOGUE),
                       pg_epilogue_name(epi));
    if (acc)
        return pg_fail("the GPU kernel does not return fp32 accumulators");
    if (!rows && nrows != p->shape.M)
        return pg_fail("all rows requested but nrows %lld != M %lld", (long long)nrows, (long long)p->shape.M);
    if (pg_gpu_open(&g) != 0 || pg_gpu_load(&g, p) != 0 || pg_gpu_checked_run(&g, 0, 0, 0, &unwritten) != 0)
        goto done;
    if (unwritten != 0) {
        rc = pg_fail("the kernel left %lld of %lld outputs unwritten", (long long)unwritten,
                     (long long)(p->shape.M * p->shape.N));
        goto done;
    }
    if (pg_gpu_download_rows(&g, rows, nrows, D) != 0)
        goto done;
    rc = 0;
done:
    pg_gpu_close(&g);
    return rc;
}
