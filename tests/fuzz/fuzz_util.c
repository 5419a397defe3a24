#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_dir[512];

static void die(const char *what)
{
    perror(what);
    abort();
}

static void remove_scratch(void)
{
    fuzz_clear_scratch();
    rmdir(g_dir);
}

const char *fuzz_scratch_dir(void)
{
    if (g_dir[0])
        return g_dir;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(g_dir, sizeof g_dir, "%s/pgfuzz.XXXXXX", tmp) >= (int)sizeof g_dir)
        die("scratch dir name");
    if (!mkdtemp(g_dir))
        die("mkdtemp");
    if (atexit(remove_scratch) != 0)
        die("atexit");
    return g_dir;
}

char *fuzz_cstring(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        die("malloc");
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[1024];
    if (snprintf(path, sizeof path, "%s/%s", fuzz_scratch_dir(), name) >= (int)sizeof path)
        die("scratch file name");
    FILE *f = fopen(path, "wb");
    if (!f)
        die(path);
    if ((size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        die(path);
    return path;
}

void fuzz_clear_scratch(void)
{
    if (!g_dir[0])
        return;
    DIR *d = opendir(g_dir);
    if (!d)
        die(g_dir);
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", g_dir, e->d_name) < (int)sizeof path)
            unlink(path); /* a command may leave a directory: rmdir it too */
        rmdir(path);
    }
    closedir(d);
}
