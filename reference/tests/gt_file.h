/* The ground-truth file of reference/groundtruth/scaled_mm_gt.py (its
 * docstring states the layout), read into memory for the tests. */
#ifndef PG_GT_FILE_H
#define PG_GT_FILE_H

#include <stdint.h>

typedef struct {
    int64_t n; /* elements */
    void *data;
} gt_array;

enum {
    GT_SET_K, GT_SET_FMT_A, GT_SET_FMT_B, GT_SET_RANGE, GT_SET_A_OFF, GT_SET_B_OFF, GT_SET_BIAS_OFF,
    GT_SET_NAME_OFF, GT_SET_NAME_LEN, GT_SET_COLS
};
enum {
    GT_CASE_SET, GT_CASE_SCALE_KIND, GT_CASE_SCALE_A_OFF, GT_CASE_SCALE_A_LEN, GT_CASE_SCALE_B_OFF,
    GT_CASE_SCALE_B_LEN, GT_CASE_FAST_ACCUM, GT_CASE_OUT_DTYPE, GT_CASE_BIAS_DTYPE, GT_CASE_SUPPORTED,
    GT_CASE_OUT_OFF, GT_CASE_BIG_MISMATCH, GT_CASE_REPEAT_MISMATCH, GT_CASE_ERR_OFF, GT_CASE_ERR_LEN, GT_CASE_COLS
};

typedef struct {
    int64_t M, N;
    char gpu[128], torch[64], cublaslt[160];
    int64_t nsets, ncases;
    int64_t *set[GT_SET_COLS];   /* [nsets] each */
    int64_t *cases[GT_CASE_COLS]; /* [ncases] each */
    gt_array codes, bias_values, scales, out16, out32, errors, names;
} gt_file;

/* 0, or -1 with a pg_fail() message. */
int gt_file_read(const char *path, gt_file *out);
void gt_file_free(gt_file *g);

#endif
