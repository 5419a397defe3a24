/* Subcommands of the one `pegemm` program.  Each part of the project
 * implements its own: argv[0] is the subcommand name; return the exit
 * status (0 ok, 1 a check failed, 2 bad usage or input). */
#ifndef PG_COMMANDS_H
#define PG_COMMANDS_H

int pg_cmd_inputs(int argc, char **argv);    /* reference/cli_reference.c */
int pg_cmd_ref(int argc, char **argv);       /* reference/cli_reference.c */
int pg_cmd_bench_ref(int argc, char **argv); /* reference/cli_bench.c */
int pg_cmd_run(int argc, char **argv);       /* kernel/ (or kernel/cli_nocuda.c) */
int pg_cmd_bench(int argc, char **argv);     /* kernel/ (or kernel/cli_nocuda.c) */
int pg_cmd_dual(int argc, char **argv);      /* kernel/cli_dual.c (or kernel/cli_nocuda.c) */
int pg_cmd_model(int argc, char **argv);     /* model/cli_model.c */
int pg_cmd_verify(int argc, char **argv);    /* verify/cli_verify.c */
int pg_cmd_trace(int argc, char **argv);     /* verify/cli_trace.c */
int pg_cmd_demo(int argc, char **argv);      /* verify/cli_demo.c */

/* Is the CUDA kernel compiled into this binary? (kernel/) */
int pg_have_kernel(void);

#endif
