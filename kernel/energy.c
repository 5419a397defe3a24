#include "energy.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu_session.h"
#include "pg_error.h"

/* The four NVML entry points used, declared here (ABI of nvml.h: an int
 * status, 0 = NVML_SUCCESS; an opaque device handle). */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_shutdown_fn)(void);
typedef int (*nvml_by_bus_fn)(const char *bus_id, void **device);
typedef int (*nvml_energy_fn)(void *device, unsigned long long *mj);

struct pg_energy {
    void *lib;
    nvml_shutdown_fn shutdown;
    nvml_energy_fn energy;
    void *device;
};

void pg_energy_close(pg_energy *e)
{
    if (!e)
        return;
    if (e->shutdown)
        e->shutdown();
    if (e->lib)
        dlclose(e->lib);
    free(e);
}

int pg_energy_open(int cuda_device, pg_energy **out)
{
    int rc = -1;
    char bus[64];
    *out = NULL;
    pg_energy *e = calloc(1, sizeof *e);
    if (!e)
        return pg_fail("out of host memory");
    cudaError_t ce = cudaDeviceGetPCIBusId(bus, (int)sizeof bus, cuda_device);
    if (ce != cudaSuccess) {
        pg_cuda_fail("reading the GPU's PCI bus id", ce);
        goto done;
    }
    e->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!e->lib) {
        pg_fail("--energy needs NVML (libnvidia-ml.so.1, part of the NVIDIA driver): %s", dlerror());
        goto done;
    }
    nvml_init_fn init = (nvml_init_fn)dlsym(e->lib, "nvmlInit_v2");
    nvml_by_bus_fn by_bus = (nvml_by_bus_fn)dlsym(e->lib, "nvmlDeviceGetHandleByPciBusId_v2");
    e->shutdown = (nvml_shutdown_fn)dlsym(e->lib, "nvmlShutdown");
    e->energy = (nvml_energy_fn)dlsym(e->lib, "nvmlDeviceGetTotalEnergyConsumption");
    if (!init || !by_bus || !e->shutdown || !e->energy) {
        e->shutdown = NULL;
        pg_fail("NVML lacks the energy counter's entry points");
        goto done;
    }
    int st = init();
    if (st != 0) {
        e->shutdown = NULL;
        pg_fail("nvmlInit failed (status %d)", st);
        goto done;
    }
    st = by_bus(bus, &e->device);
    unsigned long long mj = 0;
    if (st == 0)
        st = e->energy(e->device, &mj);
    if (st != 0) {
        pg_fail("NVML has no energy counter for GPU %s (status %d)", bus, st);
        goto done;
    }
    *out = e;
    e = NULL;
    rc = 0;
done:
    pg_energy_close(e);
    return rc;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Batches of launches until min_ms of wall time has passed; *n launches. */
static int launch_for(cudaStream_t stream, pg_launch_fn fn, void *ctx, double min_ms, int64_t *n)
{
    const double t0 = now_ms();
    *n = 0;
    do {
        for (int i = 0; i < 20; i++, (*n)++)
            if (fn(ctx) != 0)
                return -1;
        cudaError_t ce = cudaStreamSynchronize(stream);
        if (ce != cudaSuccess)
            return pg_cuda_fail("running the measured kernel", ce);
    } while (now_ms() - t0 < min_ms);
    return 0;
}

int pg_energy_measure(pg_energy *e, cudaStream_t stream, pg_launch_fn fn, void *ctx, double warm_ms, double min_ms,
                      pg_energy_sample *out)
{
    unsigned long long e0 = 0, e1 = 0;
    int64_t n = 0;
    memset(out, 0, sizeof *out);
    if (launch_for(stream, fn, ctx, warm_ms, &n) != 0)
        return -1;
    if (e->energy(e->device, &e0) != 0)
        return pg_fail("reading the NVML energy counter");
    const double t0 = now_ms();
    if (launch_for(stream, fn, ctx, min_ms, &n) != 0)
        return -1;
    const double t1 = now_ms();
    if (e->energy(e->device, &e1) != 0)
        return pg_fail("reading the NVML energy counter");
    if (e1 <= e0 || n <= 0)
        return pg_fail("the NVML energy counter did not advance over %.0f ms", t1 - t0);
    out->launches = n;
    out->mj_per_launch = (double)(e1 - e0) / (double)n;
    out->ms_per_launch = (t1 - t0) / (double)n;
    out->watts = (double)(e1 - e0) / (t1 - t0);
    return 0;
}
