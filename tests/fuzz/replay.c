/* Replays inputs through a harness without libFuzzer (gcc builds, the
 * normal test suite): each argument is a file or a directory of files.
 * Every input must come back from LLVMFuzzerTestOneInput without a crash
 * (under ASan/UBSan in the sanitized build, without a report). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    int rc = -1;
    uint8_t *buf = NULL;
    if (fseek(f, 0, SEEK_END) != 0)
        goto done;
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
        goto done;
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        goto done;
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    rc = 0;
done:
    if (rc != 0)
        fprintf(stderr, "replay: cannot read %s\n", path);
    free(buf);
    fclose(f);
    return rc;
}

static int replay_path(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return replay_file(path);
    }
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        perror(path);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char sub[4096];
        if (names[i]->d_name[0] != '.' && rc == 0 &&
            snprintf(sub, sizeof sub, "%s/%s", path, names[i]->d_name) < (int)sizeof sub)
            rc = replay_path(sub, count);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(argv[i], &count) != 0)
            return 2;
    printf("replay: %d inputs, no crash\n", count);
    return count > 0 ? 0 : 1;
}
