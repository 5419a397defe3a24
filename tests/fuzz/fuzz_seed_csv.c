/* Fuzz the seed's calibration CSV import (model/seed_import.c): the bytes
 * as a CSV file, then a b200-seed schedule for every row read. */
#include "fuzz_util.h"
#include "model_ext.h"
#include "pg_error.h"

#define MAX_ROWS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pg_seed_row rows[MAX_ROWS];
    const char *path = fuzz_write_file("seed.csv", data, size);
    int n = 0;
    if (pg_seed_read_csv(path, rows, MAX_ROWS, &n) == 0) {
        for (int i = 0; i < n; i++) {
            pg_schedule *s = NULL;
            char note[256];
            if (pg_seed_row_schedule(rows, n, i, &s, note, sizeof note) == 0)
                pg_schedule_free(s);
        }
    }
    pg_clear_error();
    return 0;
}
