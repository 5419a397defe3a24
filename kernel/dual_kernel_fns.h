/* The dual kernel's instantiations as function pointers (kernel_dual.cu),
 * for the launch glue (dual_launch.cu).  CUDA C++ only. */
#ifndef PG_DUAL_KERNEL_FNS_H
#define PG_DUAL_KERNEL_FNS_H

#include "dual_kernel.h"

typedef void (*pg_dual_kernel_fn)(pg_dual_params);

/* design 0 inter / 1 seq; NULL for another design. */
pg_dual_kernel_fn pg_dual_kernel_of(int design, int fp16, int trace);

#endif
