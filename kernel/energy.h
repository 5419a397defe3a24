/* Board energy per kernel launch, from NVML's total-energy counter
 * (millijoules since the driver loaded).  The GEMMs here run at the board's
 * power cap (docs/experiments.md K24), so their wall time is their energy
 * over the cap: `pegemm bench --energy` measures that energy directly.
 * NVML is reached through dlopen("libnvidia-ml.so.1"): the build needs no
 * NVML headers or library, and a machine without it gets a clear message. */
#ifndef PG_ENERGY_H
#define PG_ENERGY_H

#include <cuda_runtime_api.h>
#include <stdint.h>

typedef struct pg_energy pg_energy;

typedef struct {
    double mj_per_launch; /* board energy per launch */
    double watts;         /* mean board power while launching */
    double ms_per_launch; /* wall time per launch (back to back) */
    int64_t launches;
} pg_energy_sample;

/* One launch of whatever is measured (asynchronous on the caller's stream);
 * 0 or -1 with pg_fail. */
typedef int (*pg_launch_fn)(void *ctx);

/* The NVML device of CUDA device `cuda_device` (matched by PCI bus id). */
int pg_energy_open(int cuda_device, pg_energy **out);
void pg_energy_close(pg_energy *e);

/* Launch fn back to back for warm_ms (not measured), then for at least
 * min_ms between two reads of the energy counter. */
int pg_energy_measure(pg_energy *e, cudaStream_t stream, pg_launch_fn fn, void *ctx, double warm_ms, double min_ms,
                      pg_energy_sample *out);

#endif
