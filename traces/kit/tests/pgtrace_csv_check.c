/* Read and validate pgtrace CSV traces (pgtrace_read_csv); print a line
 * per file.  Exit 1 on the first invalid file.  Used to check the committed
 * H100 traces of examples/ without a GPU. */
#include <stdio.h>

#include "pgtrace_csv.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: pgtrace_csv_check TRACE.csv...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        pgtrace_csv f;
        if (pgtrace_read_csv(argv[i], &f) != 0) {
            fprintf(stderr, "pgtrace_csv_check: %s\n", pgtrace_last_error());
            return 1;
        }
        printf("%s: kernel %s, %lld events (%lld dropped), %d roles, %d phases, %d SMs, clock %.6g Hz\n", argv[i],
               f.kernel, (long long)f.n_events, (long long)f.dropped, f.n_roles, f.n_phases, f.n_sm, f.clock_hz);
        pgtrace_csv_free(&f);
    }
    return 0;
}
