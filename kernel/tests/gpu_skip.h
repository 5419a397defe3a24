/* What the kernel tests share to run their GPU cases only on an sm_90 GPU:
 * why GPU 0 cannot run them (or NULL), and the cmocka skip that prints it.
 * A test's main exits 77 (meson's SKIP) when gpu_missing says why. */
#ifndef PG_KERNEL_TESTS_GPU_SKIP_H
#define PG_KERNEL_TESTS_GPU_SKIP_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

/* NULL when GPU 0 is an sm_90 device; else why not (a static buffer).
 * not_sm90 is the reason given for another GPU ("GPU 0 is not sm_90"). */
static inline const char *gpu_missing_because(const char *not_sm90)
{
    static char why[256];
    int n = 0;
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(why, sizeof why, "no CUDA GPU (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
        return why;
    }
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major != 9 || prop.minor != 0) {
        snprintf(why, sizeof why, "%s", not_sm90);
        return why;
    }
    return NULL;
}

static inline const char *gpu_missing(void) { return gpu_missing_because("GPU 0 is not sm_90"); }

/* Skip the current cmocka case, saying why, unless gpu_missing is NULL. */
static inline void skip_without_gpu_because(const char *why)
{
    if (why) {
        print_message("skipping GPU case: %s\n", why);
        skip();
    }
}

static inline void skip_without_gpu(void) { skip_without_gpu_because(gpu_missing()); }

#endif
