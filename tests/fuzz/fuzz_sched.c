/* Fuzz the schedule-file parser (model/sched_parse.c).  Oracle beyond "no
 * crash": a schedule that parses is written back as text, and that text must
 * parse again (the writer and the parser agree). */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "model_ext.h"
#include "pg_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    pg_schedule *s = NULL, *again = NULL;
    if (pg_schedule_load_text(text, "fuzz", &s) == 0) {
        char *written = NULL;
        size_t written_n = 0;
        FILE *f = open_memstream(&written, &written_n);
        if (!f)
            abort();
        int wrote = pg_schedule_write(s, f, "fuzz");
        if (fclose(f) != 0)
            abort();
        if (wrote == 0 && pg_schedule_load_text(written, "fuzz-rewritten", &again) != 0) {
            fprintf(stderr, "fuzz_sched: the written schedule does not parse again: %s\n", pg_last_error());
            abort();
        }
        free(written);
    }
    pg_schedule_free(again);
    pg_schedule_free(s);
    pg_clear_error();
    free(text);
    return 0;
}
