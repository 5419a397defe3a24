/* What pegemm measured on the GPUs its runs were taken on (fit.h): for run
 * files that do not record it themselves.  l2: cudaDeviceProp l2CacheSize
 * as `pegemm run` records it (`/kernel l2_bytes`, read on probe set 18's
 * machines).  copy: the bench's D2D copy of the compulsory bytes (`pegemm
 * bench`, "D2D copy of compulsory bytes"), probe sets 21-24: H100
 * 2,983-3,007 GB/s, H200 4,210-4,237 GB/s (docs/experiments.md M72).
 * stream: the bench's "stream A in, D out (no math)", the median of every
 * bench log of probe sets 5-25 (H100 2,703-2,735 GB/s over 26 benches,
 * H200 3,720-3,802 over 25; M76). */
#include <string.h>

#include "fit.h"

static const struct {
    const char *device;
    int64_t l2_bytes;
    double copy_bytes_per_s, stream_bytes_per_s;
} k_gpus[] = {
    {"NVIDIA H100 80GB HBM3", 52428800, 3.00e12, 2.72e12},
    {"NVIDIA H200", 62914560, 4.23e12, 3.76e12},
};

static int gpu_index(const char *device)
{
    for (size_t i = 0; i < sizeof k_gpus / sizeof k_gpus[0]; i++)
        if (strcmp(device, k_gpus[i].device) == 0)
            return (int)i;
    return -1;
}

int64_t fit_gpu_l2(const char *device)
{
    const int i = gpu_index(device);
    return i < 0 ? 0 : k_gpus[i].l2_bytes;
}

double fit_gpu_copy_floor(const char *device)
{
    const int i = gpu_index(device);
    return i < 0 ? 0 : k_gpus[i].copy_bytes_per_s;
}

double fit_gpu_stream_floor(const char *device)
{
    const int i = gpu_index(device);
    return i < 0 ? 0 : k_gpus[i].stream_bytes_per_s;
}
