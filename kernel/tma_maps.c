#include "tma_maps.h"

#include <cudaTypedefs.h>

#include "pg_error.h"

/* The operand rows are PG_TILE_K bytes: swizzle over exactly that width. */
#define OPERAND_SWIZZLE (PG_TILE_K == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B)

static PFN_cuTensorMapEncodeTiled_v12000 get_encoder(void)
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = NULL;
    if (!fn) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult q;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
            pg_fail("the CUDA driver has no cuTensorMapEncodeTiled (%s)", cudaGetErrorString(e));
            return NULL;
        }
        fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
    }
    return fn;
}

/* A 2-D row-major tensor [rows, cols] of `elem` bytes, box [box_rows, box_cols],
 * 128-byte swizzle; out-of-range reads are zero-filled, out-of-range writes dropped. */
int pg_tma_encode_2d(CUtensorMap *map, CUtensorMapDataType type, size_t elem, const void *base, int64_t rows,
                     int64_t cols, uint32_t box_rows, uint32_t box_cols, CUtensorMapSwizzle swizzle, const char *what)
{
    PFN_cuTensorMapEncodeTiled_v12000 enc = get_encoder();
    if (!enc)
        return -1;
    const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)(cols * (int64_t)elem)};
    const cuuint32_t box[2] = {box_cols, box_rows};
    const cuuint32_t estr[2] = {1, 1};
    CUresult r = enc(map, type, 2, (void *)base, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return pg_fail("building the TMA descriptor of %s ([%lld, %lld], box %u x %u): CUresult %d", what,
                       (long long)rows, (long long)cols, box_rows, box_cols, (int)r);
    return 0;
}

int pg_tma_maps_build(pg_kernel_params *p, const uint8_t *dA, const uint8_t *dB, const uint16_t *d_combined_rep,
                      int64_t comb_rows, uint16_t *dD, const pg_shape *s, int b_box_rows, int a_box_k,
                      int a_box_rows)
{
    if (pg_tma_encode_2d(&p->map_a, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, dA, s->M, s->K, (uint32_t)a_box_rows, (uint32_t)a_box_k,
                  a_box_k == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B, "A") ||
        pg_tma_encode_2d(&p->map_b, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, dB, s->N, s->K, (uint32_t)b_box_rows, PG_TILE_K, OPERAND_SWIZZLE, "B") ||
        pg_tma_encode_2d(&p->map_combined, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, d_combined_rep, comb_rows, s->N, PG_TILE_M, 64,
                  CU_TENSOR_MAP_SWIZZLE_128B, "combined") ||
        pg_tma_encode_2d(&p->map_d, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, dD, s->M, s->N, PG_TILE_M, 64, CU_TENSOR_MAP_SWIZZLE_128B, "D"))
        return -1;
    return 0;
}
