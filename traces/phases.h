/* Trace vocabularies: the names of a kernel's warp roles and phases, and
 * which phases are waits.  A run file's trace (schema v2) and a schedule
 * each carry their own (pg_vocab); consumers match them by name.
 *
 * The enums below are one vocabulary among others: pegemm's own kernels'
 * (the H100 ping-pong and the Blackwell seed), the codes their trace
 * builds record.  Schema-v1 run files carry no wait flags and could only
 * use these names; pg_vocab_pegemm() is that list. */
#ifndef PG_PHASES_H
#define PG_PHASES_H

#include <stddef.h>

typedef enum {
    PG_ROLE_PRODUCER = 0, /* TMA load warp */
    PG_ROLE_CONSUMER,     /* Hopper ping-pong consumer warpgroup (warp field = warpgroup 0/1) */
    PG_ROLE_MMA,          /* Blackwell seed: MMA issuer (W1) */
    PG_ROLE_EPILOGUE,     /* Blackwell seed: epilogue warps (W2..W5) */
    PG_ROLE_COUNT
} pg_role;

typedef enum {
    /* Hopper ping-pong (our kernel) */
    PG_PH_ORDER_WAIT = 0,  /* consumer waits for its turn (the other warpgroup's mainloop) */
    PG_PH_LOAD_WAIT,       /* consumer waits for the first stage of its tile */
    PG_PH_MAINLOOP,        /* consumer: wgmma k-loop (includes later stage waits) */
    PG_PH_EPILOGUE_REGS,   /* consumer: convert + add combined in registers, stage to smem */
    PG_PH_EPILOGUE_STORE,  /* consumer: TMA store issue and drain */
    PG_PH_PRODUCER_WAIT,   /* producer waits for a free stage */
    PG_PH_PRODUCER_ISSUE,  /* producer issues the TMA loads of a tile */
    /* Blackwell seed schedule (b200-kernel.md) */
    PG_PH_EPI_WAIT,
    PG_PH_TMA0_WAIT,
    PG_PH_KLOOP,
    PG_PH_ML_WAIT,
    PG_PH_PHASE1,
    PG_PH_PHASE2,
    PG_PH_COUNT
} pg_phase;

const char *pg_role_name(pg_role r);
const char *pg_phase_name(pg_phase p);
/* -1 (with a message) for an unknown name. */
int pg_role_parse(const char *s, pg_role *out);
int pg_phase_parse(const char *s, pg_phase *out);
/* Is this phase a wait (time a role spends blocked) rather than work? */
int pg_phase_is_wait(pg_phase p);

/* A vocabulary: codes are indices (uint8 in a run file).  Names are
 * identifiers ([A-Za-z0-9_.-]+, not starting with '-' or '.'), unique
 * within their list. */
#define PG_VOCAB_MAX_ROLES 16
#define PG_VOCAB_MAX_PHASES 64
#define PG_VOCAB_NAME 40
typedef struct {
    int n_roles, n_phases;
    char role[PG_VOCAB_MAX_ROLES][PG_VOCAB_NAME];
    char phase[PG_VOCAB_MAX_PHASES][PG_VOCAB_NAME];
    unsigned char phase_is_wait[PG_VOCAB_MAX_PHASES];
} pg_vocab;

/* pegemm's kernels' vocabulary: the enums above, code for code. */
void pg_vocab_pegemm(pg_vocab *v);
/* Append a name (-1 with a message: invalid, duplicate, or the list full). */
int pg_vocab_add_role(pg_vocab *v, const char *name);
int pg_vocab_add_phase(pg_vocab *v, const char *name, int is_wait);
/* The code of a name, -1 if the vocabulary has none (no message). */
int pg_vocab_role(const pg_vocab *v, const char *name);
int pg_vocab_phase(const pg_vocab *v, const char *name);
/* Is `name` a valid role or phase name? */
int pg_vocab_name_ok(const char *name);
/* Every name valid and unique; -1 with a message naming the first that is not. */
int pg_vocab_check(const pg_vocab *v);
/* "a, b, c" of the roles or the phases, for messages (truncated to n). */
void pg_vocab_list_roles(const pg_vocab *v, char *buf, size_t n);
void pg_vocab_list_phases(const pg_vocab *v, char *buf, size_t n);
/* 1 if both list the same names in the same order with the same waits. */
int pg_vocab_equal(const pg_vocab *a, const pg_vocab *b);

#endif
