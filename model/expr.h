/* Arithmetic in schedule files: numbers, + - * / and parentheses, and the
 * variable `warp` (a warp's index within its CTA's group), so that structural
 * options can be combined ("$epilogue_warps*$ctas", "(7-$stages)/6"). */
#ifndef PG_EXPR_H
#define PG_EXPR_H

/* 0 and *out on success; -1 with a message naming the expression. */
int expr_eval(const char *s, double warp, double *out);
/* Does the expression mention `warp`? */
int expr_uses_warp(const char *s);

#endif
