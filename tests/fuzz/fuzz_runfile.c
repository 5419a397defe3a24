/* Fuzz the HDF5 run-file reader (traces/runfile_read*.c) in-process: the
 * bytes as a file, read first for the metadata, then -- when the problem is
 * small enough to hold -- every part (inputs, outputs, trace).  libhdf5 1.10
 * itself crashes on some malformed files; campaigns run in libFuzzer's fork
 * mode and those crashes are triaged apart (docs/reliability.md). */
#include <string.h>

#include "fuzz_util.h"
#include "pg_error.h"
#include "runfile.h"

/* Larger inputs would be regenerated or allocated at full size: a memory
 * and time sink for the fuzzer, not a parser path. */
#define MAX_ELEMS (1 << 22)

static int small_problem(const pg_shape *s)
{
    return s->M > 0 && s->N > 0 && s->K > 0 && s->P > 0 && s->M <= MAX_ELEMS && s->N <= MAX_ELEMS &&
           s->K <= MAX_ELEMS && s->P <= MAX_ELEMS && s->M * s->K <= MAX_ELEMS && s->N * s->K <= MAX_ELEMS &&
           s->M * s->N <= MAX_ELEMS && s->P * s->N <= MAX_ELEMS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("run.h5", data, size);
    pg_run run;
    memset(&run, 0, sizeof run);
    if (pg_run_read(path, &run, 0) == 0) {
        pg_shape shape = run.problem.shape;
        pg_run_free(&run);
        memset(&run, 0, sizeof run);
        if (small_problem(&shape) && pg_run_read(path, &run, PG_READ_ALL) == 0)
            pg_run_free(&run);
    }
    pg_clear_error();
    return 0;
}
