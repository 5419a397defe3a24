/* Helpers for the output-policy tests: temporary directories, files,
 * child processes that read a FIFO or get killed while writing. */
#ifndef OUTFILE_FIXTURE_H
#define OUTFILE_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>

void ofx_make_tempdir(char *out, size_t n);
void ofx_rmtree(const char *dir);
/* out (PATH_MAX bytes) = dir/name */
void ofx_path(char *out, const char *dir, const char *name);
void ofx_write_file(const char *path, const char *text);
void ofx_assert_contents(const char *path, const char *text);
int ofx_is_link(const char *path);
/* pg_outfile_open + text + pg_outfile_commit; 0 or -1 with pg_last_error() */
int ofx_save(const char *path, const char *text);
/* how many pg_outtemp temporaries (".pg.tmp.*") are in dir */
int ofx_count_temps(const char *dir);
int ofx_count_fds(void);
void ofx_make_socket(const char *path);
/* A child that reads the FIFO to its end and exits 0 if it got `expected`. */
pid_t ofx_fifo_reader(const char *fifo, const char *expected);
/* The child's exit status, or -1 if it did not exit normally. */
int ofx_wait_exit(pid_t pid);
int ofx_redirect_stdout(const char *path);
void ofx_restore_stdout(int saved);
/* A child opens `path` with pg_outfile and writes to it; then
 * how 0: the parent (having seen the temporary) sends `sig`;
 * how 1: the child raises `sig` itself;
 * how 2: the child ignores `sig` first, the parent sends it, the child
 *        writes "survived\n" and commits.
 * Returns the child's wait status. */
int ofx_kill_writer(const char *path, int sig, int how);

#endif
