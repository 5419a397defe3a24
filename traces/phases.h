/* The one definition of warp roles and phase names.  These strings are part
 * of the run-file format (/trace attributes) and of the model's schedules. */
#ifndef PG_PHASES_H
#define PG_PHASES_H

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

#endif
