#include "pg_outtemp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pg_error.h"

/* ---- the registry the signal handler reads ----
 * Static storage only; a slot is filled, then published by setting `live`,
 * and unpublished before it is reused, so the handler sees whole entries. */
#define SLOTS 32

typedef struct {
    volatile sig_atomic_t live;
    int dirfd;
    char name[PG_OUTTEMP_NAME_MAX];
} live_temp;

static live_temp g_live[SLOTS];
static int g_claimed[SLOTS]; /* owned by a pg_outtemp, published or not */
static int g_handlers_installed;
static const int k_cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Async-signal-safe: unlinkat and raise only. */
static void on_fatal_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (g_live[i].live)
            (void)unlinkat(g_live[i].dirfd, g_live[i].name, 0);
    errno = saved;
    /* SA_RESETHAND made the action the default again, and the signal is
     * blocked while we run: it is delivered, and kills us, on return. */
    raise(sig);
}

static int install_handlers(void)
{
    if (g_handlers_installed)
        return 0;
    for (size_t i = 0; i < sizeof k_cleanup_signals / sizeof k_cleanup_signals[0]; i++) {
        int sig = k_cleanup_signals[i];
        struct sigaction old, sa;
        if (sigaction(sig, NULL, &old) != 0)
            return pg_fail("cannot read the action of signal %d: %s", sig, strerror(errno));
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue; /* ignored, or the program's own: not ours to change */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigfillset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        if (sigaction(sig, &sa, NULL) != 0)
            return pg_fail("cannot install the handler for signal %d: %s", sig, strerror(errno));
    }
    g_handlers_installed = 1;
    return 0;
}

static int claim_slot(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (!g_claimed[i]) {
            g_claimed[i] = 1;
            return i;
        }
    return -1;
}

static void publish(const pg_outtemp *t)
{
    live_temp *s = &g_live[t->slot];
    s->dirfd = t->dirfd;
    memcpy(s->name, t->name, sizeof s->name);
    atomic_signal_fence(memory_order_seq_cst);
    s->live = 1;
}

static void unpublish(const pg_outtemp *t)
{
    g_live[t->slot].live = 0;
    atomic_signal_fence(memory_order_seq_cst);
}

/* ".pg.tmp." and six characters from [0-9A-Za-z]; uniqueness comes from
 * O_EXCL, the randomness only makes collisions rare. */
static void make_name(char *name)
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    static uint64_t state;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    state ^= (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15u ^ (uint64_t)getpid() << 32 ^ (uint64_t)ts.tv_sec;
    state = state * 6364136223846793005u + 1442695040888963407u;
    uint64_t bits = state ^ state >> 29;
    memcpy(name, ".pg.tmp.", 8);
    for (int i = 0; i < 6; i++, bits /= 62)
        name[8 + i] = alphabet[bits % 62];
    name[14] = '\0';
}

void pg_outtemp_init(pg_outtemp *t)
{
    t->active = 0;
    t->dirfd = -1;
    t->slot = -1;
    t->name[0] = '\0';
}

/* Create and publish with the cleanup signals blocked, so no signal can
 * land between the file appearing and the handler knowing of it. */
static int create_published(pg_outtemp *t, mode_t mode)
{
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof k_cleanup_signals / sizeof k_cleanup_signals[0]; i++)
        sigaddset(&block, k_cleanup_signals[i]);
    int err = pthread_sigmask(SIG_BLOCK, &block, &old);
    if (err != 0) {
        errno = err;
        return -1;
    }
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        make_name(t->name);
        fd = openat(t->dirfd, t->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    err = errno;
    if (fd >= 0)
        publish(t);
    else
        t->name[0] = '\0';
    (void)pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return fd;
}

int pg_outtemp_create(pg_outtemp *t, const char *dir, mode_t mode, const char *what)
{
    int fd = -1;
    pg_outtemp_init(t);
    if (install_handlers() != 0)
        goto done;
    if ((t->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        pg_fail("cannot create %s: %s", what, strerror(errno));
        goto done;
    }
    t->active = 1;
    if ((t->slot = claim_slot()) < 0) {
        pg_fail("cannot create %s: more than %d outputs open at once", what, SLOTS);
        goto done;
    }
    if ((fd = create_published(t, mode)) < 0)
        pg_fail("cannot create %s: %s", what, strerror(errno));
done:
    if (fd < 0)
        pg_outtemp_discard(t);
    return fd;
}

void pg_outtemp_discard(pg_outtemp *t)
{
    if (!t->active)
        return;
    if (t->name[0] != '\0' && t->dirfd >= 0)
        (void)unlinkat(t->dirfd, t->name, 0); /* ours, made with O_EXCL; nothing to tell if gone */
    if (t->slot >= 0) {
        unpublish(t);
        g_claimed[t->slot] = 0;
    }
    if (t->dirfd >= 0)
        (void)close(t->dirfd); /* read-only directory handle: nothing to lose */
    pg_outtemp_init(t);
}

int pg_outtemp_install(pg_outtemp *t, const char *base, int sync_dir, const char *what)
{
    int rc = -1;
    if (!t->active || t->name[0] == '\0') {
        pg_fail("internal: installing %s without a temporary file", what);
        goto done;
    }
    if (renameat(t->dirfd, t->name, t->dirfd, base) != 0) {
        pg_fail("cannot rename the finished temporary file over %s: %s", what, strerror(errno));
        goto done;
    }
    t->name[0] = '\0'; /* renamed: nothing left to remove */
    /* Make the rename itself durable.  The file is complete and in place by
     * now, and some file systems cannot sync directories, so a failure here
     * is not an error. */
    if (sync_dir)
        (void)fsync(t->dirfd);
    rc = 0;
done:
    pg_outtemp_discard(t);
    return rc;
}
