/* Max-plus analysis of a compiled schedule (the deterministic equilibrium). */
#ifndef PG_MAXPLUS_H
#define PG_MAXPLUS_H

#include "sched.h"

/* Mean weight of an edge (distribution terms at their means). */
double sch_edge_mean(const pg_schedule *s, const sch_edge *e);
/* Maximum cycle mean of the graph under edge weights w[nedges]; the critical
 * cycle's edges in execution order.  -1 with a message on failure. */
int sch_max_cycle_mean(const pg_schedule *s, const double *w, double *lambda, int *cycle_edges, int *ncycle);
/* "a.x -> b.y -> ... (buffer acc x2)" and the bounding role or resource. */
void sch_describe_cycle(const pg_schedule *s, const int *edges, int n, char *cycle, int cn, char *bottleneck, int bn);
/* All of the above at the means. */
int sch_deterministic(const pg_schedule *s, double *lambda, char *cycle, int cn, char *bottleneck, int bn);

#endif
